package io.flightdeck.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import io.flightdeck.tsdb.chunk.ChunkEncoding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chunks encoded into shared slabs: each keeps its own bytes, and cleared slabs are reused. */
class ChunkSlabsTest {
  static final int SLAB = 64 << 10;

  /** Samples {@code [0, count)} of a series; odd seeds give values only XOR can hold. */
  static void fill(long[] times, double[] values, int count, int seed) {
    for (int i = 0; i < count; i++) {
      times[i] = 1_000L * i + seed;
      values[i] = seed % 2 == 0 ? seed * 10 + i : Math.sqrt(seed + i);
    }
  }

  @Test
  void chunksInSlabsHoldTheBytesOfChunksOfTheirOwn() {
    ChunkSlabs slabs = new ChunkSlabs(SLAB);
    long[] times = new long[EncodedChunk.MAX_SAMPLES];
    double[] values = new double[EncodedChunk.MAX_SAMPLES];
    List<EncodedChunk> inSlabs = new ArrayList<>();
    List<EncodedChunk> alone = new ArrayList<>();
    for (int seed = 0; seed < 40; seed++) {
      int count = 1 + (seed * 97) % EncodedChunk.MAX_SAMPLES;
      fill(times, values, count, seed);
      inSlabs.add(EncodedChunk.of(times, values, 0, count, slabs));
      alone.add(EncodedChunk.of(times, values, 0, count));
    }
    assertThat(inSlabs).extracting(EncodedChunk::encoding).contains(ChunkEncoding.XOR);
    assertThat(inSlabs).extracting(EncodedChunk::encoding).contains(ChunkEncoding.DECIMAL);
    // Forty chunks of up to 16 KB do not fit one slab: later ones went to further slabs.
    assertThat(inSlabs.stream().map(EncodedChunk::data).distinct().count()).isGreaterThan(1);
    for (int i = 0; i < inSlabs.size(); i++) {
      EncodedChunk s = inSlabs.get(i);
      EncodedChunk a = alone.get(i);
      assertThat(s.encoding()).isEqualTo(a.encoding());
      assertThat(s.length()).isEqualTo(a.length());
      assertThat(s.offset() + s.length()).isLessThanOrEqualTo(s.data().length);
      assertThat(java.util.Arrays.copyOfRange(s.data(), s.offset(), s.offset() + s.length()))
          .isEqualTo(a.data());
      assertThat(samples(s)).isEqualTo(samples(a));
    }
  }

  @Test
  void aClearedSlabIsFilledAgainFromItsStart() {
    ChunkSlabs slabs = new ChunkSlabs(SLAB);
    long[] times = new long[100];
    double[] values = new double[100];
    fill(times, values, 100, 2);
    EncodedChunk first = EncodedChunk.of(times, values, 0, 100, slabs);
    EncodedChunk second = EncodedChunk.of(times, values, 0, 100, slabs);
    assertThat(second.data()).isSameAs(first.data());
    assertThat(second.offset()).isEqualTo(first.offset() + first.length());
    slabs.clear();
    fill(times, values, 100, 3);
    EncodedChunk again = EncodedChunk.of(times, values, 0, 100, slabs);
    assertThat(again.data()).isSameAs(first.data());
    assertThat(again.offset()).isZero();
    assertThat(slabs.allocatedBytes()).isEqualTo(SLAB);
    assertThat(samples(again)).isEqualTo(samples(EncodedChunk.of(times, values, 0, 100)));
  }

  @Test
  void aSlabHoldsAtLeastOneChunkOfTheMostSamples() {
    ChunkSlabs slabs = new ChunkSlabs(1);
    int n = EncodedChunk.MAX_SAMPLES;
    long[] times = new long[n];
    double[] values = new double[n];
    fill(times, values, n, 5);
    EncodedChunk chunk = EncodedChunk.of(times, values, 0, n, slabs);
    assertThat(slabs.allocatedBytes()).isEqualTo(ChunkEncoder.maxBytes(n));
    assertThat(samples(chunk)).hasSize(n);
  }

  private static List<String> samples(EncodedChunk c) {
    SampleIterator it =
        new ChunkDecoder()
            .decode(c.encoding(), c.data(), c.offset(), c.length(), c.count(), c.count());
    List<String> out = new ArrayList<>();
    while (it.next()) {
      out.add(it.timestamp() + "=" + Double.doubleToRawLongBits(it.value()));
    }
    return out;
  }
}
