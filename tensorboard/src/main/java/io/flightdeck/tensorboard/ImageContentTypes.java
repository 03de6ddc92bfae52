package io.flightdeck.tensorboard;

import java.util.Arrays;

/**
 * The media type of an encoded image, from its leading bytes: writers encode PNG (TensorFlow,
 * PyTorch), GIF (animated summaries) or JPEG, and never say which.
 */
public final class ImageContentTypes {
  public static final String OCTET_STREAM = "application/octet-stream";

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  private static final byte[] GIF87 = {'G', 'I', 'F', '8', '7', 'a'};
  private static final byte[] GIF89 = {'G', 'I', 'F', '8', '9', 'a'};
  private static final byte[] JPEG = {(byte) 0xff, (byte) 0xd8, (byte) 0xff};

  private ImageContentTypes() {}

  /** {@code image/png}, {@code image/gif}, {@code image/jpeg}, else {@link #OCTET_STREAM}. */
  public static String sniff(byte[] encoded) {
    if (startsWith(encoded, PNG)) {
      return "image/png";
    }
    if (startsWith(encoded, GIF87) || startsWith(encoded, GIF89)) {
      return "image/gif";
    }
    if (startsWith(encoded, JPEG)) {
      return "image/jpeg";
    }
    return OCTET_STREAM;
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length >= prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }
}
