package io.flightdeck.exposition;

import io.flightdeck.model.MetricType;

/** The samples of one (gauge) histogram label set, checked for order and completeness. */
final class HistogramGroup {
  private boolean hasBuckets;
  private double lastBound;
  private double lastCount;
  private boolean negativeBucket;
  private boolean hasInf;
  private double infCount;
  private boolean hasCount;
  private double count;
  private boolean hasSum;
  private double sum;

  void reset() {
    hasBuckets = false;
    negativeBucket = false;
    hasInf = false;
    hasCount = false;
    hasSum = false;
  }

  void add(String suffix, double bound, double value, LineCursor c)
      throws ExpositionParseException {
    switch (suffix) {
      case "_bucket" -> {
        if (hasBuckets && bound <= lastBound) {
          throw c.error("bucket le=\"" + TextFormatWriter.formatValue(bound) + "\" out of order");
        }
        if (hasBuckets && value < lastCount) {
          throw c.error(
              "bucket count decreases at le=\"" + TextFormatWriter.formatValue(bound) + "\"");
        }
        hasBuckets = true;
        lastBound = bound;
        lastCount = value;
        negativeBucket |= bound < 0;
        if (bound == Double.POSITIVE_INFINITY) {
          hasInf = true;
          infCount = value;
        }
      }
      case "_count", "_gcount" -> {
        hasCount = true;
        count = value;
      }
      case "_sum", "_gsum" -> {
        hasSum = true;
        sum = value;
      }
      default -> {}
    }
  }

  void finish(MetricType type, String series, LineCursor c) throws ExpositionParseException {
    if ((hasBuckets || hasCount || hasSum) && !hasInf) {
      throw c.error("histogram " + series + " has no +Inf bucket");
    }
    if (hasCount && count != infCount) {
      throw c.error("count of histogram " + series + " differs from its +Inf bucket");
    }
    if (type == MetricType.HISTOGRAM && hasSum) {
      if (!hasCount) {
        throw c.error("histogram " + series + " has a sum but no count");
      }
      if (negativeBucket) {
        throw c.error("histogram " + series + " has negative buckets and a sum");
      }
      if (sum < 0) {
        throw c.error("histogram " + series + " has a negative sum");
      }
    }
    if (type == MetricType.GAUGEHISTOGRAM) {
      if (hasCount != hasSum) {
        throw c.error("gauge histogram " + series + " needs both _gcount and _gsum or neither");
      }
      if (hasSum && sum < 0 && !negativeBucket) {
        throw c.error("gauge histogram " + series + " has a negative sum without negative buckets");
      }
    }
  }
}
