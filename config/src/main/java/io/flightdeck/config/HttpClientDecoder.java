package io.flightdeck.config;

import java.util.Locale;
import java.util.Set;

/**
 * Decodes {@code basic_auth}, {@code authorization} and {@code tls_config}, inlined in a section.
 */
final class HttpClientDecoder {
  /** The field names this decoder reads from its parent section. */
  static final Set<String> FIELDS = Set.of("basic_auth", "authorization", "tls_config");

  private static final Set<String> BASIC_AUTH = Set.of("username", "password", "password_file");
  private static final Set<String> AUTHORIZATION =
      Set.of("type", "credentials", "credentials_file");
  private static final Set<String> TLS =
      Set.of("ca_file", "cert_file", "key_file", "server_name", "insecure_skip_verify");

  private HttpClientDecoder() {}

  static HttpClientConfig decode(Node.Fields parent) {
    BasicAuth basic = basicAuth(parent.get("basic_auth"));
    Authorization authorization = authorization(parent.get("authorization"));
    if (basic != null && authorization != null) {
      throw parent
          .get("authorization")
          .error("at most one of basic_auth, oauth2 & authorization must be configured");
    }
    return new HttpClientConfig(basic, authorization, tls(parent.get("tls_config")));
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
