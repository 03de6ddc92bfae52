package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.StorageUnavailableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
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
 * content type or encoding; 400 for a body that does not decode, for series with invalid labels (no
 * metric name, an empty or repeated label name, bad UTF-8) and for samples refused on their own
 * merits (out of order, duplicate, too old, limits), whose batch-mates are still stored, as
 * Prometheus 3 answers remote write 2.0; 413 past the size limit; 503 when storage cannot take
 * writes now (retry later). The 400's body names each problem (the first few, and how many there
 * were). Thread-safe.
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
    if (writer.rejected > 0 || writer.invalid > 0) {
      return new Response(400, writer.problems(), writer.written);
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

    /** Distinct problems, the first few only: a whole batch often fails for one cause. */
    final Set<String> errors = new LinkedHashSet<>();

    long written;
    long rejected;
    long invalid;
    long invalidSamples;
    private boolean skipping;
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
      skipping = false;
      current = labelsCache.get(probe, body, from, to);
      labelBytes = body;
      labelsFrom = from;
      labelsTo = to;
      return current != null;
    }

    @Override
    public void invalidSeries(List<String> pairs) {
      skip(SeriesLabelsCheck.problem(pairs, false));
    }

    @Override
    public void series(List<String> pairs) {
      current = null;
      ref = 0;
      String problem = SeriesLabelsCheck.problem(pairs, true);
      if (problem != null) {
        skip(problem);
        return;
      }
      current = Labels.of(pairs.toArray(String[]::new));
      if (labelBytes != null) {
        labelsCache.put(labelBytes, labelsFrom, labelsTo, current);
        labelBytes = null;
      }
    }

    private void skip(String problem) {
      current = null;
      labelBytes = null;
      skipping = true;
      invalid++;
      invalidSeries.increment();
      report(problem);
    }

    private void report(String problem) {
      if (errors.size() < MAX_REPORTED_ERRORS) {
        errors.add(problem);
      }
    }

    @Override
    public void sample(long timestampMillis, double value) {
      if (current == null) {
        invalidSamples += skipping ? 1 : 0;
        return;
      }
      try {
        ref = appender.append(ref, current, timestampMillis, value);
        written++;
      } catch (SampleRejectedException e) {
        rejected++;
        report(e.getMessage());
      }
    }

    /**
     * What the 400 says: {@code 1 of 4 samples were rejected; 2 series (3 samples) with invalid
     * labels were skipped, the others were stored: <problem>; <problem>; and 1 more}.
     */
    String problems() {
      List<String> counts = new ArrayList<>();
      if (rejected > 0) {
        counts.add(rejected + " of " + (rejected + written) + " samples were rejected");
      }
      if (invalid > 0) {
        counts.add(
            invalid + " series (" + invalidSamples + " samples) with invalid labels were skipped");
      }
      long unreported = rejected + invalid - errors.size();
      String more = unreported > 0 ? "; and " + unreported + " more" : "";
      return String.join("; ", counts)
          + ", the others were stored: "
          + String.join("; ", errors)
          + more;
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
