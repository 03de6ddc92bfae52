package io.flightdeck.discovery;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an unencrypted PEM private key in the forms kubeconfig files hold: PKCS#8 ({@code PRIVATE
 * KEY}, RSA, EC or Ed25519), PKCS#1 ({@code RSA PRIVATE KEY}) and SEC 1 ({@code EC PRIVATE KEY}).
 * The JDK reads only PKCS#8, so the other two are wrapped into PKCS#8 first (RFC 5208: version,
 * algorithm identifier, the key as an octet string), which takes a few lines of DER rather than a
 * dependency.
 */
final class PemPrivateKeys {
  private static final Pattern PEM =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
  private static final int SEQUENCE = 0x30;
  private static final int INTEGER = 0x02;
  private static final int OCTET_STRING = 0x04;
  private static final int OID = 0x06;
  private static final int NULL = 0x05;
  private static final int EC_PARAMETERS = 0xA0;

  /** 1.2.840.113549.1.1.1 */
  private static final byte[] RSA_ENCRYPTION = {
    OID, 9, 0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01
  };

  /** 1.2.840.10045.2.1 */
  private static final byte[] EC_PUBLIC_KEY = {
    OID, 7, 0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01
  };

  private PemPrivateKeys() {}

  /**
   * @param pem the file's text
   * @param where names the key's origin in error messages
   */
  static PrivateKey read(String pem, String where) throws GeneralSecurityException {
    Matcher block = PEM.matcher(pem);
    String type = null;
    // openssl ecparam -genkey writes an EC PARAMETERS block before the key.
    while (block.find()) {
      type = block.group(1);
      if (type.endsWith("PRIVATE KEY")) {
        break;
      }
    }
    if (type == null) {
      throw new GeneralSecurityException(where + ": no PEM private key found");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(block.group(2).getBytes(StandardCharsets.US_ASCII));
    } catch (IllegalArgumentException e) {
      throw new GeneralSecurityException(where + ": bad base64 in " + type + ": " + e.getMessage());
    }
    byte[] pkcs8;
    String[] algorithms;
    switch (type) {
      case "PRIVATE KEY" -> {
        pkcs8 = der;
        algorithms = new String[] {"RSA", "EC", "Ed25519"};
      }
      case "RSA PRIVATE KEY" -> {
        pkcs8 = wrap(sequence(RSA_ENCRYPTION, new byte[] {NULL, 0}), der);
        algorithms = new String[] {"RSA"};
      }
      case "EC PRIVATE KEY" -> {
        pkcs8 = wrap(sequence(EC_PUBLIC_KEY, curve(der, where)), der);
        algorithms = new String[] {"EC"};
      }
      default ->
          throw new GeneralSecurityException(
              where
                  + ": unsupported PEM block \""
                  + type
                  + "\"; expected an unencrypted PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY");
    }
    GeneralSecurityException last = null;
    for (String algorithm : algorithms) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw new GeneralSecurityException(
        where + ": unreadable " + type + ": " + last.getMessage(), last);
  }

  /** A PKCS#8 {@code PrivateKeyInfo}: version 0, the algorithm, the key as an octet string. */
  private static byte[] wrap(byte[] algorithm, byte[] key) {
    return sequence(tlv(INTEGER, new byte[] {0}), algorithm, tlv(OCTET_STRING, key));
  }

  /**
   * The named curve's OID (tag and all) from a SEC 1 {@code ECPrivateKey}: {@code SEQUENCE {
   * version, privateKey, [0] parameters OPTIONAL, [1] publicKey OPTIONAL }}.
   */
  private static byte[] curve(byte[] sec1, String where) throws GeneralSecurityException {
    try {
      return curve(sec1);
    } catch (GeneralSecurityException e) {
      throw new GeneralSecurityException(where + ": EC PRIVATE KEY: " + e.getMessage(), e);
    }
  }

  private static byte[] curve(byte[] sec1) throws GeneralSecurityException {
    Der outer = new Der(sec1, 0);
    if (outer.tag != SEQUENCE) {
      throw new GeneralSecurityException("not a DER sequence");
    }
    for (int at = outer.start; at < outer.end; ) {
      Der element = new Der(sec1, at);
      if (element.tag == EC_PARAMETERS) {
        Der oid = new Der(sec1, element.start);
        if (oid.tag == OID) {
          return Arrays.copyOfRange(sec1, element.start, oid.end);
        }
      }
      at = element.end;
    }
    throw new GeneralSecurityException("the curve is not named (no [0] parameters)");
  }

  private static byte[] sequence(byte[]... elements) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] element : elements) {
      content.writeBytes(element);
    }
    return tlv(SEQUENCE, content.toByteArray());
  }

  /** A DER tag, definite length and content. */
  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  /** One DER element's tag and where its content starts and ends. */
  private static final class Der {
    final int tag;
    final int start;
    final int end;

    Der(byte[] der, int at) throws GeneralSecurityException {
      if (at + 2 > der.length) {
        throw new GeneralSecurityException("truncated DER");
      }
      tag = der[at] & 0xFF;
      int length = der[at + 1] & 0xFF;
      int position = at + 2;
      if (length >= 0x80) {
        int bytes = length & 0x7F;
        if (bytes == 0 || bytes > 3 || position + bytes > der.length) {
          throw new GeneralSecurityException("unsupported DER length");
        }
        length = 0;
        for (int i = 0; i < bytes; i++) {
          length = (length << 8) | (der[position++] & 0xFF);
        }
      }
      start = position;
      end = position + length;
      if (end > der.length) {
        throw new GeneralSecurityException("truncated DER");
      }
    }
  }
}
