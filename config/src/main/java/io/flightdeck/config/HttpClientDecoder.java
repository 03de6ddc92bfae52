package io.flightdeck.config;

import java.util.Locale;
import java.util.Set;

/**
 * Decodes Prometheus's HTTP client settings inlined in a section: {@code basic_auth}, {@code
 * authorization}, the legacy {@code bearer_token} and {@code bearer_token_file}, {@code
 * tls_config}, {@code follow_redirects}, {@code proxy_url} and {@code enable_http2} (accepted:
 * Flightdeck talks HTTP/1.1 to targets, which Prometheus's own default for scrapes now is too).
 * {@code oauth2} is refused with a clear error, as Flightdeck cannot fetch tokens yet.
 */
final class HttpClientDecoder {
  /** The field names this decoder reads from its parent section. */
  static final Set<String> FIELDS =
      Set.of(
          "basic_auth",
          "authorization",
          "bearer_token",
          "bearer_token_file",
          "oauth2",
          "tls_config",
          "follow_redirects",
          "enable_http2",
          "proxy_url");

  private static final Set<String> BASIC_AUTH = Set.of("username", "password", "password_file");
  private static final Set<String> AUTHORIZATION =
      Set.of("type", "credentials", "credentials_file");
  private static final Set<String> TLS =
      Set.of("ca_file", "cert_file", "key_file", "server_name", "insecure_skip_verify");

  private HttpClientDecoder() {}

  static HttpClientConfig decode(Node.Fields parent) {
    if (!parent.get("oauth2").isNull()) {
      throw parent.get("oauth2").error("oauth2 is not supported by Flightdeck yet");
    }
    BasicAuth basic = basicAuth(parent.get("basic_auth"));
    Authorization authorization = authorization(parent.get("authorization"));
    Authorization bearer = bearer(parent);
    if (bearer != null && (basic != null || authorization != null)) {
      throw parent
          .get(parent.get("bearer_token").isNull() ? "bearer_token_file" : "bearer_token")
          .error(
              "at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be"
                  + " configured");
    }
    if (basic != null && authorization != null) {
      throw parent
          .get("authorization")
          .error("at most one of basic_auth, oauth2 & authorization must be configured");
    }
    parent.get("enable_http2").bool(true);
    return new HttpClientConfig(
        basic,
        bearer != null ? bearer : authorization,
        tls(parent.get("tls_config")),
        parent.get("follow_redirects").bool(true),
        proxy(parent.get("proxy_url")));
  }

  /** Prometheus 2's {@code bearer_token} / {@code bearer_token_file}: a Bearer authorization. */
  private static Authorization bearer(Node.Fields parent) {
    String token = parent.get("bearer_token").string();
    java.nio.file.Path file = parent.get("bearer_token_file").file();
    if (token.isEmpty() && file == null) {
      return null;
    }
    if (!token.isEmpty() && file != null) {
      throw parent
          .get("bearer_token_file")
          .error("at most one of bearer_token & bearer_token_file must be configured");
    }
    return new Authorization(Authorization.DEFAULT_TYPE, token, file);
  }

  private static java.net.URI proxy(Node node) {
    if (node.isNull() || node.string().isEmpty()) {
      return null;
    }
    java.net.URI url = DiscoveryDecoder.url(node);
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
      throw node.error("proxy_url must be an http or https URL with a host: " + node.string());
    }
    return url;
  }

  private static BasicAuth basicAuth(Node node) {
    if (node.isNull()) {
      return null;
    }
    Node.Fields f = node.fields("config.BasicAuth", BASIC_AUTH);
    BasicAuth auth =
        new BasicAuth(
            f.get("username").string(), f.get("password").string(), f.get("password_file").file());
    if (!auth.password().isEmpty() && auth.passwordFile() != null) {
      throw node.error("at most one of basic_auth password & password_file must be configured");
    }
    return auth;
  }

  private static Authorization authorization(Node node) {
    if (node.isNull()) {
      return null;
    }
    Node.Fields f = node.fields("config.Authorization", AUTHORIZATION);
    String type = f.get("type").string();
    if (type.isEmpty()) {
      type = Authorization.DEFAULT_TYPE;
    }
    if (type.toLowerCase(Locale.ROOT).equals("basic")) {
      throw f.get("type")
          .error("authorization type cannot be set to \"basic\", use \"basic_auth\" instead");
    }
    Authorization auth =
        new Authorization(type, f.get("credentials").string(), f.get("credentials_file").file());
    if (!auth.credentials().isEmpty() && auth.credentialsFile() != null) {
      throw node.error(
          "at most one of authorization credentials & credentials_file must be configured");
    }
    return auth;
  }

  private static TlsConfig tls(Node node) {
    if (node.isNull()) {
      return TlsConfig.DEFAULT;
    }
    Node.Fields f = node.fields("config.TLSConfig", TLS);
    return new TlsConfig(
        f.get("ca_file").file(),
        f.get("cert_file").file(),
        f.get("key_file").file(),
        f.get("server_name").string(),
        f.get("insecure_skip_verify").bool(false));
  }
}
