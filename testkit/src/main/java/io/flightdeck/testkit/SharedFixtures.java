package io.flightdeck.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates the read-only shared folder beside the checkout ({@code ../shared}): fixtures, PromQL
 * test scripts and docs. Surefire passes its path as the system property {@code flightdeck.shared}.
 */
public final class SharedFixtures {
  private SharedFixtures() {}

  public static Path root() {
    String configured = System.getProperty("flightdeck.shared");
    Path root = configured != null ? Paths.get(configured) : Paths.get("..", "shared");
    if (!Files.isDirectory(root)) {
      throw new IllegalStateException(
          "shared fixtures folder not found at " + root.toAbsolutePath());
    }
    return root.normalize();
  }

  public static Path fixture(String relative) {
    return root().resolve("fixtures").resolve(relative);
  }
}
