package io.flightdeck.tensorboard;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes the events trainers write by the million, scalars as {@code simple_value} and histograms
 * as {@code histo} without metadata, straight from the record's bytes: no protobuf stream, no
 * copies of nested messages, and tags looked up instead of decoded. It takes only the exact wire
 * shape those writers produce (one-byte field tags, known fields, sound lengths); for anything
 * else, damage included, it returns null and {@link EventDecoder}'s general path decides and
 * reports, so what it returns is always what that path would. Not thread-safe.
 */
final class CommonEventDecoder {
  // Field tags, (field << 3) | wire type, of event.proto and summary.proto.
  private static final int EVENT_WALL_TIME = (1 << 3) | 1;
  private static final int EVENT_STEP = 2 << 3;
  private static final int EVENT_SUMMARY = (5 << 3) | 2;
  private static final int SUMMARY_VALUE = (1 << 3) | 2;
  private static final int VALUE_TAG = (1 << 3) | 2;
  private static final int VALUE_SIMPLE = (2 << 3) | 5;
  private static final int VALUE_HISTO = (5 << 3) | 2;

  /** Summaries per event beyond which the general path takes over; writers put one. */
  private static final int MAX_SUMMARIES = 4;

  private final TagCache tags = new TagCache();
  private final ScalarCapture captured = new ScalarCapture();
  private final Map<String, DoubleList> limitsByTag = new HashMap<>();
  private final List<SummaryPoint> eventPoints = new ArrayList<>();
  private final int[] summaryStarts = new int[MAX_SUMMARIES];
  private final int[] summaryEnds = new int[MAX_SUMMARIES];
  private final double[] histoScalars = new double[5];
  private final HistogramFields histogramFields = new HistogramFields();
  private double[] limits = new double[64];
  private double[] counts = new double[64];
  private int limitCount;
  private int countCount;
  private byte[] buf;
  private int pos;

  /** The buffer {@link #doubleViews} view. */
  private byte[] viewed;

  private final DoubleBuffer[] doubleViews = new DoubleBuffer[8];

  /**
   * The event's points, or null when the event is not of the common shape.
   *
   * @param hparamsTags the tags some metadata of the run marked as {@code hparams} so far: they are
   *     left to the general path
   */
  EventDecoder.DecodedEvent decode(byte[] bytes, int offset, int length, Set<String> hparamsTags) {
    if (simpleScalar(bytes, offset, length, hparamsTags, captured)) {
      ScalarPoint scalar = captured.point;
      return new EventDecoder.DecodedEvent(
          scalar.wallTimeSeconds(), scalar.step(), null, List.of(scalar));
    }
    buf = bytes;
    pos = offset;
    int end = offset + length;
    double wallTime = 0;
    long step = 0;
    int summaries = 0;
    while (pos < end) {
      int tag = buf[pos++];
      if (tag == EVENT_WALL_TIME) {
        if (end - pos < 8) {
          return null;
        }
        wallTime = Double.longBitsToDouble(littleEndian64(pos));
        pos += 8;
      } else if (tag == EVENT_STEP) {
        step = varint64(end);
        if (pos < 0) {
          return null;
        }
      } else if (tag == EVENT_SUMMARY && summaries < MAX_SUMMARIES) {
        int len = length(end);
        if (len < 0) {
          return null;
        }
        summaryStarts[summaries] = pos;
        summaryEnds[summaries++] = pos + len;
        pos += len;
      } else {
        return null;
      }
    }
    eventPoints.clear();
    for (int i = 0; i < summaries; i++) {
      if (!summary(summaryStarts[i], summaryEnds[i], wallTime, step, hparamsTags, eventPoints)) {
        return null;
      }
    }
    // Writers put one value per event: one small immutable list instead of a list and its array.
    return new EventDecoder.DecodedEvent(
        wallTime,
        step,
        null,
        eventPoints.size() == 1 ? List.of(eventPoints.get(0)) : List.copyOf(eventPoints));
  }

