package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptStorageTest {

  private static LoadCommand load(String text) {
    return ScriptParser.parse("t.test", text).commands(LoadCommand.class).getFirst();
  }

  /** Every sample as "labels@t=bits-of-value" so that NaN payloads are visible. */
  private static List<String> dump(ScriptStorage storage) {
    List<String> out = new ArrayList<>();
    try (Querier q = storage.queryable().querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, Matcher.regex("__name__", ".+"));
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          out.add(
              set.at().labels()
                  + "@"
                  + it.timestamp()
                  + "="
                  + Long.toHexString(Double.doubleToRawLongBits(it.value())));
        }
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return out;
  }

  @Test
  void storesFloatsAtTheEpochWithStaleMarkersExactly() {
    try (ScriptStorage storage = new ScriptStorage()) {
      assertThat(storage.load(load("load 1m\n  m 1 _ NaN stale\n"))).isEmpty();

      assertThat(dump(storage))
          .containsExactly(
              "m{}@0=" + Long.toHexString(Double.doubleToRawLongBits(1)),
              "m{}@120000=" + Long.toHexString(Double.doubleToRawLongBits(Double.NaN)),
              "m{}@180000=7ff0000000000002");
    }
  }

  @Test
  void laterLoadsAppendAndClearEmpties() {
    try (ScriptStorage storage = new ScriptStorage()) {
      storage.load(load("load 1m\n  m 1\n"));
      assertThat(storage.load(load("load 1m\n  m _ 2\n"))).isEmpty();
      assertThat(dump(storage)).hasSize(2);

      storage.clear();
      assertThat(dump(storage)).isEmpty();
    }
  }

  @Test
  void reportsSamplesTheDatabaseRejects() {
    try (ScriptStorage storage = new ScriptStorage()) {
      storage.load(load("load 1m\n  m 1 2\n"));
      assertThat(storage.load(load("load 1m\n  m 5\n"))).hasSize(1);
    }
  }

  @Test
  void remembersSeriesWithStartTimestamps() {
    try (ScriptStorage storage = new ScriptStorage()) {
      storage.load(load("load 1m\n  m@st -1m 0\n  m 1 2\n  n 1\n"));

      assertThat(dump(storage)).hasSize(3);
      assertThat(storage.unsupported().readBy(io.flightdeck.promql.PromQL.parse("rate(m[5m])")))
          .hasValueSatisfying(r -> assertThat(r).contains("start timestamps"));
      assertThat(storage.unsupported().readBy(io.flightdeck.promql.PromQL.parse("n"))).isEmpty();
    }
  }

  @Test
  void leavesHistogramSeriesOutAndRemembersThem() {
    try (ScriptStorage storage = new ScriptStorage()) {
      storage.load(load("load 1m\n  h {{schema:0 sum:1 count:1}}\n  m 1\n"));

      assertThat(dump(storage)).hasSize(1);
      assertThat(storage.unsupported().readBy(io.flightdeck.promql.PromQL.parse("h"))).isPresent();
    }
  }
}
