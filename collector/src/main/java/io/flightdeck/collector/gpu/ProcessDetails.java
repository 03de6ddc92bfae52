package io.flightdeck.collector.gpu;

import java.util.Map;
import java.util.Optional;

/**
 * What procfs tells about a GPU process. Every part is optional: the process may have exited, or
 * its files may be unreadable to us (environ needs the same user or root).
 *
 * @param commandLine argv joined by spaces
 * @param cgroupPath the unified (v2) cgroup path, else the first non-root v1 path
 * @param containerId the 64-hex container id found in the cgroup path
 * @param podUid the Kubernetes pod uid found in the cgroup path, with dashes
 * @param pod the pod's name, for a process in a pod: its {@code HOSTNAME}, which Kubernetes sets to
 *     the pod name
 * @param namespace the pod's namespace, from the service-account files mounted in its container
 * @param rankEnvironment the distributed-training variables of {@link
 *     ProcessInfoReader#RANK_VARIABLES} that are set
 */
record ProcessDetails(
    Optional<String> commandLine,
    Optional<String> cgroupPath,
    Optional<String> containerId,
    Optional<String> podUid,
    Optional<String> pod,
    Optional<String> namespace,
    Map<String, String> rankEnvironment) {

  ProcessDetails {
    rankEnvironment = Map.copyOf(rankEnvironment);
  }
}
