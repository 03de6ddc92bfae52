package io.flightdeck.tensorboard;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes the {@code Event} protobuf of one record and its {@code Summary} values, walking the wire
 * format by hand (field numbers from {@code tensorboard/compat/proto/event.proto} and {@code
 * summary.proto}). Writers attach a tag's {@code SummaryMetadata} to its first value in a file
 * only, so the plugin name of each tag is remembered here: one decoder per run, shared by the run's
 * files. Not thread-safe.
 */
final class EventDecoder {
  private static final int LEN = WireFormat.WIRETYPE_LENGTH_DELIMITED;

  /** One event's content. {@code fileVersion} is null unless the event is the version record. */
  record DecodedEvent(double wallTime, long step, String fileVersion, List<SummaryPoint> points) {}

  /** Summary.Value fields before interpretation; {@code kind} is the set oneof field, 0 if none. */
  record RawValue(
      String tag,
      int kind,
      float simpleValue,
      ByteString payload,
      String plugin,
      ByteString content) {}

  private final Map<String, String> pluginByTag = new HashMap<>();

  /** The tags {@link #pluginByTag} gives to the hparams plugin, for the common events' shortcut. */
  private final Set<String> hparamsTags = new HashSet<>();

  private final CommonEventDecoder common = new CommonEventDecoder();

  /**
   * Decodes a whole event before anything is handed out, so a record that fails half way yields
   * nothing and leaves the remembered metadata untouched. The points keep no reference to {@code
   * bytes}, which the caller may overwrite afterwards.
   */
  DecodedEvent decode(byte[] bytes, int offset, int length) throws IOException {
    DecodedEvent event = common.decode(bytes, offset, length, hparamsTags);
    return event != null ? event : decodeAny(bytes, offset, length);
  }

  /**
   * Hands the event's scalar to {@code to} if the event is a plain {@code simple_value} scalar, the
   * most common event by far, and returns true; else false (then {@link #decode} it). The scalar
   * goes alone, without an event and a list around it.
   */
  boolean simpleScalar(byte[] bytes, int offset, int length, EventListener to) {
    return common.simpleScalar(bytes, offset, length, hparamsTags, to);
  }

  /**
   * Hands the event's histogram to {@code to} as fields if the event is one legacy {@code histo}
   * histogram and returns true; else false (then {@link #decode} it).
   */
  boolean simpleHistogram(byte[] bytes, int offset, int length, EventListener to) {
    return common.simpleHistogram(bytes, offset, length, hparamsTags, to);
  }

  /** The general path, for every event: {@link #decode} without the shortcut of common events. */
  DecodedEvent decodeAny(byte[] bytes, int offset, int length) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
    in.enableAliasing(true);
    double wallTime = 0;
    long step = 0;
    String fileVersion = null;
    List<ByteString> summaries = new ArrayList<>();
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      switch (t) {
        case (1 << 3) | WireFormat.WIRETYPE_FIXED64 -> wallTime = in.readDouble();
        case (2 << 3) | WireFormat.WIRETYPE_VARINT -> step = in.readInt64();
        case (3 << 3) | LEN -> fileVersion = in.readStringRequireUtf8();
        case (5 << 3) | LEN -> summaries.add(in.readBytes());
        default -> in.skipField(t);
      }
    }
    List<RawValue> values = new ArrayList<>();
    for (ByteString summary : summaries) {
      CodedInputStream s = summary.newCodedInput();
      for (int t = s.readTag(); t != 0; t = s.readTag()) {
        if (t == ((1 << 3) | LEN)) {
          values.add(value(s.readBytes()));
        } else {
          s.skipField(t);
        }
      }
    }
    // As in TensorBoard, the first metadata seen for a tag names its plugin for the whole run.
    Map<String, String> learned = new HashMap<>();
    List<SummaryPoint> points = new ArrayList<>(values.size());
    for (RawValue value : values) {
      String plugin = value.plugin();
      if (plugin.isEmpty()) {
        plugin = learned.getOrDefault(value.tag(), pluginByTag.getOrDefault(value.tag(), ""));
      } else if (!pluginByTag.containsKey(value.tag())) {
        learned.putIfAbsent(value.tag(), plugin);
      }
      points.addAll(ValueConverter.convert(value, plugin, step, wallTime));
    }
    pluginByTag.putAll(learned);
    learned.forEach(
        (tag, plugin) -> {
          if (plugin.equals("hparams")) {
            hparamsTags.add(tag);
          }
        });
    return new DecodedEvent(wallTime, step, fileVersion, points);
  }

  /**
   * {@code Summary.Value}: tag 1, simple_value 2, histo 5, image 4, audio 6, tensor 8, metadata 9
   * ({@code plugin_data} 1 holding {@code plugin_name} 1 and {@code content} 2).
   */
  private static RawValue value(ByteString bytes) throws IOException {
    CodedInputStream in = bytes.newCodedInput();
    String tag = "";
    int kind = 0;
    float simple = 0;
    ByteString payload = ByteString.EMPTY;
    String plugin = "";
    ByteString content = ByteString.EMPTY;
    for (int t = in.readTag(); t != 0; t = in.readTag()) {
      int field = WireFormat.getTagFieldNumber(t);
      switch (t) {
        case (1 << 3) | LEN -> tag = in.readStringRequireUtf8();
        case (2 << 3) | WireFormat.WIRETYPE_FIXED32 -> {
          kind = field;
          simple = in.readFloat();
        }
        case (3 << 3) | LEN, (4 << 3) | LEN, (5 << 3) | LEN, (6 << 3) | LEN, (8 << 3) | LEN -> {
          kind = field;
          payload = in.readBytes();
        }
        case (9 << 3) | LEN -> {
          CodedInputStream meta = in.readBytes().newCodedInput();
          for (int m = meta.readTag(); m != 0; m = meta.readTag()) {
            if (m == ((1 << 3) | LEN)) {
              CodedInputStream data = meta.readBytes().newCodedInput();
              for (int d = data.readTag(); d != 0; d = data.readTag()) {
                switch (d) {
                  case (1 << 3) | LEN -> plugin = data.readStringRequireUtf8();
                  case (2 << 3) | LEN -> content = data.readBytes();
                  default -> data.skipField(d);
                }
              }
            } else {
              meta.skipField(m);
            }
          }
        }
        default -> in.skipField(t);
      }
    }
    return new RawValue(tag, kind, simple, payload, plugin, content);
  }
}
