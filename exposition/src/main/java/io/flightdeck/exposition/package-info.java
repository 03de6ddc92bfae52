/**
 * Exposition formats: pull parsers for Prometheus text 0.0.4 and OpenMetrics 1.0 ({@link
 * io.flightdeck.exposition.ExpositionParser}, chosen by {@link
 * io.flightdeck.exposition.ExpositionFormat#forContentType(String)}), and the text 0.0.4 writer
 * ({@link io.flightdeck.exposition.TextFormatWriter}). Every malformed input ends in an {@link
 * io.flightdeck.exposition.ExpositionParseException}; limits in {@link
 * io.flightdeck.exposition.ParseOptions} bound the memory one body can take.
 */
package io.flightdeck.exposition;
