package io.flightdeck.tensorboard;

/** Unwinds a reader out of a poll when the importing thread gave up; carries no stack trace. */
final class ImportCancelled extends RuntimeException {
  ImportCancelled() {
    super(null, null, false, false);
  }
}
