package io.flightdeck.remote;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits the {@code timeseries} entries of an encoded {@code WriteRequest} among shards by a hash
 * of their labels, so that every sample of a series goes to the same shard and stays in order.
 * Entries are copied as they are, never re-encoded. Stateless and thread-safe.
 */
final class ShardSplitter {
  private static final int TIMESERIES_LABELS = 1;
  private static final int TIMESERIES_SAMPLES = 2;

  /** One shard's share: entries back to back, and the samples they hold. */
  record Part(byte[] payload, int samples) {}

  private ShardSplitter() {}

  /** The non-empty parts of {@code payload} for {@code shards} shards. */
  static List<Part> split(byte[] payload, int shards) throws IOException {
    ByteArrayOutputStream[] outs = new ByteArrayOutputStream[shards];
    int[] samples = new int[shards];
    CodedInputStream in = CodedInputStream.newInstance(payload);
    while (!in.isAtEnd()) {
      int start = in.getTotalBytesRead();
      in.readTag();
      int length = in.readRawVarint32();
      int limit = in.pushLimit(length);
      int hash = 1;
      int count = 0;
      while (!in.isAtEnd()) {
        int tag = in.readTag();
        int field = tag >>> 3;
        if (field == TIMESERIES_LABELS) {
          ByteString label = in.readBytes();
          hash = 31 * hash + label.hashCode();
        } else {
          count += field == TIMESERIES_SAMPLES ? 1 : 0;
          in.skipField(tag);
        }
      }
      in.popLimit(limit);
      int shard = Math.floorMod(hash, shards);
      if (outs[shard] == null) {
        outs[shard] = new ByteArrayOutputStream(payload.length / shards + 64);
      }
      outs[shard].write(payload, start, in.getTotalBytesRead() - start);
      samples[shard] += count;
    }
    List<Part> parts = new ArrayList<>();
    for (int shard = 0; shard < shards; shard++) {
      if (outs[shard] != null) {
        parts.add(new Part(outs[shard].toByteArray(), samples[shard]));
      }
    }
    return parts;
  }
}
