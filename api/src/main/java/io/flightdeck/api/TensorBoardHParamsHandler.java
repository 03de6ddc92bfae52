package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code tensorboard/hparams[?logdir=]}: the hparams run metadata of one logdir, or of every
 * logdir, ordered by logdir and run: {@code [{"logdir":..., "run":..., "hparams":{"lr":0.1,
 * "optimizer":"adam"}, "group_name":..., "hparam_names":[...], "metric_tags":[...],
 * "status":...}]}. A PyTorch {@code add_hparams} sub-run is listed as its parent run, whose scalars
 * the metric tags name.
 */
final class TensorBoardHParamsHandler {
  private final TensorBoardHParams hparams;

  TensorBoardHParamsHandler(TensorBoardHParams hparams) {
    this.hparams = hparams;
  }

  byte[] hparams(Params params) {
    String logdir = params.get("logdir");
    List<TensorBoardRunHParams> runs = new ArrayList<>();
    for (String each : logdir.isEmpty() ? hparams.logdirs() : List.of(logdir)) {
      runs.addAll(hparams.runs(each));
    }
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          for (TensorBoardRunHParams run : runs) {
            out.writeStartObject();
            out.writeStringField("logdir", run.logdir());
            out.writeStringField("run", run.run());
            out.writeObjectFieldStart("hparams");
            for (Map.Entry<String, Object> h : run.hparams().entrySet()) {
              value(out, h.getKey(), h.getValue());
            }
            out.writeEndObject();
            out.writeStringField("group_name", run.groupName());
            out.writeFieldName("hparam_names");
            ApiJson.strings(out, run.hparamNames());
            out.writeFieldName("metric_tags");
            ApiJson.strings(out, run.metricTags());
            out.writeStringField("status", run.status());
            out.writeEndObject();
          }
          out.writeEndArray();
        });
  }

  /** Numbers as JSON numbers where finite (Go's spelling), else as strings like other floats. */
  private static void value(JsonGenerator out, String name, Object value) throws IOException {
    out.writeFieldName(name);
    switch (value) {
      case Double d when Double.isFinite(d) -> out.writeNumber(GoFloats.jsonNumber(d));
      case Boolean b -> out.writeBoolean(b);
      default -> out.writeString(value.toString());
    }
  }
}
