package io.flightdeck.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.tsdb.index.PostingsSelector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** The block index gives back exactly the series and chunk metas written, and selects right. */
class IndexPropertiesTest {
  @Test
  void roundTripsSeriesAndAnswersMatchersLikeABruteForceScan() {
    Property.tries(60)
        .check(
            in -> writesAndSelects(in.draw("maps", labelSets()), in.draw("matchers", matchers())));
  }

  private static void writesAndSelects(List<Map<String, String>> maps, List<Matcher> matchers)
      throws Exception {
    TreeSet<Labels> unique = new TreeSet<>();
    for (Map<String, String> map : maps) {
      Labels labels = Labels.fromMap(map);
      if (!labels.isEmpty()) {
        unique.add(labels);
      }
    }
    List<Labels> series = new ArrayList<>(unique);
    List<List<ChunkMeta>> chunks = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      List<ChunkMeta> metas = new ArrayList<>();
      for (int c = 0; c <= i % 3; c++) {
        metas.add(
            new ChunkMeta(
                1000L * i + c * 100,
                1000L * i + c * 100 + 50,
                ((long) c << 32) | (8 + 64L * i),
                0));
      }
      chunks.add(metas);
    }
    Path dir = Files.createTempDirectory("index-test");
    try {
      IndexWriter.write(dir, series, chunks);
      IndexReader reader = new IndexReader(dir);
      assertThat(reader.numSeries()).isEqualTo(series.size());
      for (int i = 0; i < series.size(); i++) {
        List<ChunkMeta> read = new ArrayList<>();
        assertThat(reader.series(i, read)).isEqualTo(series.get(i));
        assertThat(read).isEqualTo(chunks.get(i));
      }
      RoaringBitmap selected = PostingsSelector.select(reader, matchers.toArray(new Matcher[0]));
      List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < series.size(); i++) {
        Labels labels = series.get(i);
        if (matchers.stream().allMatch(m -> m.matches(labels.get(m.name())))) {
          expected.add(i);
        }
      }
      List<Integer> actual = new ArrayList<>();
      selected.forEach((int id) -> actual.add(id));
      assertThat(actual).isEqualTo(expected);
    } finally {
      BlockWriter.deleteRecursively(dir);
    }
  }

  private static Gen<List<Map<String, String>>> labelSets() {
    Gen<String> names = Generators.of("__name__", "gpu", "Hostname", "job", "mode", "ü");
    Gen<String> values =
        Generators.of("", "0", "1", "10", "node-1", "node-2", "idle", "DCGM_FI_DEV_GPU_UTIL", "😀");
    return Generators.mapOf(names, values, 0, 5).list(0, 40);
  }

  private static Gen<List<Matcher>> matchers() {
    Gen<String> names = Generators.of("__name__", "gpu", "Hostname", "job", "absent");
    Gen<String> values = Generators.of("", "0", "1", "1|10", "node-.*", ".*", ".+", "idle");
    Gen<Matcher.Type> types = Generators.enumValues(Matcher.Type.class);
    Gen<Matcher> matcher =
        c -> Matcher.of(types.generate(c), names.generate(c), values.generate(c));
    return matcher.list(0, 3);
  }
}
