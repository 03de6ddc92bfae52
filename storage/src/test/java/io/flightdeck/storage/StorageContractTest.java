package io.flightdeck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link Appendable} and {@link Queryable} implementation must keep. A storage
 * test extends this class and says how to open the store and what to do once writes are done
 * (nothing, restart, move everything into blocks...), so every path answers the same way.
 */
public abstract class StorageContractTest {
  /** The store under test: both seams, and a way to release it. */
  public interface Store extends Appendable, Queryable, AutoCloseable {}

  protected Store store;

  /** Opens a fresh, empty store. */
  protected abstract Store open() throws Exception;

  /** Called after the writes of a test and before its reads; returns the store to read from. */
  protected Store afterWrites(Store written) throws Exception {
    return written;
  }

  /** A time near which samples are accepted: within retention, not in the future. */
  protected abstract long baseTime();

  @BeforeEach
  void openStore() throws Exception {
    store = open();
  }

  @AfterEach
  void closeStore() throws Exception {
    if (store != null) {
      store.close();
    }
  }

  protected static Labels series(String name, String... labels) {
    String[] all = new String[labels.length + 2];
    all[0] = Labels.METRIC_NAME;
    all[1] = name;
    System.arraycopy(labels, 0, all, 2, labels.length);
    return Labels.of(all);
  }

