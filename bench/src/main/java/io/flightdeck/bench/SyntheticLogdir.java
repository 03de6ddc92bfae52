package io.flightdeck.bench;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Writes a TensorBoard logdir the way PyTorch's {@code SummaryWriter} does: one event file per run,
 * each {@code add_scalar}, {@code add_histogram} and {@code add_text} call one event. Per step a
 * run logs {@value #SCALARS_PER_STEP} scalars; every {@value #HISTOGRAM_EVERY} steps a 30-bucket
 * histogram of {@value #HISTOGRAMS} layers; every {@value #TEXT_EVERY} steps a text sample. Runs
 * split the requested size evenly; their steps end at {@code endSeconds}, half a second apart.
 * Histogram edges are fixed per layer (PyTorch's default bins) or, with {@code movingEdges}, 30
 * even buckets between each histogram's minimum and maximum, as TF2's {@code tf.summary.histogram}
 * writes them. Deterministic for a seed, except for the end time.
 */
final class SyntheticLogdir {
  static final int SCALARS_PER_STEP = 5;
  static final int HISTOGRAM_EVERY = 20;
  static final int HISTOGRAMS = 4;
  static final int TEXT_EVERY = 500;
  private static final int BUCKETS = 30;
  private static final double STEP_SECONDS = 0.5;
  private static final String[] SCALAR_TAGS = {
    "train/loss",
    "train/learning_rate",
    "train/grad_norm",
    "train/tokens_per_second",
    "eval/accuracy"
  };

  /** What was written. */
  record Written(int runs, long records, long bytes, long stepsPerRun) {}

  private final long seed;
  private final boolean movingEdges;
  private final byte[] buffer = new byte[64 * 1024];
  private long records;

  SyntheticLogdir(long seed, boolean movingEdges) {
    this.seed = seed;
    this.movingEdges = movingEdges;
  }

  Written write(Path logdir, long totalBytes, int runs, double endSeconds) throws IOException {
    long perRun = totalBytes / runs;
    long steps = Math.max(1, perRun / bytesPerStep());
    long bytes = 0;
    for (int r = 0; r < runs; r++) {
      Path dir = Files.createDirectories(logdir.resolve(String.format("run-%03d", r)));
      double start = endSeconds - steps * STEP_SECONDS;
      Path file = dir.resolve(String.format("events.out.tfevents.%d.bench.%d.0", (long) start, r));
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
        TfRecordWriter writer = new TfRecordWriter(out);
        writeRun(writer, new Random(seed + r), r, steps, start);
        bytes += writer.bytes();
      }
    }
    return new Written(runs, records, bytes, steps);
  }

  /** Average bytes one step adds, measured on a sample of steps written to nowhere. */
  private long bytesPerStep() throws IOException {
    int sample = TEXT_EVERY * 2;
    TfRecordWriter probe = new TfRecordWriter(OutputStream.nullOutputStream());
    long before = records;
    writeRun(probe, new Random(seed), 0, sample, 0);
    records = before;
    return Math.max(1, probe.bytes() / sample);
  }

  private void writeRun(TfRecordWriter out, Random random, int run, long steps, double start)
      throws IOException {
    event(out, start, o -> o.writeString(3, "brain.Event:2"));
    double lrPeak = 3e-4 * (1 + run % 4);
    for (long step = 0; step < steps; step++) {
      double wall = start + step * STEP_SECONDS;
      double progress = (double) step / steps;
      float[] values = {
        (float) (2.5 * Math.exp(-3 * progress) + 0.4 + 0.05 * random.nextGaussian()),
        (float) (lrPeak * 0.5 * (1 + Math.cos(Math.PI * progress))),
        (float) Math.abs(1 + 0.3 * random.nextGaussian()),
        (float) (52_000 + 800 * random.nextGaussian()),
        (float) Math.min(1, 0.3 + 0.6 * progress + 0.02 * random.nextGaussian())
      };
      for (int i = 0; i < SCALAR_TAGS.length; i++) {
        scalar(out, wall, step, SCALAR_TAGS[i], values[i]);
      }
      if (step % HISTOGRAM_EVERY == 0) {
        for (int layer = 0; layer < HISTOGRAMS; layer++) {
          histogram(out, wall, step, "weights/layer" + layer, 0.02 * (1 + layer), 1 + progress);
        }
      }
      if (step % TEXT_EVERY == 0) {
        text(out, wall, step, "samples/text_summary", sampleText(random, step));
      }
    }
  }

  private static String sampleText(Random random, long step) {
    return "step "
        + step
        + ": the model wrote token sequence "
        + Long.toHexString(random.nextLong())
        + " for prompt "
        + random.nextInt(1000);
  }

  private void scalar(TfRecordWriter out, double wall, long step, String tag, float value)
      throws IOException {
    byte[] v =
        message(
            o -> {
              o.writeString(1, tag);
              o.writeFloat(2, value);
            });
    summary(out, wall, step, v);
  }

  /**
   * A legacy {@code histo} of a normal distribution with deviation {@code scale * spread}. Fixed
   * edges span {@code ±3 scale} and the layout stays the same from step to step, as with PyTorch's
   * default bins; moving edges split this histogram's own range (about {@code ±3 sigma}, a little
   * different at every step) into even buckets, so every point brings new edges.
   */
  private void histogram(
      TfRecordWriter out, double wall, long step, String tag, double scale, double spread)
      throws IOException {
    double sigma = scale * spread;
    double low = -3 * sigma * (1 + 0.05 * Math.sin(step));
    double high = 3 * sigma * (1 + 0.05 * Math.cos(step));
    double[] limits = new double[BUCKETS];
    double[] counts = new double[BUCKETS];
    double previous = 0;
    double n = 10_000;
    for (int i = 0; i < BUCKETS - 1; i++) {
      limits[i] =
          movingEdges
              ? low + (high - low) * (i + 1) / BUCKETS
              : scale * (-3 + 6.0 * (i + 1) / (BUCKETS - 1));
      double cdf = n * normalCdf(limits[i] / sigma);
      counts[i] = Math.rint(cdf - previous);
      previous += counts[i];
    }
    limits[BUCKETS - 1] = movingEdges ? high : Double.MAX_VALUE;
    counts[BUCKETS - 1] = n - previous;
    double min = movingEdges ? low : -3 * sigma;
    double max = movingEdges ? high : 3 * sigma;
    byte[] histo =
        message(
            o -> {
              o.writeDouble(1, min);
              o.writeDouble(2, max);
              o.writeDouble(3, n);
              o.writeDouble(4, 0.001 * step);
              o.writeDouble(5, n * sigma * sigma);
              packed(o, 6, limits);
              packed(o, 7, counts);
            });
    byte[] v =
        message(
            o -> {
              o.writeString(1, tag);
              o.writeByteArray(5, histo);
            });
    summary(out, wall, step, v);
  }

  private void text(TfRecordWriter out, double wall, long step, String tag, String text)
      throws IOException {
    byte[] plugin = message(o -> o.writeString(1, "text"));
    byte[] metadata = message(o -> o.writeByteArray(1, plugin));
    byte[] shape = message(o -> o.writeByteArray(2, message(d -> d.writeInt64(1, 1))));
    byte[] tensor =
        message(
            o -> {
              o.writeEnum(1, 7); // DT_STRING
              o.writeByteArray(2, shape);
              o.writeByteArray(8, text.getBytes(StandardCharsets.UTF_8));
            });
    byte[] v =
        message(
            o -> {
              o.writeString(1, tag);
              o.writeByteArray(9, metadata);
              o.writeByteArray(8, tensor);
            });
    summary(out, wall, step, v);
  }

  private void summary(TfRecordWriter out, double wall, long step, byte[] value)
      throws IOException {
    byte[] summary = message(o -> o.writeByteArray(1, value));
    event(
        out,
        wall,
        o -> {
          o.writeInt64(2, step);
          o.writeByteArray(5, summary);
        });
  }

  private void event(TfRecordWriter out, double wall, Fields fields) throws IOException {
    CodedOutputStream o = CodedOutputStream.newInstance(buffer);
    o.writeDouble(1, wall);
    fields.write(o);
    out.write(buffer, o.getTotalBytesWritten());
    records++;
  }

  private static void packed(CodedOutputStream o, int field, double[] values) throws IOException {
    o.writeTag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    o.writeUInt32NoTag(values.length * Double.BYTES);
    for (double v : values) {
      o.writeDoubleNoTag(v);
    }
  }

  /** Abramowitz and Stegun 7.1.26: enough for plausible bucket counts. */
  private static double normalCdf(double z) {
    double x = Math.abs(z) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double erf =
        1
            - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
                    + 0.254829592)
                * t
                * Math.exp(-x * x);
    return 0.5 * (1 + Math.copySign(erf, z));
  }

  private interface Fields {
    void write(CodedOutputStream out) throws IOException;
  }

  private static byte[] message(Fields fields) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    CodedOutputStream o = CodedOutputStream.newInstance(bytes);
    fields.write(o);
    o.flush();
    return bytes.toByteArray();
  }
}
