package io.flightdeck.tensorboard;

/**
 * How much of one event file a watcher has read: for the status page's import progress.
 *
 * @param run the run the file belongs to
 * @param file the event file's path
 * @param bytesRead the offset read up to (a torn record at the end waits for its rest)
 * @param bytesTotal the file's size when it was last looked at
 * @param reading whether the watcher is reading it now
 * @param error why it cannot be read, or null
 */
public record EventFileProgress(
    String run, String file, long bytesRead, long bytesTotal, boolean reading, String error) {}
