package io.flightdeck.tensorboard;

/**
 * One encoded image (PNG, GIF...), kept as bytes. A legacy {@code Summary.Image} gives one point
 * with index 0; an {@code images} plugin tensor ({@code [width, height, image...]}) gives one point
 * per image with its index. {@code colorspace} is 0 when the writer did not say.
 *
 * @param encoded the image file bytes; the array belongs to this point and must not be changed
 */
public record ImagePoint(
    String tag,
    long step,
    double wallTimeSeconds,
    int index,
    int width,
    int height,
    int colorspace,
    byte[] encoded)
    implements SummaryPoint {}
