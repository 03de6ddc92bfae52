package io.flightdeck.tensorboard;

/**
 * What an {@link ImageStore} knows of a stored image without reading its bytes.
 *
 * @param run the run's name relative to the logdir ({@code "."} for the logdir itself)
 * @param index the image's place in its event (0 for a legacy {@code Summary.Image})
 * @param colorspace as the writer gave it, 0 when it did not say
 * @param contentType sniffed from the bytes, see {@link ImageContentTypes}
 * @param byteLength the encoded image's size
 */
public record StoredImage(
    String run,
    String tag,
    long step,
    double wallTimeSeconds,
    int index,
    int width,
    int height,
    int colorspace,
    String contentType,
    int byteLength) {}
