package io.flightdeck.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.flightdeck.config.KubernetesSdConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A minimal client of the Kubernetes API: lists of objects as JSON and watches of them over
 * WebSockets, with credentials from {@code api_server} (no authentication), a kubeconfig file
 * (token or token file, client certificate and key, CA; each file or inline {@code -data}), or the
 * in-cluster service account. Thread-safe.
 */
final class KubernetesApi {
  static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final URI server;
  private final String token;
  private final Path tokenFile;
  private final HttpClient client;

  private KubernetesApi(URI server, String token, Path tokenFile, SSLContext ssl) {
    this.server = server;
    this.token = token;
    this.tokenFile = tokenFile;
    HttpClient.Builder builder =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT);
    if (ssl != null) {
      builder.sslContext(ssl);
    }
    this.client = builder.build();
  }

  static KubernetesApi connect(KubernetesSdConfig config) throws DiscoveryException {
    try {
      if (config.apiServer() != null) {
        return new KubernetesApi(config.apiServer(), null, null, null);
      }
      if (config.kubeconfigFile() != null) {
        return fromKubeconfig(config.kubeconfigFile());
      }
      return inCluster();
    } catch (IOException | GeneralSecurityException e) {
      throw new DiscoveryException("kubernetes credentials: " + e.getMessage(), e);
    }
  }

  private static KubernetesApi inCluster()
      throws IOException, GeneralSecurityException, DiscoveryException {
    String host = System.getenv("KUBERNETES_SERVICE_HOST");
    String port = System.getenv("KUBERNETES_SERVICE_PORT");
    if (host == null || port == null) {
      throw new DiscoveryException(
          "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and"
              + " KUBERNETES_SERVICE_PORT must be defined");
    }
    String hostPort = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    byte[] ca = Files.readAllBytes(SERVICE_ACCOUNT.resolve("ca.crt"));
    return new KubernetesApi(
        URI.create("https://" + hostPort),
        null,
        SERVICE_ACCOUNT.resolve("token"),
        tls(ca, false, null));
  }

  private static KubernetesApi fromKubeconfig(Path file)
      throws IOException, GeneralSecurityException, DiscoveryException {
    JsonNode root = YAML.readTree(file.toFile());
    String contextName = root.path("current-context").asText();
    JsonNode context = named(root.path("contexts"), contextName, "context", file).path("context");
    JsonNode cluster =
        named(root.path("clusters"), context.path("cluster").asText(), "cluster", file)
            .path("cluster");
    JsonNode user =
        named(root.path("users"), context.path("user").asText(), "user", file).path("user");
    byte[] ca = pemOf(cluster, "certificate-authority", file);
    byte[] certificate = pemOf(user, "client-certificate", file);
    byte[] key = pemOf(user, "client-key", file);
    if ((certificate == null) != (key == null)) {
      throw new DiscoveryException(
          file
              + ": user \""
              + context.path("user").asText()
              + "\" has "
              + (certificate == null
                  ? "client-key but no client-certificate"
                  : "client-certificate but no client-key"));
    }
    KeyManager[] keys = null;
    if (certificate != null) {
      keys =
          clientKeys(certificate, key, file + ": user \"" + context.path("user").asText() + "\"");
    }
    boolean insecure = cluster.path("insecure-skip-tls-verify").asBoolean(false);
    URI server = URI.create(cluster.path("server").asText());
    SSLContext ssl = server.getScheme().equals("https") ? tls(ca, insecure, keys) : null;
    String token = user.has("token") ? user.path("token").asText() : null;
    Path tokenFile = user.has("tokenFile") ? resolve(file, user.path("tokenFile").asText()) : null;
    return new KubernetesApi(server, token, tokenFile, ssl);
  }

  private static JsonNode named(JsonNode list, String name, String what, Path file)
      throws DiscoveryException {
    for (JsonNode entry : list) {
      if (entry.path("name").asText().equals(name)) {
        return entry;
      }
    }
    throw new DiscoveryException(file + ": no " + what + " named \"" + name + "\"");
  }

  /**
   * The PEM bytes of {@code NAME-data} (base64) or of the file {@code NAME} names, relative to the
   * kubeconfig's directory; null when neither is set.
   */
  private static byte[] pemOf(JsonNode section, String name, Path kubeconfig)
      throws IOException, DiscoveryException {
    if (section.has(name + "-data")) {
      try {
        return Base64.getMimeDecoder().decode(section.path(name + "-data").asText());
      } catch (IllegalArgumentException e) {
        throw new DiscoveryException(
            kubeconfig + ": " + name + "-data is not base64: " + e.getMessage());
      }
    }
    if (section.has(name)) {
      return Files.readAllBytes(resolve(kubeconfig, section.path(name).asText()));
    }
    return null;
  }

  /** The client certificate chain and its private key, for TLS client authentication. */
  private static KeyManager[] clientKeys(byte[] certificatePem, byte[] keyPem, String where)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    Certificate[] chain = certificates(certificatePem).toArray(new Certificate[0]);
    if (chain.length == 0) {
      throw new GeneralSecurityException(where + ": client-certificate holds no certificate");
    }
    PrivateKey key =
        PemPrivateKeys.read(new String(keyPem, StandardCharsets.US_ASCII), where + " client-key");
    store.setKeyEntry("client", key, new char[0], chain);
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(store, new char[0]);
    return factory.getKeyManagers();
  }

  private static Collection<? extends Certificate> certificates(byte[] pem)
      throws CertificateException {
    return CertificateFactory.getInstance("X.509")
        .generateCertificates(new ByteArrayInputStream(pem));
  }

  private static Path resolve(Path kubeconfig, String name) {
    Path path = Path.of(name);
    Path dir = kubeconfig.toAbsolutePath().getParent();
    return path.isAbsolute() || dir == null ? path : dir.resolve(path);
  }

  private static SSLContext tls(byte[] caPem, boolean insecure, KeyManager[] keys)
      throws IOException, GeneralSecurityException {
    TrustManager[] trust = null;
    if (insecure) {
      trust = new TrustManager[] {new TrustAll()};
    } else if (caPem != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int index = 0;
      for (Certificate certificate : certificates(caPem)) {
        store.setCertificateEntry("ca-" + index++, certificate);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      trust = factory.getTrustManagers();
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys, trust, null);
    return context;
  }

  /**
   * Lists objects at {@code path} such as {@code /api/v1/namespaces/NS/pods}.
   *
   * @param query parameters, empty values left out
   * @return the list, with its {@code items} and {@code metadata.resourceVersion}
   */
  JsonNode list(String path, Map<String, String> query)
      throws IOException, InterruptedException, DiscoveryException {
    URI uri = uri(server.getScheme(), path, query);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json").GET();
    String bearer = bearer();
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    HttpResponse<byte[]> response =
        client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) {
      throw new DiscoveryException(
          "kubernetes API answered " + response.statusCode() + " for GET " + uri);
    }
    return JSON.readTree(response.body());
  }

  /** Receives the events of one watch, on the HTTP client's threads. */
  interface WatchListener {
    /** An event: {@code type} ADDED, MODIFIED, DELETED, BOOKMARK or ERROR, and its object. */
    void event(String type, JsonNode object);

    /** The watch ended: closed by the server, failed, or never opened. */
    void ended(String reason);
  }

  /**
   * Watches {@code path} from {@code resourceVersion} over a WebSocket, as kubectl's and fabric8's
   * clients can, until the server closes it or {@link WebSocket#abort()}.
   *
   * @param query parameters, empty values left out
   */
  CompletableFuture<WebSocket> watch(
      String path, Map<String, String> query, String resourceVersion, WatchListener listener)
      throws IOException {
    Map<String, String> watchQuery = new LinkedHashMap<>();
    watchQuery.put("watch", "true");
    watchQuery.put("resourceVersion", resourceVersion);
    watchQuery.put("allowWatchBookmarks", "true");
    watchQuery.putAll(query);
    URI uri = uri(server.getScheme().equals("https") ? "wss" : "ws", path, watchQuery);
    WebSocket.Builder builder = client.newWebSocketBuilder().connectTimeout(TIMEOUT);
    String bearer = bearer();
    if (bearer != null) {
      builder.header("Authorization", "Bearer " + bearer);
    }
    CompletableFuture<WebSocket> socket = builder.buildAsync(uri, new Events(listener));
    socket.whenComplete(
        (open, failure) -> {
          if (failure != null) {
            listener.ended("watch " + uri + " failed: " + failure.getMessage());
          }
        });
    return socket;
  }

  /** Stops the HTTP client and whatever it still runs. */
  void close() {
    client.shutdownNow();
  }

  private URI uri(String scheme, String path, Map<String, String> query) {
    StringJoiner params = new StringJoiner("&", "?", "").setEmptyValue("");
    query.forEach(
        (name, value) -> {
          if (!value.isEmpty()) {
            params.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
          }
        });
    String base = server.toString().replaceAll("/+$", "").replaceFirst("^[a-z]+:", scheme + ":");
    return URI.create(base + path + params);
  }

  /** The bearer token, read afresh from its file (service account tokens rotate); null if none. */
  private String bearer() throws IOException {
    String bearer = tokenFile != null ? Files.readString(tokenFile).strip() : token;
    return bearer == null || bearer.isEmpty() ? null : bearer;
  }

  /**
   * Joins each event's frames and hands the parsed event on. API servers send JSON events as text
   * frames; binary frames are read as well.
   */
  private static final class Events implements WebSocket.Listener {
    private final WatchListener listener;
    private final StringBuilder text = new StringBuilder();
    private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

    Events(WatchListener listener) {
      this.listener = listener;
    }

    @Override
    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String message = text.toString();
        text.setLength(0);
        deliver(socket, message.getBytes(StandardCharsets.UTF_8));
      }
      socket.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket socket, ByteBuffer data, boolean last) {
      byte[] bytes = new byte[data.remaining()];
      data.get(bytes);
      binary.writeBytes(bytes);
      if (last) {
        byte[] message = binary.toByteArray();
        binary.reset();
        deliver(socket, message);
      }
      socket.request(1);
      return null;
    }

    private void deliver(WebSocket socket, byte[] message) {
      JsonNode event;
      try {
        event = JSON.readTree(message);
      } catch (IOException e) {
        listener.ended("unreadable watch event: " + e.getMessage());
        socket.abort();
        return;
      }
      listener.event(event.path("type").asText(), event.path("object"));
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
      listener.ended("watch closed by the server (" + status + " " + reason + ")");
      return null;
    }

    @Override
    public void onError(WebSocket socket, Throwable error) {
      listener.ended("watch failed: " + error);
    }
  }

  /** {@code insecure-skip-tls-verify}. */
  private static final class TrustAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(
        X509Certificate[] chain, String authType, java.net.Socket socket) {}

    @Override
    public void checkServerTrusted(
        X509Certificate[] chain, String authType, java.net.Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
