package io.flightdeck.app.cockpit;

import com.google.protobuf.CodedOutputStream;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32C;
import javax.imageio.ImageIO;

/**
 * A TensorBoard run as Hugging Face's Trainer writes it, ending at a given moment: scalars ({@code
 * train/loss}, {@code train/learning_rate}, {@code train/grad_norm}, {@code eval/accuracy}), a
 * weight histogram that narrows as training goes, generated text samples and a PyTorch {@code
 * add_hparams} sub-run. Event files are TFRecords of hand-encoded {@code Event} protobufs (field
 * numbers from {@code shared/docs/tfevents-format.md}).
 */
final class TensorBoardRun {
  static final String NAME = "vit-base-tb";
  static final int STEPS = 300;
  static final double SECONDS_PER_STEP = 10;

  private final ByteArrayOutputStream file = new ByteArrayOutputStream();
  private final Random random = new Random(7);

  /** Writes the run into {@code logdir/NAME}; the last event is at {@code endSeconds}. */
  static void write(Path logdir, double endSeconds) throws IOException {
    Path dir = Files.createDirectories(logdir.resolve(NAME));
    TensorBoardRun run = new TensorBoardRun();
    double start = Math.floor(endSeconds) - STEPS * SECONDS_PER_STEP;
    for (int step = 1; step <= STEPS; step++) {
      double t = start + step * SECONDS_PER_STEP;
      run.scalar(t, step, "train/loss", 0.3 + 2.2 * Math.exp(-step / 80.0) + run.noise(0.05));
      run.scalar(t, step, "train/learning_rate", step < 30 ? 5e-4 * step / 30 : 5e-4);
      run.scalar(t, step, "train/grad_norm", 1.2 + run.noise(0.2));
      if (step % 20 == 0) {
        run.scalar(t + 0.5, step, "eval/accuracy", 0.95 - 0.6 * Math.exp(-step / 90.0));
        run.histogram(t + 0.5, step, "weights/layer1", 1.0 / (1 + step / 100.0));
      }
      if (step % 100 == 0) {
        run.text(
            t + 0.5, step, "samples/generated", "step " + step + ": a photo of a cat on a mat");
        run.image(t + 0.5, step, "samples/reconstruction", step / (double) STEPS);
      }
    }
    Files.write(dir.resolve("events.out.tfevents.1.trainer"), run.file.toByteArray());
    TensorBoardRun hparams = new TensorBoardRun();
    hparams.hparams(start, "lr", 5e-4);
    Path sub = Files.createDirectories(dir.resolve(String.valueOf((long) start)));
    Files.write(sub.resolve("events.out.tfevents.2.trainer"), hparams.file.toByteArray());
  }

  private double noise(double scale) {
    return random.nextGaussian() * scale;
  }

  private void scalar(double wallTime, long step, String tag, double value) throws IOException {
    event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeFloat(2, (float) value);
        });
  }

  /** A histogram of about 1,000 normal values of standard deviation {@code sigma}, 20 buckets. */
  private void histogram(double wallTime, long step, String tag, double sigma) throws IOException {
    int buckets = 20;
    double[] limits = new double[buckets];
    double[] counts = new double[buckets];
    double sum = 0;
    for (int i = 0; i < buckets; i++) {
      limits[i] = i == buckets - 1 ? Double.MAX_VALUE : -2 + 4.0 * (i + 1) / buckets;
    }
    for (int n = 0; n < 1000; n++) {
      double v = random.nextGaussian() * sigma;
      sum += v;
      int i = 0;
      while (i < buckets - 1 && v > limits[i]) {
        i++;
      }
      counts[i]++;
    }
    double total = 1000;
    double finalSum = sum;
    byte[] histo =
        message(
            out -> {
              out.writeDouble(1, -2);
              out.writeDouble(2, 2);
              out.writeDouble(3, total);
              out.writeDouble(4, finalSum);
              packed(out, 6, limits);
              packed(out, 7, counts);
            });
    event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeByteArray(5, histo);
        });
  }

  /** A text sample as PyTorch writes it: a one-element string tensor with the text plugin. */
  private void text(double wallTime, long step, String tag, String text) throws IOException {
    byte[] plugin = message(out -> out.writeString(1, "text"));
    byte[] metadata = message(out -> out.writeByteArray(1, plugin));
    byte[] shape = message(out -> out.writeByteArray(2, message(dim -> dim.writeInt64(1, 1))));
    byte[] tensor =
        message(
            out -> {
              out.writeEnum(1, 7); // DT_STRING
              out.writeByteArray(2, shape);
              out.writeByteArray(8, text.getBytes(StandardCharsets.UTF_8));
            });
    event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeByteArray(9, metadata);
          out.writeByteArray(8, tensor);
        });
  }

  /**
   * A legacy Summary.Image: a 32x32 PNG that sharpens from noise to a gradient as {@code done}
   * grows.
   */
  private void image(double wallTime, long step, String tag, double done) throws IOException {
    BufferedImage picture = new BufferedImage(32, 32, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < 32; y++) {
      for (int x = 0; x < 32; x++) {
        int clean = (x + y) * 4;
        int value =
            (int) Math.max(0, Math.min(255, clean * done + random.nextInt(256) * (1 - done)));
        picture.setRGB(x, y, value << 16 | (255 - value) << 8 | 128);
      }
    }
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    ImageIO.write(picture, "png", png);
    byte[] image =
        message(
            out -> {
              out.writeInt32(1, 32);
              out.writeInt32(2, 32);
              out.writeInt32(3, 3);
              out.writeByteArray(4, png.toByteArray());
            });
    event(
        wallTime,
        step,
        out -> {
          out.writeString(1, tag);
          out.writeByteArray(4, image);
        });
  }

  /** PyTorch's add_hparams session start with one numeric hyperparameter. */
  private void hparams(double wallTime, String name, double value) throws IOException {
    byte[] entry =
        message(
            out -> {
              out.writeString(1, name);
              out.writeByteArray(2, message(v -> v.writeDouble(2, value)));
            });
    byte[] start = message(out -> out.writeByteArray(1, entry));
    byte[] content = message(out -> out.writeByteArray(3, start));
    byte[] plugin =
        message(
            out -> {
              out.writeString(1, "hparams");
              out.writeByteArray(2, content);
            });
    byte[] metadata = message(out -> out.writeByteArray(1, plugin));
    event(
        wallTime,
        0,
        out -> {
          out.writeString(1, "_hparams_/session_start_info");
          out.writeByteArray(9, metadata);
        });
  }

  private void event(double wallTime, long step, Fields value) throws IOException {
    byte[] summary = message(out -> out.writeByteArray(1, message(value)));
    byte[] payload =
        message(
            out -> {
              out.writeDouble(1, wallTime);
              out.writeInt64(2, step);
              out.writeByteArray(5, summary);
            });
    ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(payload.length).putInt(maskedCrc(header.array(), 8));
    file.writeBytes(header.array());
    file.writeBytes(payload);
    file.writeBytes(
        ByteBuffer.allocate(4)
            .order(ByteOrder.LITTLE_ENDIAN)
            .putInt(maskedCrc(payload, payload.length))
            .array());
  }

  private static void packed(CodedOutputStream out, int field, double[] values) throws IOException {
    out.writeTag(field, 2);
    out.writeUInt32NoTag(values.length * Double.BYTES);
    for (double v : values) {
      out.writeDoubleNoTag(v);
    }
  }

  private static int maskedCrc(byte[] bytes, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, length);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }

  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    fields.write(out);
    out.flush();
    return bytes.toByteArray();
  }
}
