package io.flightdeck.api;

import java.util.Map;
import java.util.TreeMap;

/**
 * {@code status/buildinfo}, {@code status/runtimeinfo}, {@code status/flags}, {@code
 * status/config}.
 */
final class StatusHandlers {
  private final ServerStatus status;

  StatusHandlers(ServerStatus status) {
    this.status = status;
  }

  byte[] buildInfo() {
    ServerStatus.Build b = status.build();
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          out.writeStringField("version", b.version());
          out.writeStringField("revision", b.revision());
          out.writeStringField("branch", b.branch());
          out.writeStringField("buildUser", b.buildUser());
          out.writeStringField("buildDate", b.buildDate());
          out.writeStringField("goVersion", b.goVersion());
          out.writeEndObject();
        });
  }

  byte[] runtimeInfo() {
    ServerStatus.Runtime r = status.runtime();
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          out.writeStringField("startTime", ApiJson.goTime(r.startTime()));
          out.writeStringField("CWD", r.cwd());
          out.writeStringField("hostname", r.hostname());
          out.writeStringField("serverTime", ApiJson.goTime(r.serverTime()));
          out.writeBooleanField("reloadConfigSuccess", r.reloadConfigSuccess());
          out.writeStringField("lastConfigTime", ApiJson.goTime(r.lastConfigTime()));
          out.writeNumberField("corruptionCount", r.corruptionCount());
          out.writeNumberField("goroutineCount", r.goroutineCount());
          out.writeNumberField("GOMAXPROCS", r.gomaxprocs());
          out.writeNumberField("GOMEMLIMIT", r.gomemlimit());
          out.writeStringField("GOGC", r.gogc());
          out.writeStringField("GODEBUG", r.godebug());
          out.writeStringField("storageRetention", r.storageRetention());
          out.writeEndObject();
        });
  }

  /** Flags by name, sorted as Go marshals a map. */
  byte[] flags() {
    Map<String, String> flags = new TreeMap<>(status.flags());
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          for (Map.Entry<String, String> flag : flags.entrySet()) {
            out.writeStringField(flag.getKey(), flag.getValue());
          }
          out.writeEndObject();
        });
  }

  byte[] config() {
    String yaml = status.configYaml();
    return ApiJson.success(
        out -> {
          out.writeStartObject();
          out.writeStringField("yaml", yaml);
          out.writeEndObject();
        });
  }
}
