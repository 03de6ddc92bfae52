package io.flightdeck.exposition;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Whatever the bytes, a parser returns samples or throws its one exception type. */
class ParserFuzzTest {
  private static final byte[] INTERESTING = "{}\"=,# \t\n\\_:.eE+-0123456789NaInf".getBytes();

  @Test
  void randomBytesOnlyEverParseOrFailCleanly() {
    Property.tries(1000)
        .check(
            in ->
                parseFully(
                    in.draw("format", Generators.enumValues(ExpositionFormat.class)),
                    in.draw("body", Generators.byteArrays(0, Generators.DEFAULT_MAX_SIZE)),
                    in.draw("strict", Generators.booleans())));
  }

  @Test
  void mutatedValidBodiesOnlyEverParseOrFailCleanly() throws IOException {
    Gen<byte[]> mutatedBodies = mutatedBodies();
    Property.tries(10000)
        .check(
            in ->
                parseFully(
                    in.draw("format", Generators.enumValues(ExpositionFormat.class)),
                    in.draw("body", mutatedBodies),
                    in.draw("strict", Generators.booleans())));
  }

  private static void parseFully(ExpositionFormat format, byte[] body, boolean strict) {
    ParseOptions options = new ParseOptions(4096, 64, strict);
    try {
      ExpositionParser.parseAll(format, body, options);
    } catch (ExpositionParseException expected) {
      // the one permitted failure
    }
  }

  /** A fixture body with one to six mutations: each its kind, where, how long, and which byte. */
  private static Gen<byte[]> mutatedBodies() throws IOException {
    Gen<byte[]> bases = Generators.of(validBodies());
    Gen<Integer> kind = Generators.integers(0, 3);
    Gen<Integer> at = Generators.integers(0, Integer.MAX_VALUE);
    Gen<Integer> length = Generators.integers(0, 16);
    Gen<Integer> pick = Generators.integers(0, INTERESTING.length - 1);
    Gen<int[]> mutation =
        c -> new int[] {kind.generate(c), at.generate(c), length.generate(c), pick.generate(c)};
    Gen<List<int[]>> mutations = mutation.list(1, 6);
    return c -> mutate(bases.generate(c), mutations.generate(c));
  }

  private static byte[] mutate(byte[] base, List<int[]> mutations) {
    byte[] body = base;
    for (int[] m : mutations) {
      int at = body.length == 0 ? 0 : m[1] % body.length;
      byte insert = INTERESTING[m[3]];
      body =
          switch (m[0]) {
            case 0 -> { // overwrite one byte
              byte[] copy = body.clone();
              if (copy.length > 0) {
                copy[at] = insert;
              }
              yield copy;
            }
            case 1 -> splice(body, at, 0, new byte[] {insert});
            case 2 -> splice(body, at, Math.min(m[2], body.length - at), new byte[0]);
            default -> // duplicate a stretch
                splice(body, at, 0, Arrays.copyOfRange(body, at, Math.min(body.length, at + m[2])));
          };
    }
    return body;
  }

  private static byte[] splice(byte[] body, int at, int remove, byte[] insert) {
    byte[] out = new byte[body.length - remove + insert.length];
    System.arraycopy(body, 0, out, 0, at);
    System.arraycopy(insert, 0, out, at, insert.length);
    System.arraycopy(body, at + remove, out, at + insert.length, body.length - at - remove);
    return out;
  }

  private static List<byte[]> validBodies() throws IOException {
    List<byte[]> bodies = new ArrayList<>();
    for (String folder :
        List.of(
            "exposition/client_python/openmetrics", "exposition/client_python/text-format-0.0.4")) {
      try (Stream<Path> files = Files.list(SharedFixtures.fixture(folder))) {
        for (Path file : files.sorted().toList()) {
          bodies.add(Files.readAllBytes(file));
        }
      }
    }
    try (Stream<Path> cases = Files.list(SharedFixtures.fixture("openmetrics-suite"))) {
      for (Path dir : cases.filter(Files::isDirectory).sorted().toList()) {
        bodies.add(Files.readAllBytes(dir.resolve("metrics")));
      }
    }
    return bodies;
  }
}
