package io.flightdeck.api;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Images: {@code tensorboard/images?logdir=&run=&tag=[&min_step=][&max_step=]} lists one tag's
 * current images by step and index, each {@code {"step":..., "wall_time":..., "index":...,
 * "width":..., "height":..., "content_type":..., "bytes":..., "url":...}}; {@code
 * tensorboard/image?logdir=&run=&tag=&step=&index=} answers one image's bytes with its content
 * type, which is what each {@code url} asks for.
 */
final class TensorBoardImageHandlers {
  private final TensorBoardImages images;

  TensorBoardImageHandlers(TensorBoardImages images) {
    this.images = images;
  }

  byte[] images(Params params) {
    String logdir = TensorBoardParams.required(params, "logdir");
    String run = TensorBoardParams.required(params, "run");
    String tag = TensorBoardParams.required(params, "tag");
    long minStep = TensorBoardParams.step(params, "min_step", Long.MIN_VALUE);
    long maxStep = TensorBoardParams.step(params, "max_step", Long.MAX_VALUE);
    List<TensorBoardImage> found = images.list(logdir, run, tag, minStep, maxStep);
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          for (TensorBoardImage image : found) {
            out.writeStartObject();
            out.writeNumberField("step", image.step());
            out.writeFieldName("wall_time");
            out.writeNumber(GoFloats.jsonNumber(image.wallTimeSeconds()));
            out.writeNumberField("index", image.index());
            out.writeNumberField("width", image.width());
            out.writeNumberField("height", image.height());
            out.writeStringField("content_type", image.contentType());
            out.writeNumberField("bytes", image.byteLength());
            out.writeStringField("url", url(image));
            out.writeEndObject();
          }
          out.writeEndArray();
        });
  }

  PrometheusApi.Body image(Params params) {
    String logdir = TensorBoardParams.required(params, "logdir");
    String run = TensorBoardParams.required(params, "run");
    String tag = TensorBoardParams.required(params, "tag");
    long step = TensorBoardParams.requiredStep(params, "step");
    int index = index(params);
    TensorBoardImageBytes found =
        images
            .read(logdir, run, tag, step, index)
            .orElseThrow(
                () ->
                    new ApiException(
                        ErrorType.NOT_FOUND,
                        "no image at step "
                            + step
                            + " index "
                            + index
                            + " [logdir="
                            + logdir
                            + ", run="
                            + run
                            + ", tag="
                            + tag
                            + "]"));
    return new PrometheusApi.Body(found.contentType(), found.bytes());
  }

  /** The image's place in its event, 0 when absent. */
  private static int index(Params params) {
    String value = params.get("index");
    try {
      int index = value.isEmpty() ? 0 : Integer.parseInt(value);
      if (index < 0) {
        throw new NumberFormatException();
      }
      return index;
    } catch (NumberFormatException e) {
      throw ApiException.invalidParam("index", "not a non-negative integer: " + value);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String url(TensorBoardImage image) {
    return "/api/v1/tensorboard/image?logdir="
        + encode(image.logdir())
        + "&run="
        + encode(image.run())
        + "&tag="
        + encode(image.tag())
        + "&step="
        + image.step()
        + "&index="
        + image.index();
  }
}
