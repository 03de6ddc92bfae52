package io.flightdeck.tensorboard;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;

/**
 * The record body of an image store file, described in {@code tensorboard/docs/images.md}; the
 * header and framing are {@link RecordFile}'s. Big-endian.
 */
final class ImageRecords {
  static final byte[] MAGIC = {'F', 'D', 'I', 'M'};
  static final byte VERSION = 1;

  /** A decoded record: the description the index keeps and the image's bytes. */
  record Decoded(StoredImage image, byte[] encoded) {}

  private ImageRecords() {}

  static byte[] encode(String run, ImagePoint p) {
    return new RecordBodies.Writer()
        .putLong(p.step())
        .putDouble(p.wallTimeSeconds())
        .putString(run)
        .putString(p.tag())
        .putInt(p.index())
        .putInt(p.width())
        .putInt(p.height())
        .putInt(p.colorspace())
        .putBytes(p.encoded())
        .toByteArray();
  }

  /** Decodes a record body; null if it is malformed. */
  static Decoded decode(ByteBuffer b) {
    try {
      long step = b.getLong();
      double wallTime = b.getDouble();
      String run = RecordBodies.string(b);
      String tag = RecordBodies.string(b);
      int index = b.getInt();
      int width = b.getInt();
      int height = b.getInt();
      int colorspace = b.getInt();
      byte[] encoded = RecordBodies.bytes(b);
      if (b.hasRemaining()) {
        return null;
      }
      StoredImage image =
          new StoredImage(
              run,
              tag,
              step,
              wallTime,
              index,
              width,
              height,
              colorspace,
              ImageContentTypes.sniff(encoded),
              encoded.length);
      return new Decoded(image, encoded);
    } catch (BufferUnderflowException | IllegalArgumentException | CharacterCodingException e) {
      return null;
    }
  }
}
