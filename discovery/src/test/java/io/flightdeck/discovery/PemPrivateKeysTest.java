package io.flightdeck.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import org.junit.jupiter.api.Test;

/** The key forms openssl writes, read into the same keys. Fixtures: kubeconfig-tls/generate.sh. */
class PemPrivateKeysTest {
  private static PrivateKey read(String fixture) throws Exception {
    Path file = Path.of(PemPrivateKeysTest.class.getResource("/kubeconfig-tls/" + fixture).toURI());
    return PemPrivateKeys.read(Files.readString(file), fixture);
  }

  @Test
  void rsaKeysInPkcs1AndPkcs8AreTheSameKey() throws Exception {
    RSAPrivateCrtKey pkcs1 = (RSAPrivateCrtKey) read("client-rsa-pkcs1.key");
    RSAPrivateCrtKey pkcs8 = (RSAPrivateCrtKey) read("client-rsa-pkcs8.key");

    assertThat(pkcs1.getModulus()).isEqualTo(pkcs8.getModulus());
    assertThat(pkcs1.getPrivateExponent()).isEqualTo(pkcs8.getPrivateExponent());
  }

  @Test
  void ecKeysInSec1AndPkcs8AreTheSameKeyOnTheSameCurve() throws Exception {
    ECPrivateKey sec1 = (ECPrivateKey) read("client-ec-sec1.key");
    ECPrivateKey pkcs8 = (ECPrivateKey) read("client-ec-pkcs8.key");

    assertThat(sec1.getS()).isEqualTo(pkcs8.getS());
    assertThat(sec1.getParams().getCurve()).isEqualTo(pkcs8.getParams().getCurve());
    assertThat(sec1.getParams().getOrder().bitLength()).isEqualTo(256);
  }

  @Test
  void badInputIsNamed() {
    assertThatThrownBy(() -> PemPrivateKeys.read("not a key", "user.key"))
        .isInstanceOf(GeneralSecurityException.class)
        .hasMessage("user.key: no PEM private key found");
    assertThatThrownBy(
            () ->
                PemPrivateKeys.read(
                    "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----",
                    "user.key"))
        .hasMessageStartingWith("user.key: unreadable RSA PRIVATE KEY: ");
    assertThatThrownBy(
            () ->
                PemPrivateKeys.read(
                    "-----BEGIN EC PRIVATE KEY-----\nMAMCAQE=\n-----END EC PRIVATE KEY-----",
                    "user.key"))
        .hasMessage("user.key: EC PRIVATE KEY: the curve is not named (no [0] parameters)");
  }
}
