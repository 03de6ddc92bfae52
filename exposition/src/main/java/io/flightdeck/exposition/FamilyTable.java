package io.flightdeck.exposition;

import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The families of one body and the suffix rules that map a sample name to its family: {@code
 * foo_bucket} belongs to histogram {@code foo}, {@code foo_total} to OpenMetrics counter {@code
 * foo}. A sample belongs to the family of the preceding metadata when its name fits that family's
 * type; otherwise to any earlier family it fits; otherwise to a family of its own name.
 */
final class FamilyTable {
  /** The name a sample resolved to: its family and the suffix ("" for the bare name). */
  record Resolution(Family family, String suffix) {}

  private static final List<String> ALL_SUFFIXES =
      List.of("_total", "_created", "_bucket", "_count", "_sum", "_gcount", "_gsum", "_info");

  private final boolean openMetrics;
  private final Map<String, Family> families = new LinkedHashMap<>();
  private final Map<String, MetricMetadata> metadataView = new LinkedHashMap<>();
  private Family current;

  FamilyTable(boolean openMetrics) {
    this.openMetrics = openMetrics;
  }

  /** The family that metadata for {@code name} describes, created if new; it becomes current. */
  Family declare(String name) {
    Family family = families.computeIfAbsent(name, Family::new);
    current = family;
    return family;
  }

  Iterable<Family> all() {
    return families.values();
  }

  /** Records the family's metadata for {@link ExpositionParser#metadata()}. */
  void publish(Family family) {
    metadataView.put(family.name, family.metadata());
  }

  Map<String, MetricMetadata> metadataView() {
    return Collections.unmodifiableMap(metadataView);
  }

  Resolution resolve(String sampleName) {
    if (current != null) {
      Resolution fit = fit(current, sampleName);
      if (fit != null) {
        return fit;
      }
    }
    Family exact = families.get(sampleName);
    if (exact != null) {
      return new Resolution(exact, "");
    }
    for (String suffix : ALL_SUFFIXES) {
      if (sampleName.endsWith(suffix)) {
        Family base = families.get(sampleName.substring(0, sampleName.length() - suffix.length()));
        if (base != null && suffixes(base.type).contains(suffix)) {
          return new Resolution(base, suffix);
        }
      }
    }
    Family own = new Family(sampleName);
    families.put(sampleName, own);
    return new Resolution(own, "");
  }

  private Resolution fit(Family family, String sampleName) {
    if (!sampleName.startsWith(family.name)) {
      return null;
    }
    String suffix = sampleName.substring(family.name.length());
    if (suffix.isEmpty() ? allowsBareName(family.type) : suffixes(family.type).contains(suffix)) {
      return new Resolution(family, suffix);
    }
    return null;
  }

  /** Whether a sample may carry the family name unchanged. */
  boolean allowsBareName(MetricType type) {
    if (!openMetrics) {
      return true;
    }
    return switch (type) {
      case COUNTER, HISTOGRAM, GAUGEHISTOGRAM, INFO -> false;
      default -> true;
    };
  }

  /** The suffixes a family of this type adds to its name. */
  List<String> suffixes(MetricType type) {
    if (!openMetrics) {
      return switch (type) {
        case HISTOGRAM -> List.of("_bucket", "_count", "_sum");
        case SUMMARY -> List.of("_count", "_sum");
        default -> List.of();
      };
    }
    return switch (type) {
      case COUNTER -> List.of("_total", "_created");
      case HISTOGRAM -> List.of("_bucket", "_count", "_sum", "_created");
      case GAUGEHISTOGRAM -> List.of("_bucket", "_gcount", "_gsum");
      case SUMMARY -> List.of("_count", "_sum", "_created");
      case INFO -> List.of("_info");
      default -> List.of();
    };
  }
}
