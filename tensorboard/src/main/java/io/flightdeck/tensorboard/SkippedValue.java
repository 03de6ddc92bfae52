package io.flightdeck.tensorboard;

/**
 * A value this reader does not turn into data: an unknown or unsupported plugin (audio, pr curves,
 * third-party plugins), or a known plugin's value in a shape it cannot use. Passed on so that the
 * caller can count what it is missing.
 *
 * @param plugin the plugin name from the tag's metadata, or a kind such as {@code audio}; empty if
 *     nothing names one
 */
public record SkippedValue(
    String tag, long step, double wallTimeSeconds, String plugin, String reason)
    implements SummaryPoint {}
