package io.flightdeck.discovery;

import io.flightdeck.config.FileSdConfig;
import io.flightdeck.config.HttpSdConfig;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.ServiceDiscoveryConfigs;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Builds the discoverers a job's configuration names. */
public final class Discoverers {
  /** How often watched files are checked for changes between refreshes. */
  public static final Duration FILE_WATCH_INTERVAL = Duration.ofSeconds(1);

  /** How often Kubernetes objects are listed. */
  public static final Duration KUBERNETES_POLL_INTERVAL = Duration.ofSeconds(5);

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  private Discoverers() {}

  /**
   * One discoverer per configured source, not yet started.
   *
   * @param name names their threads, the job name usually
   */
  public static List<Discoverer> create(String name, ServiceDiscoveryConfigs configs) {
    List<Discoverer> discoverers = new ArrayList<>();
    if (!configs.staticConfigs().isEmpty()) {
      discoverers.add(new StaticDiscoverer(configs.staticConfigs()));
    }
    int index = 0;
    for (FileSdConfig file : configs.fileSdConfigs()) {
      discoverers.add(new FileDiscoverer(name + "-file-" + index++, file, FILE_WATCH_INTERVAL));
    }
    index = 0;
    for (HttpSdConfig http : configs.httpSdConfigs()) {
      discoverers.add(new HttpDiscoverer(name + "-http-" + index++, http, HTTP));
    }
    index = 0;
    for (KubernetesSdConfig kubernetes : configs.kubernetesSdConfigs()) {
      discoverers.add(
          new KubernetesDiscoverer(
              name + "-kubernetes-" + index++, kubernetes, KUBERNETES_POLL_INTERVAL));
    }
    return discoverers;
  }
}
