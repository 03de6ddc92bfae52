package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AgentHttpServerTest {
  /** Larger than the connection's response buffer: head and body go out in separate writes. */
  private static final String LARGE = "x".repeat(300_000) + "\n";

  private final AtomicInteger calls = new AtomicInteger();
  private AgentHttpServer server;

  @BeforeEach
  void start() throws IOException {
    server =
        new AgentHttpServer(
            "127.0.0.1",
            0,
            Map.of(
                "/metrics",
                () -> ("up " + calls.incrementAndGet() + "\n").getBytes(StandardCharsets.UTF_8),
                "/boom",
                () -> {
                  throw new IllegalStateException("broken");
                },
                "/large",
                () -> LARGE.getBytes(StandardCharsets.UTF_8)),
            "text/plain; version=0.0.4; charset=utf-8");
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void answersSeveralRequestsOnOneKeptAliveConnection() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      send(socket, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
      assertThat(readResponse(socket.getInputStream()))
          .startsWith("HTTP/1.1 200 OK\r\n")
          .contains("Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n")
          .contains("Content-Length: 5\r\n")
          .containsPattern(
              "\r\nDate: [A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT\r\n")
          .doesNotContain("Connection: close")
          .endsWith("\r\n\r\nup 1\n");
      send(socket, "GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(readResponse(socket.getInputStream())).endsWith("\r\n\r\nup 2\n");
    }
  }

  @Test
  void bodiesLargerThanTheResponseBufferArriveWhole() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      send(socket, "GET /large HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\n\r\n");
      InputStream in = socket.getInputStream();
      assertThat(readResponse(in))
          .startsWith("HTTP/1.1 200 OK\r\n")
          .contains("Content-Length: " + LARGE.length() + "\r\n")
          .endsWith("\r\n\r\n" + LARGE);
      assertThat(readResponse(in)).endsWith("\r\n\r\nup 1\n");
    }
  }

  @Test
  void headGetsTheHeadersOfGetWithoutTheBody() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      send(socket, "HEAD /metrics HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\n\r\n");
      InputStream in = socket.getInputStream();
      assertThat(readHeadResponse(in))
          .startsWith("HTTP/1.1 200 OK\r\n")
          .contains("Content-Length: 5\r\n");
      assertThat(readResponse(in)).endsWith("\r\n\r\nup 2\n");
    }
  }

  @Test
  void unknownPathsAndMethodsAndFailingBodiesGetTheirStatus() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      send(socket, "GET /metrics/x HTTP/1.1\r\n\r\n");
      assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 404 Not Found\r\n");
      send(socket, "POST /metrics HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc");
      assertThat(readResponse(socket.getInputStream()))
          .startsWith("HTTP/1.1 405 Method Not Allowed\r\n")
          .contains("Allow: GET, HEAD\r\n");
      send(socket, "GET /boom HTTP/1.1\r\n\r\n");
      assertThat(readResponse(socket.getInputStream()))
          .startsWith("HTTP/1.1 500 Internal Server Error\r\n");
      // The body of the POST was skipped: the connection is still in step.
      send(socket, "GET /metrics HTTP/1.1\r\n\r\n");
      assertThat(readResponse(socket.getInputStream())).endsWith("up 1\n");
    }
    assertThat(calls).hasValue(1);
  }

  @Test
  void closesWhenAskedToAndAfterAnHttp10Request() throws Exception {
    for (String request :
        new String[] {
          "GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n", "GET /metrics HTTP/1.0\r\n\r\n"
        }) {
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        send(socket, request);
        InputStream in = socket.getInputStream();
        assertThat(readResponse(in)).contains("Connection: close\r\n");
        assertThat(in.read()).as("end of stream after " + request).isEqualTo(-1);
      }
    }
  }

  @Test
  void refusesMalformedAndChunkedRequestsAndCloses() throws Exception {
    for (String request :
        new String[] {
          "GET metrics HTTP/1.1\r\n\r\n",
          "GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
          "GET /metrics HTTP/1.1\r\nno colon\r\n\r\n"
        }) {
      try (Socket socket = new Socket("127.0.0.1", server.port())) {
        send(socket, request);
        InputStream in = socket.getInputStream();
        assertThat(readResponse(in)).startsWith("HTTP/1.1 400 Bad Request\r\n");
        assertThat(in.read()).as("end of stream after " + request).isEqualTo(-1);
      }
    }
    assertThat(calls).hasValue(0);
  }

  @Test
  void closeEndsKeptAliveConnections() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      send(socket, "GET /metrics HTTP/1.1\r\n\r\n");
      InputStream in = socket.getInputStream();
      readResponse(in);

      server.close();

      assertThat(in.read()).isEqualTo(-1);
    }
  }

  private static void send(Socket socket, String request) throws IOException {
    socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
  }

  /** One response: the head, then as many body bytes as its Content-Length says. */
  private static String readResponse(InputStream in) throws IOException {
    String head = readHeadResponse(in);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
    int at = head.indexOf("Content-Length: ");
    int length =
        at < 0 ? 0 : Integer.parseInt(head.substring(at + 16, head.indexOf("\r\n", at)).strip());
    bytes.write(in.readNBytes(length));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** The head of a response to HEAD, which has a Content-Length but no body. */
  private static String readHeadResponse(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    while (!bytes.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("end of stream in a response head: " + bytes);
      }
      bytes.write(b);
    }
    return bytes.toString(StandardCharsets.US_ASCII);
  }
}
