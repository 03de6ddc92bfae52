package io.flightdeck.testkit;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a property runs: the test class and method that called {@link Property#check}, and the
 * Maven module that holds the class, for the one-line reproduction in a failure report.
 */
record TestCoordinates(String className, String simpleClassName, String method, String module) {

  /**
   * The test method calling into the toolkit: the outermost frame of the first class outside it.
   */
  static TestCoordinates ofCaller() {
    List<StackWalker.StackFrame> frames =
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(s -> s.dropWhile(TestCoordinates::inToolkit).toList());
    if (frames.isEmpty()) {
      return new TestCoordinates("unknown", "unknown", "unknown", "<module>");
    }
    Class<?> testClass = frames.getFirst().getDeclaringClass().getNestHost();
    String method = frames.getFirst().getMethodName();
    for (StackWalker.StackFrame frame : frames) {
      // Lambdas and helpers of the test class sit above the test method itself.
      if (frame.getDeclaringClass().getNestHost() == testClass
          && !frame.getMethodName().startsWith("lambda$")) {
        method = frame.getMethodName();
      }
    }
    return new TestCoordinates(
        testClass.getName(), testClass.getSimpleName(), method, moduleOf(testClass));
  }

  private static boolean inToolkit(StackWalker.StackFrame frame) {
    Class<?> type = frame.getDeclaringClass().getNestHost();
    return type == Property.class || type == TestCoordinates.class;
  }

  /**
   * The module folder relative to the project root (the nearest folder above with {@code mvnw}),
   * from where the class was loaded: {@code <module>/target/test-classes}.
   */
  private static String moduleOf(Class<?> type) {
    try {
      var source = type.getProtectionDomain().getCodeSource();
      if (source == null) {
        return "<module>";
      }
      Path classes = Path.of(source.getLocation().toURI()).toAbsolutePath();
      Path module = classes.getParent() == null ? null : classes.getParent().getParent();
      for (Path root = module; root != null; root = root.getParent()) {
        if (Files.exists(root.resolve("mvnw"))) {
          String relative = root.relativize(module).toString();
          return relative.isEmpty() ? "." : relative;
        }
      }
    } catch (URISyntaxException | RuntimeException e) {
      // fall through: the report then names no module
    }
    return "<module>";
  }

  /** A seed fixed by the test's name, so that CI runs the same cases every time. */
  long defaultSeed() {
    long hash = 0xcbf29ce484222325L; // FNV-1a, 64 bits
    for (byte b : (className + "#" + method).getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= 0x100000001b3L;
    }
    return hash;
  }

  String reproduction(long seed) {
    return "./mvnw -pl "
        + module
        + " test -Dtest="
        + simpleClassName
        + "#"
        + method
        + " -Dflightdeck.seed="
        + seed;
  }
}
