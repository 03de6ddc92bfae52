package io.flightdeck.api;

/**
 * A stored TensorBoard image, described without its bytes, as the API returns it.
 *
 * @param logdir the logdir as the user gave it (the {@code logdir} label of its scalars)
 * @param run the run relative to the logdir, {@code "."} for the logdir itself
 * @param wallTimeSeconds the event's wall time, seconds since the epoch
 * @param index the image's place in its event (0 for a legacy {@code Summary.Image})
 * @param contentType sniffed from the bytes: {@code image/png}, {@code image/gif}, {@code
 *     image/jpeg} or {@code application/octet-stream}
 * @param byteLength the encoded image's size
 */
public record TensorBoardImage(
    String logdir,
    String run,
    String tag,
    long step,
    double wallTimeSeconds,
    int index,
    int width,
    int height,
    String contentType,
    int byteLength) {}
