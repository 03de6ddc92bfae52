package io.flightdeck.collector.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a GPU process's command line, cgroup (container id, Kubernetes pod uid), pod name and
 * namespace, and rank variables from a procfs root ({@code /proc} on a live host, a fixture tree in
 * tests). NVML reports host pids, so this must read the host's procfs. Stateless and thread-safe.
 */
final class ProcessInfoReader {
  /** The environment variables torchrun and most launchers set for each rank. */
  static final List<String> RANK_VARIABLES = List.of("RANK", "LOCAL_RANK", "WORLD_SIZE");

  private static final Pattern CONTAINER_ID = Pattern.compile("([0-9a-f]{64})");
  // cgroupfs writes the uid with dashes, the systemd driver with underscores.
  private static final Pattern POD_UID =
      Pattern.compile(
          "pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})");
  private static final int MAX_COMMAND_CHARS = 256;

  /** The namespace file of the pod's service account, seen through the process's own root. */
  private static final String SERVICE_ACCOUNT_NAMESPACE =
      "root/var/run/secrets/kubernetes.io/serviceaccount/namespace";

  private final Path procRoot;

  ProcessInfoReader(Path procRoot) {
    this.procRoot = procRoot;
  }

  ProcessDetails read(int pid) {
    Path dir = procRoot.resolve(Integer.toString(pid));
    Optional<String> command =
        readNulSeparated(dir.resolve("cmdline")).map(ProcessInfoReader::command);
    Optional<String> cgroup =
        readText(dir.resolve("cgroup")).flatMap(ProcessInfoReader::cgroupPath);
    Map<String, String> ranks = new LinkedHashMap<>();
    String[] hostname = {null};
    readNulSeparated(dir.resolve("environ"))
        .ifPresent(
            environ -> {
              for (String entry : environ.split("\0")) {
                int eq = entry.indexOf('=');
                if (eq <= 0) {
                  continue;
                }
                String name = entry.substring(0, eq);
                if (RANK_VARIABLES.contains(name)) {
                  ranks.put(name, entry.substring(eq + 1));
                } else if (name.equals("HOSTNAME")) {
                  hostname[0] = entry.substring(eq + 1);
                }
              }
            });
    Optional<String> podUid =
        cgroup.flatMap(path -> lastGroup(POD_UID, path)).map(uid -> uid.replace('_', '-'));
    // Only a process in a pod has a pod name and namespace; elsewhere HOSTNAME is the host's.
    Optional<String> pod = podUid.flatMap(uid -> Optional.ofNullable(hostname[0]));
    Optional<String> namespace =
        podUid.flatMap(
            uid ->
                readText(dir.resolve(SERVICE_ACCOUNT_NAMESPACE))
                    .map(String::strip)
                    .filter(ns -> !ns.isEmpty()));
    return new ProcessDetails(
        command,
        cgroup,
        cgroup.flatMap(path -> lastGroup(CONTAINER_ID, path)),
        podUid,
        pod,
        namespace,
        ranks);
  }

  private static String command(String nulSeparated) {
    String joined = nulSeparated.replace('\0', ' ').strip();
    return joined.length() <= MAX_COMMAND_CHARS ? joined : joined.substring(0, MAX_COMMAND_CHARS);
  }

  /** The v2 line ({@code 0::path}) wins; else the first v1 line with a path below the root. */
  private static Optional<String> cgroupPath(String text) {
    String fallback = null;
    for (String line : text.split("\n")) {
      String[] parts = line.split(":", 3);
      if (parts.length < 3) {
        continue;
      }
      if (parts[0].equals("0") && parts[1].isEmpty()) {
        return Optional.of(parts[2]);
      }
      if (fallback == null && !parts[2].equals("/")) {
        fallback = parts[2];
      }
    }
    return Optional.ofNullable(fallback);
  }

  private static Optional<String> lastGroup(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    String last = null;
    while (matcher.find()) {
      last = matcher.group(1);
    }
    return Optional.ofNullable(last);
  }

  private static Optional<String> readNulSeparated(Path file) {
    return readText(file).filter(text -> !text.isEmpty());
  }

  /** Absent when the process exited or the file is not readable to us; neither is an error. */
  private static Optional<String> readText(Path file) {
    try {
      return Optional.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }
}
