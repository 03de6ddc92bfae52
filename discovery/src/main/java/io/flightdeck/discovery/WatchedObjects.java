package io.flightdeck.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects at one API path (one kind in one namespace or the whole cluster), listed and then
 * watched from the list's resource version, so that a change is known within milliseconds. When the
 * watch ends (API servers close watches after some minutes; "410 Gone" when the version has
 * expired) the owner is told to list afresh, which starts a new watch: at once, if it was not told
 * so in the last second, else on its next poll, which lists afresh anyway as the fallback.
 * Thread-safe: events arrive on the HTTP client's threads.
 */
final class WatchedObjects implements KubernetesApi.WatchListener {
  private static final Logger log = LoggerFactory.getLogger(WatchedObjects.class);
  private static final Duration QUICK_RELIST = Duration.ofSeconds(1);

  private final KubernetesApi api;
  private final String path;
  private final Map<String, String> query;
  private final Runnable changed;
  private final Map<String, JsonNode> objects = new LinkedHashMap<>();
  private String resourceVersion = "";
  private WebSocket socket;
  private boolean watching;
  private long lastQuickRelist = System.nanoTime() - QUICK_RELIST.toNanos();
  private boolean relistDue = true;
  private boolean closed;
  private int listedForWatch;
  private int eventsSinceWatch;

  /**
   * @param query the selectors
   * @param changed told of every change and of a watch that ended and wants a fresh list
   */
  WatchedObjects(KubernetesApi api, String path, Map<String, String> query, Runnable changed) {
    this.api = api;
    this.path = path;
    this.query = query;
    this.changed = changed;
  }

  /** Whether to list afresh now: never listed, or the watch ended and a quick relist is granted. */
  synchronized boolean relistDue() {
    return relistDue;
  }

  /** Lists the objects afresh, replacing what is known, and starts watching if not yet. */
  void relist() throws IOException, InterruptedException, DiscoveryException {
    JsonNode list = api.list(path, query);
    boolean watch;
    String from;
    synchronized (this) {
      objects.clear();
      for (JsonNode object : list.path("items")) {
        objects.put(key(object), object);
      }
      resourceVersion = list.path("metadata").path("resourceVersion").asText();
      from = resourceVersion;
      relistDue = false;
      watch = !watching && !closed;
      watching |= watch;
      if (watch) {
        listedForWatch = objects.size();
        eventsSinceWatch = 0;
      }
    }
    if (!watch) {
      return;
    }
    try {
      api.watch(path, query, from, this)
          .thenAccept(
              open -> {
                synchronized (this) {
                  if (closed || !watching) {
                    open.abort();
                  } else {
                    socket = open;
                  }
                }
              });
    } catch (IOException | RuntimeException e) {
      // The list stands; the next poll tries to watch again.
      synchronized (this) {
        watching = false;
      }
      log.warn("watch {} not started: {}", path, e.toString());
    }
  }

  /**
   * Whether the watch's connection is open (its upgrade answered) and has had at least one event
   * per object of the list it started from. An API server sends nothing for objects unchanged since
   * the list's version; fabric8's mock server sends each again, which a test must let arrive before
   * it closes the watch (see the tests' {@code KubernetesFixtures}).
   */
  synchronized boolean watchSettled() {
    return socket != null && eventsSinceWatch >= listedForWatch;
  }

  /** What is known now. */
  synchronized List<JsonNode> objects() {
    return new ArrayList<>(objects.values());
  }

  @Override
  public void event(String type, JsonNode object) {
    synchronized (this) {
      if (closed) {
        return;
      }
      eventsSinceWatch++;
      switch (type) {
        case "ADDED", "MODIFIED" -> objects.put(key(object), object);
        case "DELETED" -> objects.remove(key(object));
        case "BOOKMARK" -> {}
        default -> {
          // ERROR: a Status, 410 Gone when resourceVersion is too old to watch from.
          log.debug("watch {}: {} {}", path, type, object.path("message").asText());
          if (socket != null) {
            socket.abort();
          }
          ended(type + " " + object.path("code").asText());
          return;
        }
      }
      String version = object.path("metadata").path("resourceVersion").asText();
      if (!version.isEmpty()) {
        resourceVersion = version;
      }
    }
    if (!type.equals("BOOKMARK")) {
      changed.run();
    }
  }

  @Override
  public void ended(String reason) {
    boolean quick;
    synchronized (this) {
      if (closed || !watching) {
        return;
      }
      watching = false;
      socket = null;
      long now = System.nanoTime();
      quick = now - lastQuickRelist >= QUICK_RELIST.toNanos();
      if (quick) {
        lastQuickRelist = now;
        relistDue = true;
      }
    }
    log.debug("watch {} ended: {}", path, reason);
    if (quick) {
      changed.run();
    }
  }

  /** Stops watching for good. */
  void close() {
    WebSocket open;
    synchronized (this) {
      closed = true;
      open = socket;
      socket = null;
    }
    if (open != null) {
      open.abort();
    }
  }

  private static String key(JsonNode object) {
    JsonNode meta = object.path("metadata");
    return meta.path("namespace").asText() + "/" + meta.path("name").asText();
  }
}
