package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.flightdeck.tensorboard.EventDecoder.RawValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one summary value into a typed point. The legacy oneof fields ({@code simple_value}, {@code
 * histo}, {@code image}) say what they are; a {@code tensor} means what its tag's plugin says, as
 * in TensorBoard's {@code data_compat}.
 */
final class ValueConverter {
  private static final int KIND_NONE = 0;
  private static final int KIND_SIMPLE_VALUE = 2;
  private static final int KIND_OLD_HISTOGRAM = 3;
  private static final int KIND_IMAGE = 4;
  private static final int KIND_HISTO = 5;
  private static final int KIND_AUDIO = 6;
  private static final int KIND_TENSOR = 8;

  private ValueConverter() {}

  /** Usually one point; an {@code images} tensor gives one per image. */
  static List<SummaryPoint> convert(RawValue value, String plugin, long step, double wallTime)
      throws IOException {
    String tag = value.tag();
    if (plugin.equals("hparams")) {
      HParamsPoint point = HParamsDecoder.decode(tag, step, wallTime, value.content());
      return List.of(
          point != null ? point : skip(value, plugin, step, wallTime, "no hparams message"));
    }
    if (value.kind() == KIND_TENSOR && plugin.equals("images")) {
      return tensorImages(value, step, wallTime, Tensor.parse(value.payload()));
    }
    return List.of(single(value, plugin, step, wallTime));
  }

  private static SummaryPoint single(RawValue value, String plugin, long step, double wallTime)
      throws IOException {
    String tag = value.tag();
    return switch (value.kind()) {
      case KIND_SIMPLE_VALUE -> new ScalarPoint(tag, step, wallTime, value.simpleValue());
      case KIND_HISTO -> histogramProto(tag, step, wallTime, value.payload());
      case KIND_IMAGE -> legacyImage(tag, step, wallTime, value.payload());
      case KIND_AUDIO -> skip(value, "audio", step, wallTime, "audio is not kept");
      case KIND_OLD_HISTOGRAM -> skip(value, plugin, step, wallTime, "obsolete histogram");
      case KIND_TENSOR -> tensor(value, plugin, step, wallTime);
      case KIND_NONE -> skip(value, plugin, step, wallTime, "value carries no data");
      default -> skip(value, plugin, step, wallTime, "unknown value kind " + value.kind());
    };
  }

  private static SummaryPoint tensor(RawValue value, String plugin, long step, double wallTime)
      throws IOException {
    Tensor tensor = Tensor.parse(value.payload());
    String tag = value.tag();
    switch (plugin) {
      case "scalars" -> {
        double[] numbers = tensor.numbers();
        if (numbers != null && numbers.length == 1) {
          return new ScalarPoint(tag, step, wallTime, numbers[0]);
        }
        return skip(value, plugin, step, wallTime, "not a float scalar");
      }
      case "histograms" -> {
        double[] numbers = tensor.numbers();
        if (numbers != null && numbers.length % 3 == 0 && shapeFits(tensor, numbers.length)) {
          return tensorHistogram(tag, step, wallTime, numbers);
        }
        return skip(value, plugin, step, wallTime, "not a [k,3] float tensor");
      }
      case "text" -> {
        if (tensor.dtype == Tensor.DT_STRING) {
          List<String> texts = new ArrayList<>(tensor.stringVal.size());
          tensor.stringVal.forEach(s -> texts.add(s.toStringUtf8()));
          return new TextPoint(tag, step, wallTime, texts);
        }
        return skip(value, plugin, step, wallTime, "not a string tensor");
      }
      default -> {
        return skip(value, plugin, step, wallTime, "plugin not supported");
      }
    }
  }

  /** A {@code [k,3]} tensor's shape, when given, must agree with its element count. */
  private static boolean shapeFits(Tensor tensor, int elements) {
    return tensor.shape.isEmpty()
        || (tensor.shape.size() == 2
            && tensor.shape.get(1) == 3
            && tensor.shape.get(0) == elements / 3);
  }

