package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a {@code TensorProto} summaries use: dtype, shape and the values, which arrive
 * either as raw little-endian {@code tensor_content} (TF2's C++ writer) or as typed {@code *_val}
 * lists (PyTorch, tensorboardX), packed or not.
 */
final class Tensor {
  static final int DT_FLOAT = 1;
  static final int DT_DOUBLE = 2;
  static final int DT_STRING = 7;

  int dtype;
  final List<Long> shape = new ArrayList<>();
  private ByteString content = ByteString.EMPTY;
  private final List<Double> floatVal = new ArrayList<>();
  private final List<Double> doubleVal = new ArrayList<>();
  final List<ByteString> stringVal = new ArrayList<>();

  private Tensor() {}

  static Tensor parse(ByteString bytes) throws IOException {
    CodedInputStream in = bytes.newCodedInput();
    ByteString shapeBytes = ByteString.EMPTY;
    Tensor tensor = new Tensor();
    List<Double> floats = tensor.floatVal;
    List<Double> doubles = tensor.doubleVal;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case (1 << 3) | WireFormat.WIRETYPE_VARINT -> tensor.dtype = in.readEnum();
        case (2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> shapeBytes = in.readBytes();
        case (4 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> tensor.content = in.readBytes();
        case (5 << 3) | WireFormat.WIRETYPE_FIXED32 -> floats.add((double) in.readFloat());
        case (5 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int limit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            floats.add((double) in.readFloat());
          }
          in.popLimit(limit);
        }
        case (6 << 3) | WireFormat.WIRETYPE_FIXED64 -> doubles.add(in.readDouble());
        case (6 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED -> {
          int limit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            doubles.add(in.readDouble());
          }
          in.popLimit(limit);
        }
        case (8 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED ->
            tensor.stringVal.add(in.readBytes());
        default -> in.skipField(tag);
      }
    }
    parseShape(shapeBytes, tensor.shape);
    return tensor;
  }

  /** {@code TensorShapeProto}: repeated {@code dim} (2), each with {@code size} (1). */
  private static void parseShape(ByteString bytes, List<Long> shape) throws IOException {
    CodedInputStream in = bytes.newCodedInput();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      if (tag == ((2 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
        CodedInputStream dim = in.readBytes().newCodedInput();
        long size = 0;
        for (int t = dim.readTag(); t != 0; t = dim.readTag()) {
          if (t == ((1 << 3) | WireFormat.WIRETYPE_VARINT)) {
            size = dim.readInt64();
          } else {
            dim.skipField(t);
          }
        }
        shape.add(size);
      } else {
        in.skipField(tag);
      }
    }
  }

  /**
   * The elements of a float32 or float64 tensor widened to double, or null for other dtypes and for
   * content whose length is not a whole number of elements.
   */
  double[] numbers() {
    int width =
        switch (dtype) {
          case DT_FLOAT -> Float.BYTES;
          case DT_DOUBLE -> Double.BYTES;
          default -> 0;
        };
    if (width == 0) {
      return null;
    }
    if (!content.isEmpty()) {
      if (content.size() % width != 0) {
        return null;
      }
      ByteBuffer raw = content.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
      double[] values = new double[content.size() / width];
      for (int i = 0; i < values.length; i++) {
        values[i] = width == Float.BYTES ? raw.getFloat() : raw.getDouble();
      }
      return values;
    }
    List<Double> list = dtype == DT_FLOAT ? floatVal : doubleVal;
    return list.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
