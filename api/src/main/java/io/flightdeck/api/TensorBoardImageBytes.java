package io.flightdeck.api;

/**
 * One stored image's bytes and the media type sniffed from them.
 *
 * @param bytes the encoded image; the array belongs to the receiver
 */
public record TensorBoardImageBytes(String contentType, byte[] bytes) {}
