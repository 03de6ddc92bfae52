package io.flightdeck.tsdb.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.flightdeck.tsdb.encoding.CorruptDataException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockMetaTest {
  @TempDir Path dir;

  @Test
  void writtenMetaReadsBackAsPrometheusLaysItOut() throws IOException {
    BlockMeta meta =
        new BlockMeta(
            "01M8T3DNACVZF58X4JWF82PANT",
            0,
            7_200_000,
            2_348_288,
            9_088,
            10_368,
            2,
            List.of("01M8T3DNAC8DAGCFFE2E7QT20Q", "01M8T3DNACCSTCPTC6C2GCABMB"));
    meta.write(dir);
    assertThat(BlockMeta.read(dir)).isEqualTo(meta);
    assertThat(Files.readString(dir.resolve(BlockMeta.FILE)))
        .isEqualTo(
            """
            {
              "ulid" : "01M8T3DNACVZF58X4JWF82PANT",
              "minTime" : 0,
              "maxTime" : 7200000,
              "stats" : {
                "numSamples" : 2348288,
                "numSeries" : 9088,
                "numChunks" : 10368
              },
              "compaction" : {
                "level" : 2,
                "sources" : [ "01M8T3DNAC8DAGCFFE2E7QT20Q", "01M8T3DNACCSTCPTC6C2GCABMB" ]
              },
              "version" : 1
            }""");
  }

  /** Fields in another order, unknown ones, numbers as text and no level, as other writers may. */
  @Test
  void readsWhatOtherWritersLayOutDifferently() throws IOException {
    Files.writeString(
        dir.resolve(BlockMeta.FILE),
        """
        {"version": 1, "extra": {"nested": [1, {"x": 2}]}, "compaction": {"sources": ["a", 7],
         "hints": ["h"]}, "stats": {"numChunks": "12", "numSamples": 40}, "maxTime": 20,
         "ulid": "01ABC", "minTime": "10"}
        """);
    assertThat(BlockMeta.read(dir))
        .isEqualTo(new BlockMeta("01ABC", 10, 20, 40, 0, 12, 1, List.of("a", "7")));
  }

  @Test
  void anotherVersionOrNoIdIsRefusedWithTheFile() throws IOException {
    Path file = dir.resolve(BlockMeta.FILE);
    for (String content :
        List.of(
            "{\"ulid\": \"01ABC\", \"version\": 2}",
            "{\"ulid\": null, \"version\": 1}",
            "[1, 2]",
            "")) {
      assertThat(refused(content)).hasMessage("unsupported or incomplete " + file);
    }
  }

  @Test
  void brokenJsonNamesTheFileAndTheParsersComplaint() throws IOException {
    assertThat(refused("{not json"))
        .hasMessageStartingWith(
            "unreadable " + dir.resolve(BlockMeta.FILE) + ": Unexpected character ('n'");
  }

  /** What reading a meta file of {@code content} throws. */
  private CorruptDataException refused(String content) throws IOException {
    Files.writeString(dir.resolve(BlockMeta.FILE), content);
    return catchThrowableOfType(CorruptDataException.class, () -> BlockMeta.read(dir));
  }
}
