package io.flightdeck.scrape;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import org.apache.hc.client5.http.HttpRequestRetryStrategy;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.TimeValue;

/**
 * Sends a scrape once more, at once, when its keep-alive connection turns out to have been closed
 * by the target while idle (no response, or a reset): the pool does not probe connections before
 * use, so this is how a stale one is found. Scrapes are GETs, safe to repeat. Nothing else is
 * retried: a refused connection, a timeout or any status fails the scrape, as in Prometheus.
 */
final class StaleConnectionRetry implements HttpRequestRetryStrategy {
  @Override
  public boolean retryRequest(
      HttpRequest request, IOException exception, int execCount, HttpContext context) {
    return execCount == 1 && closedByPeer(exception);
  }

  private static boolean closedByPeer(IOException exception) {
    if (exception instanceof NoHttpResponseException) {
      return true;
    }
    return exception instanceof SocketException
        && !(exception instanceof ConnectException)
        && !(exception instanceof NoRouteToHostException);
  }

  @Override
  public boolean retryRequest(HttpResponse response, int execCount, HttpContext context) {
    return false;
  }

  @Override
  public TimeValue getRetryInterval(HttpResponse response, int execCount, HttpContext context) {
    return TimeValue.ZERO_MILLISECONDS;
  }
}
