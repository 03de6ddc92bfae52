package io.flightdeck.app;

import io.flightdeck.api.ApiExchange;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Adapts a Javalin request to the API's exchange: form body values first, then the URL query. */
final class JavalinExchange implements ApiExchange {
  private static final String FORM = "application/x-www-form-urlencoded";

  private final Context ctx;
  private final ClosedConnections connections;
  private final int localPort;
  private final InetAddress remoteAddress;
  private final int remotePort;
  private Map<String, List<String>> form;

  JavalinExchange(Context ctx, ClosedConnections connections) {
    this.ctx = ctx;
    this.connections = connections;
    // Read here: the engine asks from its worker threads too, and the request is not theirs.
    this.localPort = ctx.req().getLocalPort();
    this.remoteAddress = literal(ctx.req().getRemoteAddr());
    this.remotePort = ctx.req().getRemotePort();
  }

  @Override
  public String method() {
    return ctx.method().name();
  }

  @Override
  public String pathParam(String name) {
    return ctx.pathParam(name);
  }

  @Override
  public List<String> params(String name) {
    List<String> values = new ArrayList<>();
    String contentType = ctx.contentType();
    // Only a form body is read as parameters; any other body is not the API's business.
    if (contentType != null && contentType.startsWith(FORM)) {
      if (form == null) {
        form = FormBody.parse(ctx.bodyAsBytes());
      }
      values.addAll(form.getOrDefault(name, List.of()));
    }
    values.addAll(ctx.queryParams(name));
    return values;
  }

  @Override
  public byte[] body() {
    return ctx.bodyAsBytes();
  }

  @Override
  public boolean clientGone() {
    return remoteAddress != null && connections.isClosed(localPort, remoteAddress, remotePort);
  }

  /** The client's address from its text, which is a literal: no name is looked up. */
  private static InetAddress literal(String address) {
    try {
      return InetAddress.getByName(address.replace("[", "").replace("]", ""));
    } catch (UnknownHostException e) {
      return null;
    }
  }

  @Override
  public void respond(int status, String contentType, byte[] body) {
    ctx.status(status);
    if (contentType != null) {
      ctx.contentType(contentType);
    }
    if (body.length == 0) {
      return;
    }
    if (ctx.header("Accept-Encoding") != null) {
      ctx.result(body); // Javalin compresses it in an encoding the client accepts
      return;
    }
    // Nothing to compress: one write with the length known, where Javalin's copy loop would send
    // a large query result as chunks of its buffer.
    ctx.res().setContentLength(body.length);
    try {
      ctx.res().getOutputStream().write(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the client went away; Jetty ends the exchange
    }
  }
}
