package io.flightdeck.app;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The request line and the headers of an HTTP/1.x request that {@link AgentHttpServer} acts on:
 * method, path (without the query), body length and whether the connection stays open. A head that
 * cannot be served (malformed, too long, a chunked body) is read as not {@link #valid()}.
 *
 * @param path the request target up to {@code ?}
 * @param contentLength the bytes of body that follow the head, to be skipped
 * @param keepAlive HTTP/1.1 unless {@code Connection: close}; HTTP/1.0 only with {@code Connection:
 *     keep-alive}
 */
record HttpRequestHead(
    boolean valid, String method, String path, long contentLength, boolean keepAlive) {

  private static final HttpRequestHead INVALID = new HttpRequestHead(false, "", "", 0, false);

  /**
   * Reads one head from {@code in}; null when the stream ends before its first byte (the peer
   * closed a kept-alive connection).
   */
  static HttpRequestHead read(InputStream in, int maxBytes) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(128);
    int total = 0;
    String requestLine = null;
    String method = "";
    String path = "";
    boolean http11 = false;
    long contentLength = 0;
    String connection = "";
    boolean valid = true;
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (total == 0) {
          return null;
        }
        throw new IOException("connection closed within a request head");
      }
      if (++total > maxBytes) {
        return INVALID;
      }
      if (b != '\n') {
        line.write(b);
        continue;
      }
      String text = line.toString(StandardCharsets.ISO_8859_1);
      line.reset();
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
      }
      if (requestLine == null) {
        if (text.isEmpty()) {
          continue; // a stray line ending between requests, which RFC 9112 lets servers skip
        }
        requestLine = text;
        String[] parts = text.split(" ", -1);
        if (parts.length != 3 || !parts[1].startsWith("/") || !parts[2].startsWith("HTTP/1.")) {
          valid = false;
        } else {
          method = parts[0];
          int query = parts[1].indexOf('?');
          path = query < 0 ? parts[1] : parts[1].substring(0, query);
          http11 = !parts[2].equals("HTTP/1.0");
        }
        continue;
      }
      if (text.isEmpty()) {
        break;
      }
      int colon = text.indexOf(':');
      if (colon <= 0) {
        valid = false;
        continue;
      }
      String name = text.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = text.substring(colon + 1).strip();
      switch (name) {
        case "content-length" -> {
          try {
            contentLength = Long.parseLong(value);
            valid &= contentLength >= 0;
          } catch (NumberFormatException e) {
            valid = false;
          }
        }
        case "transfer-encoding" -> valid = false;
        case "connection" -> connection = value.toLowerCase(Locale.ROOT);
        default -> {}
      }
    }
    if (!valid) {
      return INVALID;
    }
    boolean keepAlive = http11 ? !connection.contains("close") : connection.contains("keep-alive");
    return new HttpRequestHead(true, method, path, contentLength, keepAlive);
  }
}
