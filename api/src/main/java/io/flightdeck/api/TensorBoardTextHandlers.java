package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;

/**
 * Text samples: {@code tensorboard/text?logdir=&run=&tag=[&min_step=][&max_step=]} lists one tag's
 * samples by step; {@code tensorboard/text/search?q=[&limit=]} finds samples with an element
 * containing {@code q} (case-sensitive) in every logdir. Each sample is {@code {"logdir":...,
 * "run":..., "tag":..., "step":..., "wall_time":..., "values":[...]}}.
 */
final class TensorBoardTextHandlers {
  private static final String TRUNCATED = "results truncated due to limit";

  private final TensorBoardTexts texts;

  TensorBoardTextHandlers(TensorBoardTexts texts) {
    this.texts = texts;
  }

  byte[] text(Params params) {
    String logdir = TensorBoardParams.required(params, "logdir");
    String run = TensorBoardParams.required(params, "run");
    String tag = TensorBoardParams.required(params, "tag");
    long minStep = TensorBoardParams.step(params, "min_step", Long.MIN_VALUE);
    long maxStep = TensorBoardParams.step(params, "max_step", Long.MAX_VALUE);
    List<TensorBoardText> samples = texts.fetch(logdir, run, tag, minStep, maxStep);
    return ApiJson.success(out -> samples(out, samples));
  }

  /** {@code limit} as Prometheus's endpoints read it: 0 or absent for none. */
  byte[] search(Params params) {
    String needle = TensorBoardParams.required(params, "q");
    int limit = params.limit();
    // One more than asked tells whether the limit cut anything.
    List<TensorBoardText> found =
        texts.search(
            needle, limit == 0 || limit == Integer.MAX_VALUE ? Integer.MAX_VALUE : limit + 1);
    List<String> warnings = List.of();
    if (limit > 0 && found.size() > limit) {
      found = found.subList(0, limit);
      warnings = List.of(TRUNCATED);
    }
    List<TensorBoardText> shown = found;
    return ApiJson.success(out -> samples(out, shown), warnings, List.of());
  }

  private static void samples(JsonGenerator out, List<TensorBoardText> samples) throws IOException {
    out.writeStartArray();
    for (TensorBoardText sample : samples) {
      out.writeStartObject();
      out.writeStringField("logdir", sample.logdir());
      out.writeStringField("run", sample.run());
      out.writeStringField("tag", sample.tag());
      out.writeNumberField("step", sample.step());
      out.writeFieldName("wall_time");
      out.writeNumber(GoFloats.jsonNumber(sample.wallTimeSeconds()));
      out.writeFieldName("values");
      ApiJson.strings(out, sample.values());
      out.writeEndObject();
    }
    out.writeEndArray();
  }
}
