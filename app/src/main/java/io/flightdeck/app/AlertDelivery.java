package io.flightdeck.app;

import io.flightdeck.config.Config;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.notify.AlertmanagerNotifier;
import io.flightdeck.notify.AlertmanagerNotifierOptions;
import io.flightdeck.notify.AlertmanagerSilences;
import io.flightdeck.notify.AlertmanagerStats;
import io.flightdeck.notify.DeliveryHistory;
import io.flightdeck.notify.NotificationsConfig;
import io.flightdeck.notify.Notifier;
import io.flightdeck.notify.NotifierOptions;
import io.flightdeck.notify.NotifierStats;
import io.flightdeck.notify.NotifyAlert;
import io.flightdeck.rules.Alert;
import io.flightdeck.rules.AlertSink;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the server's alerts go: the Alertmanagers of the configuration's {@code alerting} section
 * and the receivers of its {@code notifications} section. A reload builds both anew (the
 * notification log on disk keeps what was already sent) and closes the old ones.
 */
final class AlertDelivery implements AlertSink, AutoCloseable {
  private final String externalUrl;
  private final Path dataDir;
  private volatile AlertmanagerNotifier alertmanagers;
  private volatile Notifier notifier;
  private final DeliveryHistory history = new DeliveryHistory(DeliveryHistory.DEFAULT_CAPACITY);

  AlertDelivery(String externalUrl, Path dataDir) {
    this.externalUrl = externalUrl;
    this.dataDir = dataDir;
  }

  /**
   * Takes the alerting and notification settings of {@code config}.
   *
   * @throws io.flightdeck.notify.NotificationsConfigException naming the field of a bad setting;
   *     the running delivery stays
   */
  synchronized void apply(Config config) {
    NotificationsConfig notifications = NotificationsConfig.parse(config.notifications());
    AlertmanagerNotifier nextAlertmanagers =
        new AlertmanagerNotifier(AlertmanagerNotifierOptions.defaults(config.alerting()));
    Notifier nextNotifier =
        new Notifier(
            NotifierOptions.defaults(notifications, externalUrl, dataDir.resolve("notify"))
                .withClock(Clock.system())
                .withHistory(history));
    close();
    nextAlertmanagers.start();
    nextNotifier.start();
    alertmanagers = nextAlertmanagers;
    notifier = nextNotifier;
  }

  @Override
  public void send(String expr, List<Alert> alerts) {
    String generator =
        externalUrl
            + "/graph?g0.expr="
            + URLEncoder.encode(expr, StandardCharsets.UTF_8)
            + "&g0.tab=1";
    List<NotifyAlert> out = new ArrayList<>(alerts.size());
    for (Alert a : alerts) {
      out.add(
          new NotifyAlert(
              a.labels(),
              Labels.fromMap(a.annotations()),
              a.activeAtMs(),
              a.isResolved() ? a.resolvedAtMs() : a.validUntilMs(),
              generator));
    }
    AlertmanagerNotifier am = alertmanagers;
    Notifier direct = notifier;
    if (am != null) {
      am.send(out);
    }
    if (direct != null) {
      direct.send(out);
    }
  }

  /** The recent deliveries of every notifier this server ran, newest first. */
  List<DeliveryHistory.Delivery> recentDeliveries() {
    return history.newestFirst();
  }

  /** Counters of the Alertmanager notifier in force; all zero before the first configuration. */
  AlertmanagerStats alertmanagerStats() {
    AlertmanagerNotifier am = alertmanagers;
    return am == null ? new AlertmanagerStats(Map.of(), Map.of(), 0, 0, 0) : am.stats();
  }

  /** The Alertmanagers alerts go to now, and those that relabelling dropped. */
  List<String> activeAlertmanagers() {
    AlertmanagerNotifier am = alertmanagers;
    return am == null ? List.of() : am.alertmanagers();
  }

  /** Silences on the first Alertmanager alerts go to; empty when there is none. */
  Optional<AlertmanagerSilences> silences() {
    AlertmanagerNotifier am = alertmanagers;
    return am == null ? Optional.empty() : am.silences();
  }

  List<String> droppedAlertmanagers() {
    AlertmanagerNotifier am = alertmanagers;
    return am == null ? List.of() : am.droppedAlertmanagers();
  }

  /** Counters of the direct receivers in force; empty before the first configuration. */
  NotifierStats notifierStats() {
    Notifier direct = notifier;
    return direct == null ? new NotifierStats(Map.of(), Map.of(), 0) : direct.stats();
  }

  /** Stops delivery; alerts still queued are dropped, as Prometheus does. */
  @Override
  public synchronized void close() {
    if (notifier != null) {
      notifier.close();
      notifier = null;
    }
    if (alertmanagers != null) {
      alertmanagers.close();
      alertmanagers = null;
    }
  }
}
