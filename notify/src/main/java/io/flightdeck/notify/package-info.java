/**
 * Alert delivery. {@link io.flightdeck.notify.AlertmanagerNotifier} queues alerts and posts them to
 * Alertmanager's API v2; {@link io.flightdeck.notify.Notifier} routes, groups, inhibits and
 * delivers them itself to webhook and chat receivers configured in Alertmanager's routing format
 * ({@link io.flightdeck.notify.NotificationsConfig}). Both take {@link
 * io.flightdeck.notify.NotifyAlert}s, which {@code app} builds from the rule engine's alerts.
 */
package io.flightdeck.notify;
