package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.storage.Queryable;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EngineTest {
  private static final long MINUTE = 60_000;

  /** Two GPUs' utilisation every 15 s for an hour, and a counter that resets halfway. */
  private final InMemoryStorage storage =
      new InMemoryStorage()
          .add(
              Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "gpu", "0"),
              241,
              15_000,
              i -> 50 + i % 10)
          .add(Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "gpu", "1"), 241, 15_000, i -> 90)
          .add(
              Labels.of("__name__", "node_network_receive_bytes_total", "device", "eth0"),
              241,
              15_000,
              i -> i < 120 ? i * 1000.0 : (i - 120) * 1000.0);

  private final Engine engine = new Engine(EngineOptions.DEFAULT);

  @Test
  void instantQueryAnswersAVectorWithTheEvaluationTime() {
    QueryResult result = engine.instantQuery(storage, "sum(DCGM_FI_DEV_GPU_UTIL)", 30 * MINUTE);
    VectorValue vector = (VectorValue) result.value();
    assertThat(vector.samples()).hasSize(1);
    Sample sample = vector.samples().get(0);
    assertThat(sample.labels()).isEqualTo(Labels.EMPTY);
    assertThat(sample.timestamp()).isEqualTo(30 * MINUTE);
    // Step 120 of gpu 0 is 50 + 0; gpu 1 is 90.
    assertThat(sample.value()).isEqualTo(140.0);
  }

  @Test
  void rangeQueryAnswersOneSeriesPerGroupWithAPointPerStep() {
    QueryResult result =
        engine.rangeQuery(storage, "avg by (gpu) (DCGM_FI_DEV_GPU_UTIL)", 0, 10 * MINUTE, MINUTE);
    MatrixValue matrix = (MatrixValue) result.value();
    assertThat(matrix.series()).extracting(s -> s.labels().get("gpu")).containsExactly("0", "1");
    assertThat(matrix.series().get(1).timestamps()).hasSize(11);
    assertThat(matrix.series().get(1).values()).containsOnly(90.0);
  }

  @Test
  void rateCorrectsForTheCounterReset() {
    QueryResult result =
        engine.instantQuery(storage, "increase(node_network_receive_bytes_total[5m])", 31 * MINUTE);
    double increase = ((VectorValue) result.value()).samples().get(0).value();
    // Window (26m, 31m] holds samples 105..124 (105000 .. 119000, then 0 .. 4000 after the reset):
    // 14000 + 4000 counted across 285 s, extrapolated by 15 s to the window start.
    assertThat(increase).isCloseTo(18_000.0 * 300 / 285, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void rangeFunctionsReadEachSampleOnceWhateverTheNumberOfSteps() {
    storage.samplesServed.set(0);
    engine.rangeQuery(
        storage, "rate(node_network_receive_bytes_total[10m])", 10 * MINUTE, 60 * MINUTE, 15_000);
    // 241 samples exist; 201 steps each see a 10m window of 40 samples.
    assertThat(storage.samplesServed.get()).isLessThanOrEqualTo(241);
  }

  @Test
  void scalarAndStringResults() {
    assertThat(engine.instantQuery(storage, "1 + 2", 5000).value())
        .isEqualTo(new ScalarValue(5000, 3.0));
    assertThat(engine.instantQuery(storage, "\"loss\"", 5000).value())
        .isEqualTo(new StringValue(5000, "loss"));
  }

  @Test
  void rangeSelectorAtTopLevelOfAnInstantQueryGivesRawSamples() {
    MatrixValue matrix =
        (MatrixValue)
            engine
                .instantQuery(storage, "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\"}[1m]", 10 * MINUTE)
                .value();
    // (9m, 10m]: samples at 9m15s, 9m30s, 9m45s and 10m.
    assertThat(matrix.series().get(0).timestamps())
        .containsExactly(555_000L, 570_000L, 585_000L, 600_000L);
  }

  @Test
  void rangeQueryOfARangeVectorIsRejectedLikePrometheus() {
    assertThatThrownBy(
            () -> engine.rangeQuery(storage, "DCGM_FI_DEV_GPU_UTIL[1m]", 0, MINUTE, 1000))
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.BAD_DATA))
        .hasMessage(
            "invalid expression type \"range vector\" for range query, must be Scalar or instant"
                + " Vector");
  }

  @Test
  void parseErrorsCarryPrometheusText() {
    assertThatThrownBy(() -> engine.instantQuery(storage, "sum(", 0))
        .isInstanceOf(ParseException.class)
        .hasMessage("1:5: parse error: unclosed left parenthesis");
  }

  @Test
  void tooManySamplesFailsTheQueryAloneWithPrometheusMessage() {
    Engine small = new Engine(EngineOptions.DEFAULT.withMaxSamples(100));
    assertThatThrownBy(
            () -> small.rangeQuery(storage, "DCGM_FI_DEV_GPU_UTIL", 0, 60 * MINUTE, 15_000))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.EXECUTION))
        .hasMessage("query processing would load too many samples into memory in query execution");
    // The same engine still answers a query within the limit.
    assertThat(small.instantQuery(storage, "count(DCGM_FI_DEV_GPU_UTIL)", 0).value())
        .isInstanceOf(VectorValue.class);
  }

  @Test
  void aQueryPastItsTimeoutFailsWithTimeout() {
    Engine hasty = new Engine(EngineOptions.DEFAULT.withTimeout(Duration.ofNanos(1)));
    assertThatThrownBy(
            () -> hasty.rangeQuery(storage, "sum(DCGM_FI_DEV_GPU_UTIL)", 0, 60 * MINUTE, 1000))
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.TIMEOUT))
        .hasMessageContaining("query timed out");
  }

  @Test
  void aRequestTimeoutShortensButNeverExtendsTheServers() {
    assertThat(engine.withTimeout(Duration.ofHours(1))).isSameAs(engine);
    Engine hasty = engine.withTimeout(Duration.ofNanos(1));
    assertThat(hasty.options().timeout()).isEqualTo(Duration.ofNanos(1));
    assertThatThrownBy(
            () -> hasty.rangeQuery(storage, "sum(DCGM_FI_DEV_GPU_UTIL)", 0, 60 * MINUTE, 1000))
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.TIMEOUT));
  }

  @Test
  void queriesBeyondTheConcurrencyLimitWaitAndTimeOutInTheQueue() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Queryable blocking =
        (mint, maxt) -> {
          entered.countDown();
          try {
            release.await(10, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return storage.querier(mint, maxt);
        };
    EngineOptions one =
        new EngineOptions(
            Duration.ofMinutes(5),
            1000,
            Duration.ofMillis(300),
            1,
            Duration.ofMinutes(1),
            false,
            EngineOptions.Parallelism.DEFAULT);
    Engine engine = new Engine(one);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<QueryResult> first = pool.submit(() -> engine.instantQuery(blocking, "up", 0));
      assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
      assertThatThrownBy(() -> engine.instantQuery(storage, "up", 0))
          .isInstanceOf(QueryException.class)
          .hasMessage("query timed out in query queue");
      release.countDown();
      assertThat(first.get(5, TimeUnit.SECONDS).value()).isInstanceOf(VectorValue.class);
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void statsCountSamplesRead() {
    QueryResult result = engine.instantQuery(storage, "DCGM_FI_DEV_GPU_UTIL", 10 * MINUTE);
    assertThat(result.stats().totalQueryableSamples()).isEqualTo(2);
    assertThat(result.stats().peakSamples()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void rateOfANonCounterNameGivesPrometheusInfoWithPosition() {
    QueryResult result =
        engine.instantQuery(storage, "rate(DCGM_FI_DEV_GPU_UTIL[5m])", 30 * MINUTE);
    assertThat(result.infos())
        .containsExactly(
            "PromQL info: metric might not be a counter, name does not end in"
                + " _total/_sum/_count/_bucket: \"DCGM_FI_DEV_GPU_UTIL\" (1:6)");
  }

  @Test
  void storageFailureMapsToUnavailable() {
    Queryable broken =
        (mint, maxt) -> {
          throw new io.flightdeck.storage.StorageUnavailableException(
              "disk gone", new java.io.IOException("No space left on device"));
        };
    assertThatThrownBy(() -> engine.instantQuery(broken, "up", 0))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.UNAVAILABLE));
  }
}
