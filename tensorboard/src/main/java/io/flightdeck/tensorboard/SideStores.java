package io.flightdeck.tensorboard;

/**
 * Where a logdir's points that are not time series go. A null store means its points are only
 * counted. The stores belong to whoever opened them, who syncs nothing and closes them last.
 *
 * @param texts text samples
 * @param images images
 * @param hparams hparams run metadata
 */
public record SideStores(TextStore texts, ImageStore images, HParamsStore hparams) {
  /** No stores: every such point is only counted. */
  public static final SideStores NONE = new SideStores(null, null, null);

  /** Makes every append so far durable in each store there is. */
  void sync() {
    if (texts != null) {
      texts.sync();
    }
    if (images != null) {
      images.sync();
    }
    if (hparams != null) {
      hparams.sync();
    }
  }
}
