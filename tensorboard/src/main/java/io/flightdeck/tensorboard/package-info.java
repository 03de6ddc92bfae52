/**
 * Reads TensorBoard event files as training jobs write them, with no change to training code.
 *
 * <p>{@link io.flightdeck.tensorboard.RunDiscovery} finds the runs of a logdir; a {@link
 * io.flightdeck.tensorboard.RunReader} (or an {@link io.flightdeck.tensorboard.EventFileReader} for
 * a lone file) polls their files incrementally and hands typed {@link
 * io.flightdeck.tensorboard.SummaryPoint}s and {@link io.flightdeck.tensorboard.Corruption}s to an
 * {@link io.flightdeck.tensorboard.EventListener}. The format (TFRecord framing, the Event and
 * Summary protobufs, what each writer puts where) is described in {@code
 * shared/docs/tfevents-format.md}.
 *
 * <p>{@link io.flightdeck.tensorboard.TensorBoardIngester} stores points through the storage seam
 * ({@code docs/naming.md}) and texts, images and hparams in the {@link
 * io.flightdeck.tensorboard.SideStores} of the logdir ({@code docs/text-store.md}, {@code
 * docs/images.md}); {@link io.flightdeck.tensorboard.TensorBoardImport} reads a logdir once ({@code
 * docs/import.md}), {@link io.flightdeck.tensorboard.LogdirWatcher} tails it ({@code
 * docs/tailing.md}).
 *
 * <p>The protobufs are decoded by hand with protobuf-java's {@code CodedInputStream} rather than
 * with generated classes: only a few dozen fields of a dozen messages are read, the decoder must
 * turn any damage into a {@code Corruption} rather than half-built objects, and it can leave large
 * payloads (graphs, images of unknown plugins) unparsed. Field numbers are those of TensorBoard's
 * {@code tensorboard/compat/proto} and {@code plugins/hparams} protos.
 */
package io.flightdeck.tensorboard;
