package io.flightdeck.remote;

import io.flightdeck.config.TlsConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Collection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Builds the {@link SSLContext} of a {@code tls_config}: PEM CA bundle, PEM client certificate with
 * an unencrypted PKCS#8 key, or no verification at all with {@code insecure_skip_verify}.
 */
final class TlsContexts {
  private TlsContexts() {}

  static SSLContext create(TlsConfig tls) throws IOException, GeneralSecurityException {
    TrustManager[] trust = null;
    if (tls.insecureSkipVerify()) {
      trust = new TrustManager[] {new TrustingEveryone()};
    } else if (tls.caFile() != null) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate cert : certificates(tls.caFile())) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      trust = factory.getTrustManagers();
    }
    KeyManagerFactory keys = null;
    if (tls.certFile() != null && tls.keyFile() != null) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      Collection<? extends Certificate> chain = certificates(tls.certFile());
      store.setKeyEntry(
          "client", privateKey(tls.keyFile()), new char[0], chain.toArray(new Certificate[0]));
      keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      keys.init(store, new char[0]);
    }
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys == null ? null : keys.getKeyManagers(), trust, null);
    return context;
  }

  private static Collection<? extends Certificate> certificates(java.nio.file.Path file)
      throws IOException, GeneralSecurityException {
    try (InputStream in = Files.newInputStream(file)) {
      return CertificateFactory.getInstance("X.509").generateCertificates(in);
    }
  }

  private static PrivateKey privateKey(java.nio.file.Path file)
      throws IOException, GeneralSecurityException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
    int end = pem.indexOf("-----END PRIVATE KEY-----");
    if (begin < 0 || end < 0) {
      throw new GeneralSecurityException(
          "key_file " + file + " is not an unencrypted PKCS#8 PEM key (BEGIN PRIVATE KEY)");
    }
    byte[] der =
        Base64.getMimeDecoder()
            .decode(pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end));
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : new String[] {"RSA", "EC", "Ed25519"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm; try the next
      }
    }
    throw new GeneralSecurityException("key_file " + file + " holds no RSA, EC or Ed25519 key");
  }

  /**
   * insecure_skip_verify: an extended trust manager that accepts every chain, which also turns off
   * the JDK's host name check (it is the trust manager's job for extended managers).
   */
  private static final class TrustingEveryone extends X509ExtendedTrustManager {
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
}
