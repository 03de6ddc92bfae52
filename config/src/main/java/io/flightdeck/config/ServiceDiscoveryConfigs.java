package io.flightdeck.config;

import java.util.List;

/** Where a job's or an Alertmanager section's targets come from. */
public record ServiceDiscoveryConfigs(
    List<StaticConfig> staticConfigs,
    List<FileSdConfig> fileSdConfigs,
    List<HttpSdConfig> httpSdConfigs,
    List<KubernetesSdConfig> kubernetesSdConfigs) {
  public static final ServiceDiscoveryConfigs NONE =
      new ServiceDiscoveryConfigs(List.of(), List.of(), List.of(), List.of());

  public ServiceDiscoveryConfigs {
    staticConfigs = List.copyOf(staticConfigs);
    fileSdConfigs = List.copyOf(fileSdConfigs);
    httpSdConfigs = List.copyOf(httpSdConfigs);
    kubernetesSdConfigs = List.copyOf(kubernetesSdConfigs);
  }
}
