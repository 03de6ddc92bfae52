package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The human-readable text of a notification for chat receivers: per alert its name, severity,
 * status, summary, the identifying labels and a link back to Flightdeck. Firing alerts first.
 */
final class ChatMessage {
  static final int MAX_ALERTS = 10;
  static final int MAX_LABELS = 8;

  /** Shown on their own or implied by the title, so not repeated in the label list. */
  private static final Set<String> SHOWN = Set.of("alertname", "severity");

  private final Notification n;

  ChatMessage(Notification n) {
    this.n = n;
  }

  boolean firing() {
    return n.firingCount() > 0;
  }

  /** {@code [FIRING:2] GPUXIDCriticalError (job=dcgm)} or {@code [RESOLVED] ...}. */
  String title() {
    String names =
        n.commonLabels().has("alertname")
            ? n.commonLabels().get("alertname")
            : n.alerts().size() + " alerts";
    List<String> extra = new ArrayList<>();
    n.groupLabels()
        .forEach(
            (name, value) -> {
              if (!name.equals("alertname")) {
                extra.add(name + "=" + value);
              }
            });
    String status = firing() ? "[FIRING:" + n.firingCount() + "]" : "[RESOLVED]";
    return status + " " + names + (extra.isEmpty() ? "" : " (" + String.join(", ", extra) + ")");
  }

  /** Flightdeck's alerts page, or empty without an external URL. */
  String alertsLink() {
    return n.externalUrl().isEmpty() ? "" : n.externalUrl() + "/alerts";
  }

  /** Markdown as Feishu cards, DingTalk and WeCom render it. */
  String markdown() {
    return render("**", "**", (text, url) -> "[" + text + "](" + url + ")");
  }

  /** Slack's mrkdwn. */
  String slackText() {
    return render("*", "*", (text, url) -> "<" + url + "|" + text + ">");
  }

  private interface LinkFormat {
    String link(String text, String url);
  }

  private String render(String boldOpen, String boldClose, LinkFormat links) {
    List<NotifyAlert> ordered = new ArrayList<>();
    n.alerts().stream().filter(a -> !a.resolvedAt(n.nowMs())).forEach(ordered::add);
    n.alerts().stream().filter(a -> a.resolvedAt(n.nowMs())).forEach(ordered::add);
    StringBuilder out = new StringBuilder();
    for (NotifyAlert alert : ordered.subList(0, Math.min(MAX_ALERTS, ordered.size()))) {
      Labels l = alert.labels();
      out.append(boldOpen).append(l.get("alertname")).append(boldClose);
      String severity = l.get("severity");
      out.append(" (")
          .append(severity.isEmpty() ? "" : severity + ", ")
          .append(n.alertStatus(alert))
          .append(")\n");
      String summary = summary(alert.annotations());
      if (!summary.isEmpty()) {
        out.append(summary).append('\n');
      }
      String labels = labelsThatMatter(l);
      if (!labels.isEmpty()) {
        out.append(labels).append('\n');
      }
      String link = alert.generatorUrl().isEmpty() ? alertsLink() : alert.generatorUrl();
      if (!link.isEmpty()) {
        out.append(links.link("Open in Flightdeck", link)).append('\n');
      }
      out.append('\n');
    }
    if (ordered.size() > MAX_ALERTS) {
      out.append("... and ").append(ordered.size() - MAX_ALERTS).append(" more\n");
    }
    if (!alertsLink().isEmpty()) {
      out.append(links.link("All alerts", alertsLink())).append('\n');
    }
    return out.toString().strip();
  }

  private static String summary(Labels annotations) {
    for (String name : List.of("summary", "description", "message")) {
      if (annotations.has(name)) {
        return annotations.get(name);
      }
    }
    return "";
  }

  private static String labelsThatMatter(Labels labels) {
    List<String> parts = new ArrayList<>();
    labels.forEach(
        (name, value) -> {
          if (!SHOWN.contains(name) && !name.startsWith("__") && parts.size() < MAX_LABELS) {
            parts.add(name + "=" + value);
          }
        });
    return String.join(", ", parts);
  }
}
