package io.flightdeck.tensorboard;

/**
 * What a one-shot import of a logdir did.
 *
 * @param scalarPoints scalar points stored (each as a value and a step sample)
 * @param histogramPoints histogram points stored
 * @param textPoints text points read, stored when the import has a {@link TextStore}
 * @param imagePoints images read, stored when the import has an {@link ImageStore}
 * @param hparamsPoints hparams points read, stored when the import has an {@link HParamsStore}
 * @param skipped points read but not stored: graphs, unsupported plugins
 * @param errors damaged records, unreadable files and samples the storage refused
 */
public record ImportSummary(
    long runs,
    long scalarPoints,
    long histogramPoints,
    long textPoints,
    long imagePoints,
    long hparamsPoints,
    long skipped,
    long errors) {}
