package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the {@code hparams} plugin's {@code HParamsPluginData} (the summary metadata content):
 * {@code experiment} (2), {@code session_start_info} (3) or {@code session_end_info} (4). Field
 * numbers follow {@code tensorboard/plugins/hparams/plugin_data.proto} and {@code api.proto}.
 */
final class HParamsDecoder {
  private static final int LEN = WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final String[] STATUS = {
    "STATUS_UNKNOWN", "STATUS_SUCCESS", "STATUS_FAILURE", "STATUS_RUNNING"
  };

  private HParamsDecoder() {}

  /** Returns null when the content holds none of the three messages. */
  static HParamsPoint decode(String tag, long step, double wallTime, ByteString content)
      throws IOException {
    CodedInputStream in = content.newCodedInput();
    HParamsPoint point = null;
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (2 << 3) | LEN -> point = experiment(tag, step, wallTime, in.readBytes());
        case (3 << 3) | LEN -> point = sessionStart(tag, step, wallTime, in.readBytes());
        case (4 << 3) | LEN -> point = sessionEnd(tag, step, wallTime, in.readBytes());
        default -> in.skipField(t);
      }
    }
    return point;
  }

  /** {@code Experiment}: hparam_infos (4) with name (1); metric_infos (5) with name (1). */
  private static HParamsPoint experiment(String tag, long step, double wallTime, ByteString bytes)
      throws IOException {
    List<String> hparamNames = new ArrayList<>();
    List<String> metricTags = new ArrayList<>();
    double created = 0;
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (3 << 3) | WireFormat.WIRETYPE_FIXED64 -> created = in.readDouble();
        case (4 << 3) | LEN -> hparamNames.add(stringField(in.readBytes(), 1));
        case (5 << 3) | LEN -> metricTags.add(stringField(bytesField(in.readBytes(), 1), 2));
        default -> in.skipField(t);
      }
    }
    return new HParamsPoint(
        tag,
        step,
        wallTime,
        HParamsPoint.Kind.EXPERIMENT,
        Map.of(),
        hparamNames,
        metricTags,
        "",
        "",
        created);
  }

  /** {@code SessionStartInfo}: hparams map (1), group_name (4), start_time_secs (5). */
  private static HParamsPoint sessionStart(String tag, long step, double wallTime, ByteString bytes)
      throws IOException {
    Map<String, Object> hparams = new LinkedHashMap<>();
    String group = "";
    double start = 0;
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (1 << 3) | LEN -> mapEntry(in.readBytes(), hparams);
        case (4 << 3) | LEN -> group = in.readStringRequireUtf8();
        case (5 << 3) | WireFormat.WIRETYPE_FIXED64 -> start = in.readDouble();
        default -> in.skipField(t);
      }
    }
    return new HParamsPoint(
        tag,
        step,
        wallTime,
        HParamsPoint.Kind.SESSION_START,
        hparams,
        List.of(),
        List.of(),
        group,
        "",
        start);
  }

  /** {@code SessionEndInfo}: status (1), end_time_secs (2). */
  private static HParamsPoint sessionEnd(String tag, long step, double wallTime, ByteString bytes)
      throws IOException {
    int status = 0;
    double end = 0;
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (1 << 3) | WireFormat.WIRETYPE_VARINT -> status = in.readEnum();
        case (2 << 3) | WireFormat.WIRETYPE_FIXED64 -> end = in.readDouble();
        default -> in.skipField(t);
      }
    }
    String name = status >= 0 && status < STATUS.length ? STATUS[status] : "STATUS_" + status;
    return new HParamsPoint(
        tag,
        step,
        wallTime,
        HParamsPoint.Kind.SESSION_END,
        Map.of(),
        List.of(),
        List.of(),
        "",
        name,
        end);
  }

  /**
   * A {@code map<string, google.protobuf.Value>} entry: key (1), value (2). Of {@code Value} only
   * number (2), string (3) and bool (4) are kept.
   */
  private static void mapEntry(ByteString bytes, Map<String, Object> into) throws IOException {
    String key = "";
    Object value = null;
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (1 << 3) | LEN -> key = in.readStringRequireUtf8();
        case (2 << 3) | LEN -> value = protobufValue(in.readBytes());
        default -> in.skipField(t);
      }
    }
    if (value != null) {
      into.put(key, value);
    }
  }

  private static Object protobufValue(ByteString bytes) throws IOException {
    Object value = null;
    CodedInputStream in = bytes.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (2 << 3) | WireFormat.WIRETYPE_FIXED64 -> value = in.readDouble();
        case (3 << 3) | LEN -> value = in.readStringRequireUtf8();
        case (4 << 3) | WireFormat.WIRETYPE_VARINT -> value = in.readBool();
        default -> {
          in.skipField(t);
          value = null;
        }
      }
    }
    return value;
  }

  private static ByteString bytesField(ByteString message, int field) throws IOException {
    ByteString found = ByteString.EMPTY;
    CodedInputStream in = message.newCodedInput();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      if (t == ((field << 3) | LEN)) {
        found = in.readBytes();
      } else {
        in.skipField(t);
      }
    }
    return found;
  }

  private static String stringField(ByteString message, int field) throws IOException {
    return bytesField(message, field).toStringUtf8();
  }
}
