package io.flightdeck.tsdb.head;

import io.flightdeck.model.MetricMetadata;
import io.flightdeck.tsdb.encoding.Encbuf;
import io.flightdeck.tsdb.wal.Wal;
import io.flightdeck.tsdb.wal.WalRecordCodec;
import java.util.List;
import java.util.Map;

/** Writes the head's current contents as WAL records: the body of a checkpoint. */
final class HeadCheckpoint {
  /** Samples per record, so no record grows past a few hundred kilobytes. */
  private static final int SAMPLES_PER_RECORD = 20_000;

  private HeadCheckpoint() {}

  static void write(
      List<HeadSeries> series, Map<String, MetricMetadata> metadata, Wal.RecordSink sink) {
    Encbuf buf = new Encbuf(1 << 16);
    int entries = 0;
    WalRecordCodec.begin(buf);
    for (HeadSeries s : series) {
      WalRecordCodec.addSeries(buf, s.id, s.labels);
      if (++entries == SAMPLES_PER_RECORD) {
        flush(sink, WalRecordCodec.SERIES, buf, entries);
        entries = 0;
      }
    }
    flush(sink, WalRecordCodec.SERIES, buf, entries);
    entries = 0;
    for (HeadSeries s : series) {
      SeriesView view = s.view(Long.MIN_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
      if (view == null) {
        continue;
      }
      SeriesViewIterator it = new SeriesViewIterator().reset(view, Long.MIN_VALUE, Long.MAX_VALUE);
      while (it.next()) {
        WalRecordCodec.addSample(buf, s.id, it.timestamp(), it.value());
        if (++entries == SAMPLES_PER_RECORD) {
          flush(sink, WalRecordCodec.SAMPLES, buf, entries);
          entries = 0;
        }
      }
    }
    flush(sink, WalRecordCodec.SAMPLES, buf, entries);
    entries = 0;
    for (Map.Entry<String, MetricMetadata> entry : metadata.entrySet()) {
      WalRecordCodec.addMetadata(buf, entry.getKey(), entry.getValue());
      entries++;
    }
    flush(sink, WalRecordCodec.METADATA, buf, entries);
  }

  private static void flush(Wal.RecordSink sink, int type, Encbuf buf, int entries) {
    if (entries > 0) {
      WalRecordCodec.finish(buf, entries);
      sink.log(type, buf);
    }
    WalRecordCodec.begin(buf);
  }
}
