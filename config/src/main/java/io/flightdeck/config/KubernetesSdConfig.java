package io.flightdeck.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Targets discovered from the Kubernetes API. Without {@code apiServer} and {@code kubeconfigFile}
 * the in-cluster service account is used.
 *
 * @param apiServer null when absent
 * @param kubeconfigFile null when absent
 */
public record KubernetesSdConfig(
    Role role,
    URI apiServer,
    Path kubeconfigFile,
    Namespaces namespaces,
    List<Selector> selectors) {

  public KubernetesSdConfig {
    selectors = List.copyOf(selectors);
  }

  /** The kind of object that becomes a target. */
  public enum Role {
    POD,
    SERVICE,
    ENDPOINTS,
    ENDPOINTSLICE,
    NODE,
    INGRESS;

    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Namespaces to watch; none named and not {@code ownNamespace} means all.
   *
   * @param ownNamespace also watch the namespace Flightdeck runs in
   */
  public record Namespaces(List<String> names, boolean ownNamespace) {
    public static final Namespaces ALL = new Namespaces(List.of(), false);

    public Namespaces {
      names = List.copyOf(names);
    }
  }

  /** A label and field selector, as in kubectl, applied to watches of {@code role}. */
  public record Selector(Role role, String label, String field) {}
}
