package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Finds the runs under a logdir the way TensorBoard does: every directory (the logdir included,
 * symbolic links followed) that directly holds a regular file whose name contains {@code tfevents}
 * is a run. Nested runs are independent runs. Unreadable directories and link cycles are skipped; a
 * logdir that does not exist (yet) has no runs.
 */
public final class RunDiscovery {
  private static final String EVENT_FILE_INFIX = "tfevents";

  /** PyTorch names the {@code add_hparams} sub-run {@code str(time.time())}. */
  private static final Pattern HPARAMS_SUB_RUN = Pattern.compile("\\d{9,}(\\.\\d+)?");

  private RunDiscovery() {}

  /** The runs sorted by name. */
  public static List<TensorBoardRun> discover(Path logdir) {
    if (!Files.isDirectory(logdir)) {
      return List.of();
    }
    Map<String, List<Path>> filesByRun = new TreeMap<>();
    Map<String, Path> directories = new TreeMap<>();
    try {
      Files.walkFileTree(
          logdir,
          EnumSet.of(FileVisitOption.FOLLOW_LINKS),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()
                  && file.getFileName().toString().contains(EVENT_FILE_INFIX)) {
                String run = runName(logdir, file.getParent());
                filesByRun.computeIfAbsent(run, r -> new ArrayList<>()).add(file);
                directories.put(run, file.getParent());
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // The visitor swallows per-entry failures; this only happens if the root vanished.
      return List.of();
    }
    List<TensorBoardRun> runs = new ArrayList<>(filesByRun.size());
    filesByRun.forEach(
        (name, files) -> {
          files.sort(null);
          runs.add(
              new TensorBoardRun(
                  name, directories.get(name), files, hparamsParent(name, filesByRun)));
        });
    return runs;
  }

  private static String runName(Path logdir, Path directory) {
    String relative = logdir.relativize(directory).toString().replace('\\', '/');
    return relative.isEmpty() ? "." : relative;
  }

  private static Optional<String> hparamsParent(String name, Map<String, List<Path>> runs) {
    if (name.equals(".")) {
      return Optional.empty();
    }
    int slash = name.lastIndexOf('/');
    String parent = slash < 0 ? "." : name.substring(0, slash);
    String leaf = name.substring(slash + 1);
    return HPARAMS_SUB_RUN.matcher(leaf).matches() && runs.containsKey(parent)
        ? Optional.of(parent)
        : Optional.empty();
  }
}
