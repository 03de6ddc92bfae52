package io.flightdeck.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed EC certificate made by the JDK's keytool, for tests of TLS clients: the server
 * side's {@link SSLContext} and the PEM file a client trusts as its CA.
 */
public final class SelfSignedCertificate {
  private static final String PASSWORD = "changeit";

  private final Path keystore;
  private final Path caPem;

  private SelfSignedCertificate(Path keystore, Path caPem) {
    this.keystore = keystore;
    this.caPem = caPem;
  }

  /**
   * Creates the key pair and certificate in {@code dir}.
   *
   * @param commonName the subject's CN, such as {@code localhost}
   * @param subjectAltNames keytool's form, such as {@code ip:127.0.0.1,dns:localhost}
   */
  public static SelfSignedCertificate create(Path dir, String commonName, String subjectAltNames)
      throws IOException, InterruptedException {
    Path keystore = dir.resolve("server.p12");
    Path caPem = dir.resolve("ca.pem");
    keytool(
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-dname",
        "CN=" + commonName,
        "-ext",
        "SAN=" + subjectAltNames,
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "server",
        "-keystore",
        keystore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        caPem.toString());
    return new SelfSignedCertificate(keystore, caPem);
  }

  /** The certificate as PEM, for a client's {@code ca_file}. */
  public Path caPem() {
    return caPem;
  }

  /** A server context presenting this certificate. */
  public SSLContext serverContext() throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      store.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