  private static HistogramPoint tensorHistogram(
      String tag, long step, double wallTime, double[] rows) {
    int k = rows.length / 3;
    List<Double> limits = new ArrayList<>(k);
    List<Double> counts = new ArrayList<>(k);
    double num = 0;
    for (int i = 0; i < k; i++) {
      limits.add(rows[3 * i + 1]);
      counts.add(rows[3 * i + 2]);
      num += rows[3 * i + 2];
    }
    double min = k == 0 ? Double.NaN : rows[0];
    double max = k == 0 ? Double.NaN : rows[3 * k - 2];
    return new HistogramPoint(
        tag, step, wallTime, min, max, num, Double.NaN, Double.NaN, limits, counts);
  }

  /**
   * {@code HistogramProto}: min 1, max 2, num 3, sum 4, sum_squares 5, bucket_limit 6, bucket 7
   * (the repeated doubles packed or not).
   */
  private static HistogramPoint histogramProto(
      String tag, long step, double wallTime, ByteString bytes) throws IOException {
    double[] scalars = new double[5];
    List<Double> limits = new ArrayList<>();
    List<Double> counts = new ArrayList<>();
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      int field = WireFormat.getTagFieldNumber(t);
      int wireType = WireFormat.getTagWireType(t);
      if (field >= 1 && field <= 5 && wireType == WireFormat.WIRETYPE_FIXED64) {
        scalars[field - 1] = in.readDouble();
      } else if ((field == 6 || field == 7) && wireType == WireFormat.WIRETYPE_FIXED64) {
        (field == 6 ? limits : counts).add(in.readDouble());
      } else if ((field == 6 || field == 7) && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        List<Double> into = field == 6 ? limits : counts;
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) {
          into.add(in.readDouble());
        }
        in.popLimit(limit);
      } else {
        in.skipField(t);
      }
    }
    return new HistogramPoint(
        tag,
        step,
        wallTime,
        scalars[0],
        scalars[1],
        scalars[2],
        scalars[3],
        scalars[4],
        limits,
        counts);
  }

  /** {@code Summary.Image}: height 1, width 2, colorspace 3, encoded_image_string 4. */
  private static ImagePoint legacyImage(String tag, long step, double wallTime, ByteString bytes)
      throws IOException {
    int height = 0;
    int width = 0;
    int colorspace = 0;
    ByteString encoded = ByteString.EMPTY;
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (1 << 3) | WireFormat.WIRETYPE_VARINT -> height = in.readInt32();
        case (2 << 3) | WireFormat.WIRETYPE_VARINT -> width = in.readInt32();
        case (3 << 3) | WireFormat.WIRETYPE_VARINT -> colorspace = in.readInt32();
        case (4 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> encoded = in.readBytes();
        default -> in.skipField(t);
      }
    }
    return new ImagePoint(tag, step, wallTime, 0, width, height, colorspace, encoded.toByteArray());
  }

  /**
   * An {@code images} plugin tensor holds {@code [width, height, image...]}: the dimensions as
   * decimal strings, then the encoded images, each of which becomes a point.
   */
  private static List<SummaryPoint> tensorImages(
      RawValue value, long step, double wallTime, Tensor tensor) {
    List<ByteString> parts = tensor.stringVal;
    if (tensor.dtype != Tensor.DT_STRING || parts.size() < 2) {
      return List.of(skip(value, "images", step, wallTime, "not a [w, h, image...] string tensor"));
    }
    int width = parseDimension(parts.get(0));
    int height = parseDimension(parts.get(1));
    if (width < 0 || height < 0) {
      return List.of(skip(value, "images", step, wallTime, "bad image dimensions"));
    }
    List<SummaryPoint> points = new ArrayList<>(parts.size() - 2);
    for (int i = 2; i < parts.size(); i++) {
      points.add(
          new ImagePoint(
              value.tag(), step, wallTime, i - 2, width, height, 0, parts.get(i).toByteArray()));
    }
    return points;
  }

  private static int parseDimension(ByteString text) {
    String s = text.toStringUtf8();
    if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Integer.parseInt(s);
  }

  private static SkippedValue skip(
      RawValue value, String plugin, long step, double wallTime, String reason) {
    return new SkippedValue(value.tag(), step, wallTime, plugin, reason);
  }
}