  /** Every sample of every matching series, as "labels@t=v" strings, series in label order. */
  protected List<String> read(long mint, long maxt, Matcher... matchers) {
    List<String> out = new ArrayList<>();
    try (Querier q = store.querier(mint, maxt)) {
      SeriesSet set = q.select(true, matchers);
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          out.add(set.at().labels() + "@" + it.timestamp() + "=" + bits(it.value()));
        }
      }
    }
    return out;
  }

  private static String bits(double v) {
    return Double.isNaN(v)
        ? "NaN:" + Long.toHexString(Double.doubleToRawLongBits(v))
        : Double.toString(v);
  }

  private List<String> readAll(Matcher... matchers) {
    return read(Long.MIN_VALUE, Long.MAX_VALUE, matchers);
  }

  private void write(Labels labels, long t, double v) {
    Appender app = store.appender();
    app.append(0, labels, t, v);
    app.commit();
  }

  @Test
  void committedSamplesAreReadBackExactly() throws Exception {
    long t0 = baseTime();
    Appender app = store.appender();
    long ref = app.append(0, series("train_loss", "run", "a"), t0, 2.5);
    app.append(ref, series("train_loss", "run", "a"), t0 + 15_000, 2.25);
    app.append(0, series("train_loss", "run", "b"), t0, 3.0);
    app.commit();
    store = afterWrites(store);

    assertThat(readAll(Matcher.equal("__name__", "train_loss")))
        .containsExactly(
            "train_loss{run=\"a\"}@" + t0 + "=2.5",
            "train_loss{run=\"a\"}@" + (t0 + 15_000) + "=2.25",
            "train_loss{run=\"b\"}@" + t0 + "=3.0");
  }

  @Test
  void uncommittedAndRolledBackSamplesAreInvisible() throws Exception {
    long t0 = baseTime();
    Appender pending = store.appender();
    pending.append(0, series("m", "k", "pending"), t0, 1);
    Appender discarded = store.appender();
    discarded.append(0, series("m", "k", "discarded"), t0, 1);
    discarded.rollback();
    assertThat(readAll(Matcher.equal("__name__", "m"))).isEmpty();
    pending.commit();
    store = afterWrites(store);
    assertThat(readAll(Matcher.equal("__name__", "m")))
        .containsExactly("m{k=\"pending\"}@" + t0 + "=1.0");
  }

  @Test
  void everyMatcherTypeSelectsAsPrometheusDoes() throws Exception {
    long t = baseTime();
    Appender app = store.appender();
    app.append(0, series("DCGM_FI_DEV_GPU_UTIL", "gpu", "0", "Hostname", "node-1"), t, 90);
    app.append(0, series("DCGM_FI_DEV_GPU_UTIL", "gpu", "1", "Hostname", "node-1"), t, 10);
    app.append(0, series("DCGM_FI_DEV_GPU_UTIL", "gpu", "10", "Hostname", "node-2"), t, 50);
    app.append(0, series("DCGM_FI_DEV_GPU_TEMP", "gpu", "0"), t, 70);
    app.append(0, series("llm_train_loss"), t, 1.5);
    app.commit();
    store = afterWrites(store);

    assertThat(names(Matcher.equal("gpu", "1"))).containsExactly("DCGM_FI_DEV_GPU_UTIL/1");
    assertThat(
            names(Matcher.equal("__name__", "DCGM_FI_DEV_GPU_UTIL"), Matcher.notEqual("gpu", "0")))
        .containsExactly("DCGM_FI_DEV_GPU_UTIL/1", "DCGM_FI_DEV_GPU_UTIL/10");
    assertThat(names(Matcher.regex("gpu", "1|10")))
        .containsExactly("DCGM_FI_DEV_GPU_UTIL/1", "DCGM_FI_DEV_GPU_UTIL/10");
    assertThat(names(Matcher.regex("gpu", "1")))
        .as("regexes are anchored")
        .containsExactly("DCGM_FI_DEV_GPU_UTIL/1");
    assertThat(names(Matcher.regex("__name__", "DCGM_FI_DEV_.*")))
        .containsExactly(
            "DCGM_FI_DEV_GPU_TEMP/0",
            "DCGM_FI_DEV_GPU_UTIL/0",
            "DCGM_FI_DEV_GPU_UTIL/1",
            "DCGM_FI_DEV_GPU_UTIL/10");
    assertThat(names(Matcher.regex("__name__", ".+"), Matcher.notRegex("Hostname", "node-1")))
        .as("!~ also selects series without the label")
        .containsExactly("DCGM_FI_DEV_GPU_TEMP/0", "DCGM_FI_DEV_GPU_UTIL/10", "llm_train_loss/");
    assertThat(names(Matcher.regex("__name__", ".+"), Matcher.equal("Hostname", "")))
        .as("=\"\" selects series without the label")
        .containsExactly("DCGM_FI_DEV_GPU_TEMP/0", "llm_train_loss/");
    assertThat(names(Matcher.regex("gpu", ".+"), Matcher.regex("Hostname", "node-[12]")))
        .containsExactly(
            "DCGM_FI_DEV_GPU_UTIL/0", "DCGM_FI_DEV_GPU_UTIL/1", "DCGM_FI_DEV_GPU_UTIL/10");
    assertThat(names(Matcher.equal("gpu", "7"))).isEmpty();
  }

  private List<String> names(Matcher... matchers) {
    List<String> out = new ArrayList<>();
    try (Querier q = store.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, matchers);
      while (set.next()) {
        Labels l = set.at().labels();
        out.add(l.metricName() + "/" + l.get("gpu"));
      }
    }
    out.sort(null);
    return out;
  }

  @Test
  void sortedSelectReturnsSeriesInLabelOrder() throws Exception {
    long t = baseTime();
    Random random = new Random(7);
    List<Labels> written = new ArrayList<>();
    Appender app = store.appender();
    for (int i = 0; i < 300; i++) {
      Labels labels =
          series(
              "node_cpu_seconds_total",
              "cpu",
              Integer.toString(random.nextInt(1000)),
              "mode",
              "m" + random.nextInt(8));
      if (!written.contains(labels)) {
        written.add(labels);
        app.append(0, labels, t, i);
      }
    }
    app.commit();
    store = afterWrites(store);
    List<Labels> read = new ArrayList<>();
    try (Querier q = store.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, Matcher.equal("__name__", "node_cpu_seconds_total"));
      while (set.next()) {
        read.add(set.at().labels());
      }
    }
    written.sort(null);
    assertThat(read).containsExactlyElementsOf(written);
  }

  @Test
  void specialValuesAreKeptBitExact() throws Exception {
    long t = baseTime();
    double[] values = {
      Double.NaN,
      StaleMarker.VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      -0.0,
      0.0,
      Double.MAX_VALUE,
      Double.MIN_VALUE,
      -Double.MAX_VALUE,
      Double.longBitsToDouble(0x7ff8000000000123L)
    };
    Appender app = store.appender();
    for (int i = 0; i < values.length; i++) {
      app.append(0, series("v"), t + i, values[i]);
    }
    app.commit();
    store = afterWrites(store);
    try (Querier q = store.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, Matcher.equal("__name__", "v"));
      assertThat(set.next()).isTrue();
      SampleIterator it = set.at().iterator(null);
      for (int i = 0; i < values.length; i++) {
        assertThat(it.next()).isTrue();
        assertThat(it.timestamp()).isEqualTo(t + i);
        assertThat(Double.doubleToRawLongBits(it.value()))
            .as("value %d", i)
            .isEqualTo(Double.doubleToRawLongBits(values[i]));
      }
      assertThat(it.next()).isFalse();
    }
  }

  @Test
  void queriesSelectTheInclusiveTimeRange() throws Exception {
    long t = baseTime();
    Appender app = store.appender();
    for (int i = 0; i < 10; i++) {
      app.append(0, series("r"), t + i * 1000L, i);
    }
    app.commit();
    store = afterWrites(store);
    assertThat(read(t + 2000, t + 4000, Matcher.equal("__name__", "r"))).hasSize(3);
    assertThat(read(t + 2001, t + 3999, Matcher.equal("__name__", "r")))
        .containsExactly("r{}@" + (t + 3000) + "=3.0");
    assertThat(read(t + 10_000, t + 20_000, Matcher.equal("__name__", "r"))).isEmpty();
  }

  @Test
  void seekMovesForwardOnly() throws Exception {
    long t = baseTime();
    Appender app = store.appender();
    for (int i = 0; i < 500; i++) {
      app.append(0, series("s"), t + i * 10L, i);
    }
    app.commit();
    store = afterWrites(store);
    try (Querier q = store.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, Matcher.equal("__name__", "s"));
      assertThat(set.next()).isTrue();
      SampleIterator it = set.at().iterator(null);
      assertThat(it.seek(t + 2005)).isTrue();
      assertThat(it.timestamp()).isEqualTo(t + 2010);
      assertThat(it.seek(t)).as("seek never goes back").isTrue();
      assertThat(it.timestamp()).isEqualTo(t + 2010);
      assertThat(it.next()).isTrue();
      assertThat(it.value()).isEqualTo(202);
      assertThat(it.seek(t + 10_000)).isFalse();
    }
  }

  @Test
  void labelNamesAndValuesFollowTheMatchers() throws Exception {
    long t = baseTime();
    Appender app = store.appender();
    app.append(0, series("gpu_memory_used_mb", "device", "cuda:0", "job", "ms-swift"), t, 1);
    app.append(0, series("gpu_memory_used_mb", "device", "cuda:1", "job", "ms-swift"), t, 1);
    app.append(0, series("train_loss", "job", "ms-swift", "run", "r1"), t, 1);
    app.commit();
    store = afterWrites(store);
    try (Querier q = store.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      assertThat(q.labelNames()).containsExactly("__name__", "device", "job", "run");
      assertThat(q.labelNames(Matcher.equal("__name__", "train_loss")))
          .containsExactly("__name__", "job", "run");
      assertThat(q.labelValues("device")).containsExactly("cuda:0", "cuda:1");
      assertThat(q.labelValues("__name__", Matcher.equal("device", "cuda:1")))
          .containsExactly("gpu_memory_used_mb");
      assertThat(q.labelValues("nope")).isEmpty();
    }
    try (Querier later = store.querier(t + 3_600_000, t + 7_200_000)) {
      assertThat(later.labelNames()).as("no series has samples in that range").isEmpty();
      assertThat(later.labelValues("device")).isEmpty();
    }
  }

  @Test
  void outOfOrderAndConflictingSamplesAreRefusedAlone() throws Exception {
    long t = baseTime();
    write(series("o"), t + 10_000, 1);
    Appender app = store.appender();
    assertThatThrownBy(() -> app.append(0, series("o"), t, 0))
        .isInstanceOf(OutOfOrderSampleException.class)
        .hasMessageContaining("o{}");
    assertThatThrownBy(() -> app.append(0, series("o"), t + 10_000, 2))
        .isInstanceOf(DuplicateSampleException.class);
    app.append(0, series("o"), t + 10_000, 1); // the same value again is a no-op
    app.append(0, series("o"), t + 20_000, 3);
    app.append(0, series("other"), t, 4);
    app.commit();
    store = afterWrites(store);
    assertThat(readAll(Matcher.regex("__name__", "o|other")))
        .containsExactly(
            "o{}@" + (t + 10_000) + "=1.0",
            "o{}@" + (t + 20_000) + "=3.0",
            "other{}@" + t + "=4.0");
  }

  @Test
  void aQuerierSeesOnlyCommitsCompletedBeforeIt() throws Exception {
    long t = baseTime();
    write(series("iso"), t, 1);
    try (Querier before = store.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      write(series("iso"), t + 1000, 2);
      write(series("iso2"), t, 3);
      SeriesSet set = before.select(true, Matcher.regex("__name__", "iso.*"));
      List<String> seen = new ArrayList<>();
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          seen.add(set.at().labels().metricName() + "=" + it.value());
        }
      }
      assertThat(seen).containsExactly("iso=1.0");
    }
  }

  @Test
  void longSeriesWithIrregularTimestampsRoundTrip() throws Exception {
    long t = baseTime();
    Random random = new Random(42);
    List<String> expected = new ArrayList<>();
    Appender app = store.appender();
    long ts = t - 3_600_000;
    for (int i = 0; i < 5_000; i++) {
      ts +=
          1
              + switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> 15_000;
                case 2 -> random.nextInt(1_000_000);
                default -> random.nextInt(50);
              };
      if (ts > t) {
        break;
      }
      double v = random.nextBoolean() ? random.nextInt(100) : random.nextGaussian() * 1e6;
      app.append(0, series("long"), ts, v);
      expected.add("long{}@" + ts + "=" + v);
    }
    app.commit();
    store = afterWrites(store);
    assertThat(readAll(Matcher.equal("__name__", "long"))).containsExactlyElementsOf(expected);
  }

  @Test
  void drainingGivesWhatStepwiseIterationGives() throws Exception {
    long t = baseTime();
    Random random = new Random(7);
    Appender app = store.appender();
    long ts = t - 3_600_000;
    List<Long> times = new ArrayList<>();
    for (int i = 0; i < 3_000 && ts <= t; i++) {
      app.append(0, series("drained"), ts, random.nextInt(4) == 0 ? i : random.nextGaussian());
      times.add(ts);
      ts += 1 + random.nextInt(3_000);
    }
    app.commit();
    store = afterWrites(store);
    long last = times.get(times.size() - 1);
    for (int probe = 0; probe < 20; probe++) {
      long queryMin = times.get(random.nextInt(times.size())) - random.nextInt(2);
      long queryMax = queryMin + random.nextInt((int) (last - queryMin + 2_000) + 1);
      long seekTo = queryMin + random.nextInt(100_000);
      long drainMax = seekTo + random.nextInt(2_000_000) - 1_000;
      List<String> stepwise = new ArrayList<>();
      List<String> drained = new ArrayList<>();
      try (Querier q = store.querier(queryMin, queryMax)) {
        SeriesSet set = q.select(true, Matcher.equal("__name__", "drained"));
        if (!set.next()) {
          continue;
        }
        SampleIterator it = set.at().iterator(null);
        if (it.seek(seekTo)) {
          do {
            if (it.timestamp() > drainMax) {
              break;
            }
            stepwise.add(it.timestamp() + "=" + bits(it.value()));
          } while (it.next());
        }
        SampleIterator again = set.at().iterator(null);
        if (again.seek(seekTo)) {
          SampleBuffer buffer = new SampleBuffer(1);
          boolean stoppedAtMax = again.drainTo(buffer, drainMax);
          for (int i = 0; i < buffer.size(); i++) {
            drained.add(buffer.timestamps()[i] + "=" + bits(buffer.values()[i]));
          }
          long lastInRange = times.stream().filter(x -> x <= queryMax).reduce((a, b) -> b).get();
          assertThat(stoppedAtMax).isEqualTo(drainMax < lastInRange);
        }
      }
      assertThat(drained)
          .as("query [%d, %d], seek %d, drain to %d", queryMin, queryMax, seekTo, drainMax)
          .isEqualTo(stepwise);
    }
  }
}
