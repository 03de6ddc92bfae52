package io.flightdeck.scrape;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into an array, failing with {@link BodyTooLargeException} and cancelling
 * the transfer as soon as it would exceed the limit, so an oversized body is never held whole. With
 * a Content-Length the array is sized once and handed over without a copy.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
  /** Raised through the body's future when the limit is exceeded. */
  static final class BodyTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException() {
      super("body size limit exceeded");
    }
  }

  /**
   * Largest array sized up front from a Content-Length; beyond it the array grows as bytes come.
   */
  private static final int MAX_PRESIZE = 4 << 20;

  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final long limit;
  private byte[] bytes;
  private int size;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private Flow.Subscription subscription;

  /**
   * @param limit most bytes accepted; 0 or less for none
   * @param expectedLength the Content-Length, or -1 when unknown
   */
  BoundedBody(long limit, long expectedLength) {
    this.limit = limit <= 0 ? Long.MAX_VALUE : limit;
    long presize = Math.min(Math.min(expectedLength, this.limit), MAX_PRESIZE);
    this.bytes = new byte[presize > 0 ? (int) presize : 8192];
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer buffer : buffers) {
      int n = buffer.remaining();
      if (size + (long) n > limit) {
        subscription.cancel();
        result.completeExceptionally(new BodyTooLargeException());
        return;
      }
      if (size + n > bytes.length) {
        bytes =
            Arrays.copyOf(bytes, (int) Math.min(Math.max(size + n, 2L * bytes.length), MAX_ARRAY));
      }
      buffer.get(bytes, size, n);
      size += n;
    }
  }

  @Override
  public void onError(Throwable error) {
    result.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    result.complete(size == bytes.length ? bytes : Arrays.copyOf(bytes, size));
  }
}
