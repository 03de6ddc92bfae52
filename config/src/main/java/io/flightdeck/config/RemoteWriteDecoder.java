package io.flightdeck.config;

import io.flightdeck.model.GoQuote;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Decodes the {@code remote_write} list. */
final class RemoteWriteDecoder {
  private static final Set<String> OWN =
      Set.of("url", "name", "remote_timeout", "headers", "write_relabel_configs", "queue_config");
  private static final Set<String> QUEUE =
      Set.of(
          "capacity",
          "max_shards",
          "min_shards",
          "max_samples_per_send",
          "batch_send_deadline",
          "min_backoff",
          "max_backoff");

  /** Headers the protocol or the HTTP client owns. */
  private static final Set<String> RESERVED =
      Set.of(
          "host",
          "content-encoding",
          "content-length",
          "content-type",
          "user-agent",
          "connection",
          "keep-alive",
          "proxy-authenticate",
          "proxy-authorization",
          "www-authenticate",
          "accept-encoding",
          "x-prometheus-remote-write-version",
          "x-prometheus-remote-read-version",
          "x-amz-date",
          "x-amz-security-token",
          "x-amz-content-sha256");

  private static final Set<String> FIELDS = fields();

  private RemoteWriteDecoder() {}

  static List<RemoteWriteConfig> decodeAll(Node node) {
    List<RemoteWriteConfig> configs = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Node item : node.items("[]*config.RemoteWriteConfig")) {
      if (item.isNull()) {
        throw item.error("empty or null remote write config section");
      }
      RemoteWriteConfig config = decode(item);
      if (!config.name().isEmpty() && !names.add(config.name())) {
        throw item.error(
            "found multiple remote write configs with job name " + GoQuote.quote(config.name()));
      }
      configs.add(config);
    }
    return configs;
  }

  private static RemoteWriteConfig decode(Node node) {
    Node.Fields f = node.fields("config.RemoteWriteConfig", FIELDS);
    Node urlNode = f.get("url");
    if (urlNode.string().isEmpty()) {
      throw urlNode.error("url for remote_write is empty");
    }
    Node headersNode = f.get("headers");
    Map<String, String> headers = headersNode.stringMap();
    for (String header : headers.keySet()) {
      String lower = header.toLowerCase(Locale.ROOT);
      if (lower.equals("authorization")) {
        throw headersNode.error(
            "authorization header must be changed via the basic_auth, authorization, oauth2,"
                + " sigv4, azuread or google_iam parameter");
      }
      if (RESERVED.contains(lower)) {
        throw headersNode.error(header + " is a reserved header. It must not be changed");
      }
    }
    return new RemoteWriteConfig(
        DiscoveryDecoder.url(urlNode),
        f.get("name").string(),
        f.get("remote_timeout").duration(RemoteWriteConfig.DEFAULT_REMOTE_TIMEOUT),
        headers,
        HttpClientDecoder.decode(f),
        RelabelDecoder.decodeAll(
            f.get("write_relabel_configs"), "empty or null relabeling rule in remote write config"),
        queue(f.get("queue_config")));
  }

  private static QueueConfig queue(Node node) {
    Node.Fields f = node.fields("config.QueueConfig", QUEUE);
    QueueConfig d = QueueConfig.DEFAULT;
    return new QueueConfig(
        f.get("capacity").integer(d.capacity()),
        f.get("max_shards").integer(d.maxShards()),
        f.get("min_shards").integer(d.minShards()),
        f.get("max_samples_per_send").integer(d.maxSamplesPerSend()),
        f.get("batch_send_deadline").duration(d.batchSendDeadline()),
        f.get("min_backoff").duration(d.minBackoff()),
        f.get("max_backoff").duration(d.maxBackoff()));
  }

  private static Set<String> fields() {
    Set<String> all = new HashSet<>(OWN);
    all.addAll(HttpClientDecoder.FIELDS);
    return Set.copyOf(all);
  }
}
