package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SeriesCacheTest {
  private final SeriesCache cache = new SeriesCache();

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** One scrape that stores the given series (bytes as key, labels from the name). */
  private void scrapeStoring(String... series) {
    cache.beginScrape();
    for (String s : series) {
      byte[] b = bytes(s);
      SeriesCache.Entry e = cache.get(b, 0, b.length);
      if (e == null) {
        e = cache.put(b, 0, b.length, Labels.of("__name__", s.replaceAll("\\{.*", "")));
      }
      cache.stored(e);
    }
    cache.keepBatch();
  }

  @Test
  void findsSeriesByTheirBytesWhereverTheyLie() {
    cache.beginScrape();
    byte[] first = bytes("x a{b=\"1\"} 1");
    SeriesCache.Entry put = cache.put(first, 2, 10, Labels.of("__name__", "a", "b", "1"));
    byte[] later = bytes("a{b=\"1\"} 2");

    assertThat(cache.get(later, 0, 8)).isSameAs(put);
    assertThat(cache.get(later, 0, 1)).isNull();
    assertThat(cache.get(bytes("a{b=\"2\"}"), 0, 8)).isNull();
  }

  @Test
  void holdsManySeries() {
    cache.beginScrape();
    for (int i = 0; i < 10_000; i++) {
      byte[] b = bytes("m{i=\"" + i + "\"}");
      cache.put(b, 0, b.length, Labels.of("__name__", "m", "i", Integer.toString(i)));
    }
    for (int i = 0; i < 10_000; i++) {
      byte[] b = bytes("m{i=\"" + i + "\"}");
      assertThat(cache.get(b, 0, b.length).labels.get("i")).isEqualTo(Integer.toString(i));
    }
  }

  @Test
  void findsSeriesWhenTheBodyChangesItsOrder() {
    scrapeStoring("a", "b", "c", "d");
    scrapeStoring("x", "a", "b", "d", "c");
    cache.beginScrape();
    for (String s : new String[] {"d", "c", "b", "a", "x"}) {
      byte[] b = bytes(s);
      assertThat(cache.get(b, 0, b.length)).as(s).isNotNull();
      assertThat(cache.get(b, 0, b.length).labels.metricName()).isEqualTo(s);
    }
    byte[] y = bytes("y");
    assertThat(cache.get(y, 0, 1)).isNull();
  }

  @Test
  void aSeriesIsKnownWhenThePreviousScrapeStoredIt() {
    scrapeStoring("a", "b");
    cache.beginScrape();
    byte[] a = bytes("a");
    byte[] c = bytes("c");
    SeriesCache.Entry known = cache.get(a, 0, 1);
    SeriesCache.Entry fresh = cache.put(c, 0, 1, Labels.of("__name__", "c"));

    assertThat(cache.known(known)).isTrue();
    assertThat(cache.known(fresh)).isFalse();
    cache.stored(fresh);
    assertThat(cache.known(fresh)).as("a second sample of it in the same scrape").isTrue();
  }

  @Test
  void whatTheLastScrapeStoredAndThisOneDidNotDisappeared() {
    scrapeStoring("a", "b", "c");
    scrapeStoring("a");
    assertThat(cache.disappeared()).extracting(e -> e.labels.metricName()).containsOnly("b", "c");
    scrapeStoring("a");
    assertThat(cache.disappeared()).as("ended once only").isEmpty();
  }

  @Test
  void equalLabelsUnderOtherBytesDidNotDisappear() {
    cache.beginScrape();
    byte[] one = bytes("g{x=\"1\",y=\"2\"}");
    cache.stored(cache.put(one, 0, one.length, Labels.of("__name__", "g", "x", "1", "y", "2")));
    cache.keepBatch();
    cache.beginScrape();
    byte[] other = bytes("g{y=\"2\", x=\"1\"}");
    cache.stored(cache.put(other, 0, other.length, Labels.of("__name__", "g", "x", "1", "y", "2")));
    cache.keepBatch();

    assertThat(cache.disappeared()).isEmpty();
  }

  @Test
  void afterAFailedScrapeEverythingStoredBeforeDisappeared() {
    scrapeStoring("a", "b");
    cache.beginScrape();
    byte[] a = bytes("a");
    cache.stored(cache.get(a, 0, 1)); // the batch fails: no keepBatch()

    assertThat(cache.disappeared()).extracting(e -> e.labels.metricName()).containsOnly("a", "b");
    assertThat(cache.latest()).isEmpty();
  }

  @Test
  void droppedSeriesNeverDisappear() {
    cache.beginScrape();
    byte[] dropped = bytes("go_goroutines");
    cache.put(dropped, 0, dropped.length, null);
    cache.keepBatch();
    scrapeStoring("a");

    assertThat(cache.disappeared()).isEmpty();
    assertThat(cache.get(dropped, 0, dropped.length).labels).isNull();
  }

  @Test
  void seriesAbsentForTwoScrapesAreForgotten() {
    scrapeStoring("a", "b");
    scrapeStoring("a");
    cache.evictOld();
    byte[] b = bytes("b");
    assertThat(cache.get(b, 0, 1)).as("absent from one scrape only").isNotNull();

    scrapeStoring("a");
    cache.evictOld();
    scrapeStoring("a");
    cache.evictOld();
    assertThat(cache.get(b, 0, 1)).isNull();
    assertThat(cache.get(bytes("a"), 0, 1)).isNotNull();
  }

  @Test
  void theLatestScrapeSaysWhatToEndWhenTheTargetGoes() {
    scrapeStoring("a", "b");
    scrapeStoring("b");
    assertThat(cache.latest()).extracting(e -> e.labels.metricName()).containsOnly("b");
  }
}
