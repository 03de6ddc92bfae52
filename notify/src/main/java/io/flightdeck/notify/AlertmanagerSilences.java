package io.flightdeck.notify;

import java.net.URI;
import java.util.Map;

/**
 * Silences live in Alertmanager: this lists, creates and expires them through its v2 API, on the
 * first Alertmanager that alerts go to, with that Alertmanager's own HTTP client and credentials.
 * One is enough: Alertmanagers of a cluster share silences by gossip. Bodies are passed through
 * unchanged, so the cockpit sees Alertmanager's own silence JSON and its own error messages.
 */
public final class AlertmanagerSilences {
  private static final String ALERTS_SUFFIX = "/alerts";

  private final URI api;
  private final HttpPoster poster;
  private final Map<String, String> headers;

  AlertmanagerSilences(AlertmanagerEndpoint endpoint, HttpPoster poster) {
    String alerts = endpoint.alertsUri().toString();
    // The alerts URL is <scheme>://<address><path_prefix>/api/v2/alerts.
    this.api = URI.create(alerts.substring(0, alerts.length() - ALERTS_SUFFIX.length()));
    this.poster = poster;
    this.headers = AuthHeaders.of(endpoint.config().httpClient());
  }

  /** The Alertmanager's API root, {@code .../api/v2}, for messages and the cockpit. */
  public String alertmanager() {
    return api.toString();
  }

  /** {@code GET /api/v2/silences}: Alertmanager's JSON array of silences, every state. */
  public String list() throws SilenceException {
    return call("GET", api + "/silences", null);
  }

  /**
   * {@code POST /api/v2/silences} with a postable silence ({@code matchers}, {@code startsAt},
   * {@code endsAt}, {@code createdBy}, {@code comment}); returns {@code {"silenceID": ...}}.
   */
  public String create(String silenceJson) throws SilenceException {
    return call("POST", api + "/silences", silenceJson);
  }

  /** {@code DELETE /api/v2/silence/{id}}: the silence ends now. */
  public void expire(String id) throws SilenceException {
    if (!isSilenceId(id)) {
      throw new SilenceException("silence id \"" + id + "\" is not a UUID", 400);
    }
    call("DELETE", api + "/silence/" + id, null);
  }

  /** Alertmanager's silence ids are UUIDs; anything else must not reach its URL path. */
  private static boolean isSilenceId(String id) {
    if (id.isEmpty() || id.length() > 64) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!(c == '-' || Character.isLetterOrDigit(c) && c < 128)) {
        return false;
      }
    }
    return true;
  }

  private String call(String method, String url, String body) throws SilenceException {
    try {
      return poster.send(method, URI.create(url), body, headers);
    } catch (DeliveryException e) {
      throw new SilenceException("Alertmanager: " + e.getMessage(), e.status());
    }
  }

  /**
   * Alertmanager refused or could not be reached; {@link #status()} is its HTTP status, 0 when it
   * did not answer.
   */
  public static final class SilenceException extends Exception {
    private final int status;

    SilenceException(String message, int status) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }
}