  /**
   * The most common event of all, read in one pass over local variables: wall_time, an optional
   * step, and a summary of one value holding a tag and a {@code simple_value}, in that order, with
   * one-byte lengths, as the writers lay it out. Its scalar goes to {@code to} as fields, without a
   * point object. False for any other layout, which the field loop then reads (C1 keeps that loop's
   * position in a field, loaded and stored at every byte).
   */
  boolean simpleScalar(
      byte[] b, int offset, int length, Set<String> hparamsTags, EventListener to) {
    int end = offset + length;
    if (length < 9 || b[offset] != EVENT_WALL_TIME) {
      return false;
    }
    double wallTime = Double.longBitsToDouble(littleEndian64(b, offset + 1));
    int p = offset + 9;
    long step = 0;
    if (p < end && b[p] == EVENT_STEP) {
      p++;
      int shift = 0;
      while (true) {
        if (p == end || shift == 70) {
          return false;
        }
        byte next = b[p++];
        step |= (long) (next & 0x7f) << shift;
        if (next >= 0) {
          break;
        }
        shift += 7;
      }
    }
    // Three nested one-byte lengths, each reaching exactly to the event's end, then the float.
    if (end - p < 6 + 5
        || b[p] != EVENT_SUMMARY
        || b[p + 1] != end - p - 2
        || b[p + 2] != SUMMARY_VALUE
        || b[p + 3] != end - p - 4
        || b[p + 4] != VALUE_TAG) {
      return false;
    }
    int tagStart = p + 6;
    int tagLength = b[p + 5];
    if (tagLength < 0 || tagStart + tagLength != end - 5 || b[end - 5] != VALUE_SIMPLE) {
      return false;
    }
    String tag = tags.get(b, tagStart, tagLength);
    if (tag == null || isHparams(tag, hparamsTags)) {
      return false;
    }
    float value = Float.intBitsToFloat(littleEndian32(b, end - 4));
    to.scalar(tag, step, wallTime, value);
    return true;
  }

  /**
   * An event of one legacy {@code histo} histogram, as writers lay it out: wall_time, an optional
   * step, and a summary of one value holding a tag and then the histogram. Its fields go to {@code
   * to} (see {@link EventListener#histogram}) without a point, a copy of its counts, an event and a
   * list around it, which were most of what a 1 GB import allocated. False for any other layout.
   */
  boolean simpleHistogram(
      byte[] b, int offset, int length, Set<String> hparamsTags, EventListener to) {
    int end = offset + length;
    if (length < 9 || b[offset] != EVENT_WALL_TIME) {
      return false;
    }
    buf = b;
    double wallTime = Double.longBitsToDouble(littleEndian64(offset + 1));
    pos = offset + 9;
    long step = 0;
    if (pos < end && buf[pos] == EVENT_STEP) {
      pos++;
      step = varint64(end);
      if (pos < 0) {
        return false;
      }
    }
    if (!reachesEnd(EVENT_SUMMARY, end)
        || !reachesEnd(SUMMARY_VALUE, end)
        || pos >= end
        || buf[pos++] != VALUE_TAG) {
      return false;
    }
    int tagLength = length(end);
    if (tagLength < 0) {
      return false;
    }
    String tag = tags.get(buf, pos, tagLength);
    pos += tagLength;
    if (tag == null
        || isHparams(tag, hparamsTags)
        || !reachesEnd(VALUE_HISTO, end)
        || !histo(pos, end)) {
      return false;
    }
    HistogramFields h = histogramFields;
    h.tag = tag;
    h.step = step;
    h.wallTimeSeconds = wallTime;
    h.min = histoScalars[0];
    h.max = histoScalars[1];
    h.num = histoScalars[2];
    h.sum = histoScalars[3];
    h.sumSquares = histoScalars[4];
    h.bucketLimits = sameLimitsAsBefore(tag);
    h.counts = counts;
    h.countsFrom = 0;
    h.countsTo = countCount;
    to.histogram(h);
    return true;
  }

