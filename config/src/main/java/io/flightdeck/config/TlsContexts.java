package io.flightdeck.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Turns a {@code tls_config} into the JDK's {@link SSLContext}, for every HTTP client that reads
 * one (scrapes, remote write).
 */
public final class TlsContexts {
  private TlsContexts() {}

  /**
   * The context of {@code tls}: its CA file (else the JDK's trust store), client certificate and
   * PKCS#8 key (PEM), {@code server_name} to verify instead of the URL's host, or no verification
   * with {@code insecure_skip_verify}.
   */
  public static SSLContext create(TlsConfig tls) throws IOException, GeneralSecurityException {
    TrustManager trust;
    if (tls.insecureSkipVerify()) {
      trust = new TrustAll();
    } else {
      X509TrustManager verifying = trustManager(tls.caFile());
      trust = tls.serverName().isEmpty() ? verifying : new ServerName(verifying, tls.serverName());
    }
    KeyManagerFactory keys = null;
    if (tls.certFile() != null && tls.keyFile() != null) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      List<Certificate> chain = new ArrayList<>(certificates(tls.certFile()));
      store.setKeyEntry(
          "client", privateKey(tls.keyFile()), new char[0], chain.toArray(new Certificate[0]));
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), new TrustManager[] {trust}, null);
    return context;
  }

  private static X509TrustManager trustManager(Path caFile)
      throws IOException, GeneralSecurityException {
    KeyStore store = null;
    if (caFile != null) {
      store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      int index = 0;
      for (Certificate certificate : certificates(caFile)) {
        store.setCertificateEntry("ca-" + index++, certificate);
      }
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    for (TrustManager manager : factory.getTrustManagers()) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager");
  }

  private static Collection<? extends Certificate> certificates(Path file)
      throws IOException, CertificateException {
    try (InputStream in = Files.newInputStream(file)) {
      return CertificateFactory.getInstance("X.509").generateCertificates(in);
    }
  }

  private static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    if (!pem.contains("-----BEGIN PRIVATE KEY-----")) {
      throw new GeneralSecurityException(
          file + ": only unencrypted PKCS#8 keys (BEGIN PRIVATE KEY) are supported");
    }
    String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64));
    GeneralSecurityException last = null;
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw last;
  }

  /** {@code insecure_skip_verify}: accepts any certificate for any host. */
  private static final class TrustAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /**
   * {@code server_name}: the chain is verified as usual, the host name against the configured name
   * rather than the URL's host (the JDK would check the latter).
   */
  private static final class ServerName extends X509ExtendedTrustManager {
    private final X509TrustManager delegate;
    private final String name;

    ServerName(X509TrustManager delegate, String name) {
      this.delegate = delegate;
      this.name = name.toLowerCase(Locale.ROOT);
    }

    private void check(X509Certificate[] chain, String authType) throws CertificateException {
      delegate.checkServerTrusted(chain, authType);
      Collection<List<?>> names = chain[0].getSubjectAlternativeNames();
      if (names != null) {
        for (List<?> entry : names) {
          if (entry.size() == 2 && matches(String.valueOf(entry.get(1)))) {
            return;
          }
        }
      }
      throw new CertificateException("certificate is not valid for " + name);
    }

    private boolean matches(String pattern) {
      String p = pattern.toLowerCase(Locale.ROOT);
      if (p.startsWith("*.")) {
        int dot = name.indexOf('.');
        return dot > 0 && name.substring(dot).equals(p.substring(1));
      }
      return p.equals(name);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      delegate.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      check(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      delegate.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      check(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      delegate.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      check(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return delegate.getAcceptedIssuers();
    }
  }
}
