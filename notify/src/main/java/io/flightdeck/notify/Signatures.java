package io.flightdeck.notify;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The request signatures of the chat robots that support a signing secret. */
final class Signatures {
  private Signatures() {}

  /**
   * Feishu/Lark: HMAC-SHA256 keyed with {@code timestamp + "\n" + secret} over an empty message,
   * Base64; the timestamp is in seconds.
   */
  static String feishu(long timestampSeconds, String secret) {
    return hmacBase64(timestampSeconds + "\n" + secret, "");
  }

  /**
   * DingTalk: HMAC-SHA256 keyed with the secret over {@code timestamp + "\n" + secret}, Base64 (the
   * caller URL-encodes it); the timestamp is in milliseconds.
   */
  static String dingTalk(long timestampMillis, String secret) {
    return hmacBase64(secret, timestampMillis + "\n" + secret);
  }

  private static String hmacBase64(String key, String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return Base64.getEncoder()
          .encodeToString(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