  /**
   * Whether a field {@code field} whose length reaches exactly to {@code end} starts at {@link
   * #pos}; if so, {@link #pos} moves to its content.
   */
  private boolean reachesEnd(int field, int end) {
    if (pos >= end || buf[pos] != field) {
      return false;
    }
    pos++;
    int len = length(end);
    return len >= 0 && pos + len == end;
  }

  /**
   * Almost always no tag is, and the set's emptiness answers: a lookup per scalar was a fifth of
   * the import's decoding thread.
   */
  private static boolean isHparams(String tag, Set<String> hparamsTags) {
    return !hparamsTags.isEmpty() && hparamsTags.contains(tag);
  }

  /** Keeps the scalar {@link #simpleScalar} hands over, for {@link #decode}. */
  private static final class ScalarCapture implements EventListener {
    ScalarPoint point;

    @Override
    public void point(SummaryPoint p) {
      point = (ScalarPoint) p;
    }
  }

  private boolean summary(
      int start,
      int end,
      double wallTime,
      long step,
      Set<String> hparamsTags,
      List<SummaryPoint> points) {
    pos = start;
    while (pos < end) {
      if (buf[pos++] != SUMMARY_VALUE) {
        return false;
      }
      int len = length(end);
      if (len < 0) {
        return false;
      }
      int valueEnd = pos + len;
      SummaryPoint point = value(valueEnd, wallTime, step, hparamsTags);
      if (point == null) {
        return false;
      }
      points.add(point);
      pos = valueEnd;
    }
    return true;
  }

  /** One {@code Summary.Value} ending at {@code end}, or null when not of the common shape. */
  private SummaryPoint value(int end, double wallTime, long step, Set<String> hparamsTags) {
    String tag = "";
    int kind = 0;
    float simple = 0;
    int histoStart = 0;
    int histoEnd = 0;
    while (pos < end) {
      int field = buf[pos++];
      if (field == VALUE_TAG) {
        int len = length(end);
        if (len < 0) {
          return null;
        }
        tag = tags.get(buf, pos, len);
        if (tag == null) {
          return null; // not UTF-8: the general path reports it
        }
        pos += len;
      } else if (field == VALUE_SIMPLE) {
        if (end - pos < 4) {
          return null;
        }
        kind = VALUE_SIMPLE;
        simple = Float.intBitsToFloat(littleEndian32(pos));
        pos += 4;
      } else if (field == VALUE_HISTO) {
        int len = length(end);
        if (len < 0) {
          return null;
        }
        kind = VALUE_HISTO;
        histoStart = pos;
        histoEnd = pos + len;
        pos += len;
      } else {
        return null; // metadata, tensors, images, audio: the general path knows them
      }
    }
    if (kind == 0 || isHparams(tag, hparamsTags)) {
      return null;
    }
    if (kind == VALUE_SIMPLE) {
      return new ScalarPoint(tag, step, wallTime, simple);
    }
    return histo(histoStart, histoEnd) ? histogramPoint(tag, step, wallTime) : null;
  }

  /**
   * {@code HistogramProto}: min 1, max 2, num 3, sum 4, sum_squares 5 (doubles), bucket_limit 6 and
   * bucket 7 (repeated doubles, packed or not), read into reusable arrays.
   */
  private boolean histo(int start, int end) {
    Arrays.fill(histoScalars, 0);
    limitCount = 0;
    countCount = 0;
    pos = start;
    while (pos < end) {
      int tag = buf[pos++];
      int field = tag >>> 3;
      int wire = tag & 7;
      if (field < 1 || field > 7) {
        return false;
      }
      if (wire == 1) {
        if (end - pos < 8) {
          return false;
        }
        double v = Double.longBitsToDouble(littleEndian64(pos));
        pos += 8;
        if (field <= 5) {
          histoScalars[field - 1] = v;
        } else {
          addBucketField(field, v);
        }
      } else if (wire == 2 && field >= 6) {
        int len = length(end);
        if (len < 0 || len % 8 != 0) {
          return false;
        }
        addPackedBucketField(field, pos, len / 8);
        pos += len;
      } else {
        return false;
      }
    }
    return true;
  }

