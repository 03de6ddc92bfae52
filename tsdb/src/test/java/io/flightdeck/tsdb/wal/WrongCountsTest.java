package io.flightdeck.tsdb.wal;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import org.junit.jupiter.api.Test;

/** A count written wrong in a WAL record (found by fuzzing) is corrupt data, not an allocation. */
class WrongCountsTest {
  @Test
  void aSeriesClaimingMoreLabelsThanItsRecordHoldsIsCorrupt() {
    byte[] payload = {
      0,
      0,
      0,
      1, // one entry
      7, // series ref
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      0x04, // 2^30 labels
      1,
      'a',
      1,
      'b'
    };

    assertThatThrownBy(
            () ->
                WalRecordCodec.decode(
                    WalRecordCodec.SERIES, Decbuf.wrap(payload, 0, payload.length), new Ignore()))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("label count 1073741824 larger than the record");
  }

  private static final class Ignore implements WalVisitor {
    @Override
    public void series(long ref, Labels labels) {}

    @Override
    public void sample(long ref, long timestamp, double value) {}

    @Override
    public void metadata(String metricName, MetricMetadata metadata) {}

    @Override
    public void tombstone(long ref, long mint, long maxt) {}
  }
}
