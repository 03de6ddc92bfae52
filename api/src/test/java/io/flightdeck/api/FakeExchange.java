package io.flightdeck.api;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An exchange built from parameter pairs that records the response. */
final class FakeExchange implements ApiExchange {
  private final Map<String, List<String>> params = new HashMap<>();
  private final Map<String, String> pathParams = new HashMap<>();
  private String method = "GET";
  private byte[] requestBody = new byte[0];
  int status;

  /** What {@link #clientGone()} answers: set it to play a client that closed its connection. */
  volatile boolean clientGone;

  String contentType;
  String body;

  /** {@code params} are name, value pairs; a name may repeat. */
  FakeExchange(String... params) {
    for (int i = 0; i < params.length; i += 2) {
      this.params.computeIfAbsent(params[i], k -> new java.util.ArrayList<>()).add(params[i + 1]);
    }
  }

  FakeExchange pathParam(String name, String value) {
    pathParams.put(name, value);
    return this;
  }

  /** Makes this a POST carrying {@code json} as its body. */
  FakeExchange post(String json) {
    method = "POST";
    requestBody = json.getBytes(StandardCharsets.UTF_8);
    return this;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public byte[] body() {
    return requestBody;
  }

  @Override
  public String pathParam(String name) {
    return pathParams.get(name);
  }

  @Override
  public List<String> params(String name) {
    return params.getOrDefault(name, List.of());
  }

  @Override
  public boolean clientGone() {
    return clientGone;
  }

  @Override
  public void respond(int status, String contentType, byte[] body) {
    this.status = status;
    this.contentType = contentType;
    this.body = new String(body, StandardCharsets.UTF_8);
  }
}