  private void addBucketField(int field, double v) {
    if (field == 6) {
      if (limitCount == limits.length) {
        limits = Arrays.copyOf(limits, limitCount * 2);
      }
      limits[limitCount++] = v;
    } else {
      if (countCount == counts.length) {
        counts = Arrays.copyOf(counts, countCount * 2);
      }
      counts[countCount++] = v;
    }
  }

  /**
   * Appends {@code n} packed little-endian doubles at {@code at} to the limits (field 6) or counts:
   * copied in bulk, where reading them one by one was most of decoding a histogram.
   */
  private void addPackedBucketField(int field, int at, int n) {
    DoubleBuffer packed = doublesAt(at);
    if (field == 6) {
      if (limitCount + n > limits.length) {
        limits = Arrays.copyOf(limits, Math.max(limitCount + n, 2 * limits.length));
      }
      packed.get(at >>> 3, limits, limitCount, n);
      limitCount += n;
    } else {
      if (countCount + n > counts.length) {
        counts = Arrays.copyOf(counts, Math.max(countCount + n, 2 * counts.length));
      }
      packed.get(at >>> 3, counts, countCount, n);
      countCount += n;
    }
  }

  /**
   * A little-endian view of {@link #buf} as doubles, whose element {@code at >>> 3} starts at byte
   * {@code at}: one view per remainder of {@code at} by 8, made once per buffer. Two new views per
   * histogram were a sixth of a 1 GB import's allocations.
   */
  private DoubleBuffer doublesAt(int at) {
    if (viewed != buf) {
      Arrays.fill(doubleViews, null);
      viewed = buf;
    }
    int remainder = at & 7;
    DoubleBuffer view = doubleViews[remainder];
    if (view == null) {
      view =
          ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN).position(remainder).asDoubleBuffer();
      doubleViews[remainder] = view;
    }
    return view;
  }

  private HistogramPoint histogramPoint(String tag, long step, double wallTime) {
    return new HistogramPoint(
        tag,
        step,
        wallTime,
        histoScalars[0],
        histoScalars[1],
        histoScalars[2],
        histoScalars[3],
        histoScalars[4],
        sameLimitsAsBefore(tag),
        DoubleList.copyOf(counts, countCount));
  }

  /**
   * The bucket limits just read, as the list the tag's previous histogram had when they are the
   * same: most writers keep a tag's limits from step to step, and one list then spares a copy per
   * point and lets the ingester see an unchanged layout by identity.
   */
  private DoubleList sameLimitsAsBefore(String tag) {
    DoubleList before = limitsByTag.get(tag);
    if (before != null && before.contentEquals(limits, limitCount)) {
      return before;
    }
    DoubleList now = DoubleList.copyOf(limits, limitCount);
    limitsByTag.put(tag, now);
    return now;
  }

  /** A length prefix that fits before {@code end}; -1 otherwise. */
  private int length(int end) {
    long len = varint64(end);
    if (pos < 0 || len < 0 || len > end - pos) {
      return -1;
    }
    return (int) len;
  }

  /** A varint of at most 10 bytes before {@code end}; sets {@code pos} to -1 when there is none. */
  private long varint64(int end) {
    long result = 0;
    for (int shift = 0; shift < 64 && pos < end; shift += 7) {
      byte b = buf[pos++];
      result |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        return result;
      }
    }
    pos = -1;
    return 0;
  }

  private long littleEndian64(int at) {
    return littleEndian64(buf, at);
  }

  /**
   * Written out rather than looped (C1 runs a loop's compare and jump per byte), from two halves:
   * short enough for C1 to inline, into the scalar shortcut once per record.
   */
  private static long littleEndian64(byte[] b, int at) {
    return (littleEndian32(b, at) & 0xffffffffL) | (long) littleEndian32(b, at + 4) << 32;
  }

  private int littleEndian32(int at) {
    return littleEndian32(buf, at);
  }

  private static int littleEndian32(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | b[at + 3] << 24;
  }
}
