package io.flightdeck.scrape;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body into an array, failing with {@link BodyTooLargeException} and cancelling
 * the transfer as soon as it would exceed the limit, so an oversized body is never held whole.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
  /** Raised through the body's future when the limit is exceeded. */
  static final class BodyTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException() {
      super("body size limit exceeded");
    }
  }

  private final long limit;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private Flow.Subscription subscription;

  /**
   * @param limit most bytes accepted; 0 or less for none
   */
  BoundedBody(long limit) {
    this.limit = limit <= 0 ? Long.MAX_VALUE : limit;
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
      if (out.size() + (long) buffer.remaining() > limit) {
        subscription.cancel();
        result.completeExceptionally(new BodyTooLargeException());
        return;
      }
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      out.write(bytes, 0, bytes.length);
    }
  }

  @Override
  public void onError(Throwable error) {
    result.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    result.complete(out.toByteArray());
  }
}
