package io.flightdeck.tensorboard;

/**
 * How far an import has come, reported after each event file.
 *
 * @param records records decoded so far, all files together
 * @param bytes bytes of event files read so far
 */
public record ImportProgress(
    int runsDone, int runsTotal, int filesDone, int filesTotal, long records, long bytes) {}
