package io.flightdeck.api;

import io.flightdeck.storage.Queryable;
import java.util.List;
import java.util.function.Function;

/**
 * The algorithm track's endpoints under {@code /api/v1/tensorboard}: runs with their tags and step
 * ranges, a scalar series against step, a histogram series, text samples with search, images and
 * hparams run metadata. Scalars and histograms are read from storage under the names of {@code
 * tensorboard/docs/naming.md}; the rest from {@link TensorBoardTexts}, {@link TensorBoardImages}
 * and {@link TensorBoardHParams}. Answers use Prometheus's envelope and {@code errorType}s.
 * Thread-safe.
 */
public final class TensorBoardApi {
  static final String SCALAR = "tensorboard_scalar";
  static final String SCALAR_STEP = "tensorboard_scalar_step";
  static final String HISTOGRAM_BUCKET = "tensorboard_histogram_bucket";
  static final String HISTOGRAM_COUNT = "tensorboard_histogram_count";
  static final String HISTOGRAM_SUM = "tensorboard_histogram_sum";
  static final String HISTOGRAM_QUANTILE = "tensorboard_histogram_quantile";
  static final String HISTOGRAM_BIN_EDGE = "tensorboard_histogram_bin_edge";
  static final String HISTOGRAM_BIN_COUNT = "tensorboard_histogram_bin_count";
  static final String HISTOGRAM_STEP = "tensorboard_histogram_step";

  private static final String PREFIX = "/api/v1/tensorboard";

  private final TensorBoardRunsHandler runs;
  private final TensorBoardScalarsHandler scalars;
  private final TensorBoardHistogramsHandler histograms;
  private final TensorBoardTextHandlers texts;
  private final TensorBoardImageHandlers images;
  private final TensorBoardHParamsHandler hparams;

  public TensorBoardApi(
      Queryable storage,
      TensorBoardTexts texts,
      TensorBoardImages images,
      TensorBoardHParams hparams) {
    this.runs = new TensorBoardRunsHandler(storage, texts, images);
    this.scalars = new TensorBoardScalarsHandler(storage);
    this.histograms = new TensorBoardHistogramsHandler(storage);
    this.texts = new TensorBoardTextHandlers(texts);
    this.images = new TensorBoardImageHandlers(images);
    this.hparams = new TensorBoardHParamsHandler(hparams);
  }

  /** Every endpoint, with its full path; all are GET. */
  public List<ApiRoute> routes() {
    return List.of(
        get("/runs", runs::runs),
        get("/scalars", scalars::scalars),
        get("/histograms", histograms::histograms),
        get("/text", texts::text),
        get("/text/search", texts::search),
        get("/images", images::images),
        new ApiRoute(
            "GET",
            PREFIX + "/image",
            exchange -> PrometheusApi.handleBody(exchange, images::image)),
        get("/hparams", hparams::hparams));
  }

  private static ApiRoute get(String path, Function<Params, byte[]> handler) {
    return new ApiRoute("GET", PREFIX + path, exchange -> PrometheusApi.handle(exchange, handler));
  }
}
