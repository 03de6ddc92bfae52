package io.flightdeck.rules;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rule packs Flightdeck ships ({@code rules/packs/} in the source tree, in the jar beside this
 * class): GPU health, training, and the training detectors' findings. A server without a config
 * file loads them; {@code flightdeck init} writes copies beside a new config for the user to own.
 */
public final class RulePacks {
  /** The packs' file names, in load order. */
  public static final List<String> FILES =
      List.of("gpu.yml", "training.yml", "training-detections.yml");

  private static final String RESOURCE_DIR = "/io/flightdeck/rules/packs/";

  private RulePacks() {}

  /** The text of one pack, e.g. {@code gpu.yml}. */
  public static String text(String file) {
    if (!FILES.contains(file)) {
      throw new IllegalArgumentException("no rule pack named " + file + "; there are " + FILES);
    }
    try (InputStream in = RulePacks.class.getResourceAsStream(RESOURCE_DIR + file)) {
      if (in == null) {
        throw new IllegalStateException("rule pack " + file + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes every pack into {@code dir} (created if needed), replacing older copies, and returns
   * their paths in load order. A server writes them into its data folder at each start, so the
   * files that {@code /api/v1/rules} names exist and match the running version.
   */
  public static List<Path> writeTo(Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    for (String file : FILES) {
      Path target = dir.resolve(file);
      Path partial = dir.resolve(file + ".tmp");
      Files.writeString(partial, text(file));
      Files.move(
          partial,
          target,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      written.add(target);
    }
    return written;
  }
}
