package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.StorageUnavailableException;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.xerial.snappy.Snappy;

/**
 * The remote-write 1.0 receiver behind {@code POST /api/v1/write}, independent of any HTTP library:
 * the app hands it the request's headers and body and sends back its {@link Response}.
 *
 * <p>Status codes follow Prometheus's receiver: 204 when everything was stored; 415 for a wrong
 * content type or encoding; 400 for a body that does not decode, and for samples refused on their
 * own merits (out of order, duplicate, too old, limits), whose batch-mates are still stored; 413
 * past the size limit; 503 when storage cannot take writes now (retry later). Series with invalid
 * labels are skipped and counted, as Prometheus does. Thread-safe.
 */
public final class RemoteWriteReceiver {
  /**
   * What to answer. {@code samplesWritten} goes into the X-Prometheus-Remote-Write-Samples-Written
   * header.
   */
  public record Response(int status, String body, long samplesWritten) {}

  /** Rejection messages kept per request; the rest are only counted. */
  private static final int MAX_REPORTED_ERRORS = 5;

  private final Appendable storage;
  private final int maxBodyBytes;
  private final LongAdder invalidSeries = new LongAdder();
  private final LongAdder unsupportedHistograms = new LongAdder();
  private final LongAdder requests = new LongAdder();
  private final LabelsCache labelsCache = new LabelsCache(200_000);

  /**
   * @param maxBodyBytes largest accepted body, compressed and decompressed
   */
  public RemoteWriteReceiver(Appendable storage, int maxBodyBytes) {
    this.storage = storage;
    this.maxBodyBytes = maxBodyBytes;
  }

  public long invalidSeries() {
    return invalidSeries.sum();
  }

  public long unsupportedHistograms() {
    return unsupportedHistograms.sum();
  }

  public long requests() {
    return requests.sum();
  }

  public Response handle(String contentType, String contentEncoding, byte[] body) {
    requests.increment();
    String typeProblem = checkContentType(contentType);
    if (typeProblem != null) {
      return new Response(415, typeProblem, 0);
    }
    if (contentEncoding != null
        && !contentEncoding.isBlank()
        && !contentEncoding.trim().equalsIgnoreCase("snappy")) {
      return new Response(
          415,
          "unsupported Content-Encoding \"" + contentEncoding + "\": only snappy is accepted",
          0);
    }
    if (body.length > maxBodyBytes) {
      return new Response(
          413, "request body of " + body.length + " bytes exceeds the limit of " + maxBodyBytes, 0);
    }
    byte[] decoded;
    int decodedLength;
    try {
      if (!Snappy.isValidCompressedBuffer(body)) {
        return new Response(
            400, "snappy decode error: the body is not snappy block-compressed data", 0);
      }
      decodedLength = Snappy.uncompressedLength(body);
      if (decodedLength > maxBodyBytes) {
        return new Response(
            413,
            "decompressed body of " + decodedLength + " bytes exceeds the limit of " + maxBodyBytes,
            0);
      }
      decoded = new byte[decodedLength];
      Snappy.uncompress(body, 0, body.length, decoded, 0);
    } catch (IOException e) {
      return new Response(400, "snappy decode error: " + e.getMessage(), 0);
    }
    BatchWriter writer = new BatchWriter(storage.appender());
    try {
      new WriteRequestDecoder().decode(decoded, decodedLength, writer);
    } catch (IOException e) {
      writer.appender.rollback();
      return new Response(400, "protobuf decode error: " + e.getMessage(), 0);
    } catch (StorageUnavailableException e) {
      writer.appender.rollback();
      return new Response(503, e.getMessage(), 0);
    } catch (RuntimeException e) {
      writer.appender.rollback();
      throw e;
    }
    try {
      writer.appender.commit();
    } catch (StorageUnavailableException e) {
      return new Response(503, e.getMessage(), 0);
    }
    if (writer.rejected > 0) {
      StringBuilder message =
          new StringBuilder()
              .append(writer.rejected)
              .append(" of ")
              .append(writer.rejected + writer.written)
              .append(" samples were rejected, the others were stored: ");
      message.append(String.join("; ", writer.errors));
      return new Response(400, message.toString(), writer.written);
    }
    return new Response(204, "", writer.written);
  }

  private static String checkContentType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return null; // Prometheus treats a missing type as remote write 1.0
    }
    String[] parts = contentType.split(";");
    if (!parts[0].trim().equalsIgnoreCase("application/x-protobuf")) {
      return "unsupported Content-Type \"" + contentType + "\": expected application/x-protobuf";
    }
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].trim();
      if (parameter.toLowerCase(Locale.ROOT).startsWith("proto=")) {
        String proto = parameter.substring(6).trim();
        if (!proto.equals("prometheus.WriteRequest")) {
          return "unsupported remote write message \""
              + proto
              + "\": only prometheus.WriteRequest (remote write 1.0) is accepted";
        }
      }
    }
    return null;
  }

  /** Appends decoded series to one appender, collecting per-sample rejections. */
  private final class BatchWriter implements WriteRequestDecoder.WriteHandler {
    final Appender appender;
    final List<String> errors = new java.util.ArrayList<>();
    long written;
    long rejected;
    private final Set<String> seenNames = new HashSet<>();
    private final LabelsCache.Key probe = new LabelsCache.Key();
    private Labels current;
    private long ref;
    private byte[] labelBytes;
    private int labelsFrom;
    private int labelsTo;

    BatchWriter(Appender appender) {
      this.appender = appender;
    }

    @Override
    public boolean knownSeries(byte[] body, int from, int to) {
      ref = 0;
      current = labelsCache.get(probe, body, from, to);
      labelBytes = body;
      labelsFrom = from;
      labelsTo = to;
      return current != null;
    }

    @Override
    public void invalidSeries() {
      current = null;
      labelBytes = null;
      invalidSeries.increment();
    }

    @Override
    public void series(List<String> pairs) {
      current = null;
      ref = 0;
      seenNames.clear();
      boolean hasName = false;
      for (int i = 0; i < pairs.size(); i += 2) {
        String name = pairs.get(i);
        if (name.isEmpty() || !seenNames.add(name)) {
          invalidSeries.increment();
          return;
        }
        if (name.equals(Labels.METRIC_NAME) && !pairs.get(i + 1).isEmpty()) {
          hasName = true;
        }
      }
      if (!hasName) {
        invalidSeries.increment();
        return;
      }
      current = Labels.of(pairs.toArray(String[]::new));
      if (labelBytes != null) {
        labelsCache.put(labelBytes, labelsFrom, labelsTo, current);
        labelBytes = null;
      }
    }

    @Override
    public void sample(long timestampMillis, double value) {
      if (current == null) {
        return;
      }
      try {
        ref = appender.append(ref, current, timestampMillis, value);
        written++;
      } catch (SampleRejectedException e) {
        rejected++;
        if (errors.size() < MAX_REPORTED_ERRORS) {
          errors.add(e.getMessage());
        }
      }
    }

    @Override
    public void histogram() {
      unsupportedHistograms.increment();
    }

    @Override
    public void metadata(String metricFamily, MetricType type, String help, String unit) {
      if (!metricFamily.isEmpty()) {
        appender.updateMetadata(metricFamily, new MetricMetadata(type, help, unit));
      }
    }
  }
}
