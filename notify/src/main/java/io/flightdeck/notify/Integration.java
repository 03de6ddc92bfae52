package io.flightdeck.notify;

/** Delivers notifications to one target. Implementations are thread-safe and hold no state. */
interface Integration {
  void notify(Notification notification) throws DeliveryException;
}
