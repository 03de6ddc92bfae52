package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code tensorboard/runs}: every run of every logdir with its tags, ordered by logdir and run:
 * {@code [{"logdir":..., "run":..., "tags":[{"tag":..., "kind":"scalar", "min_step":0,
 * "max_step":99}, ...]}]}. Kinds are {@code scalar} and {@code histogram} from storage and {@code
 * text} from the text stores. The step range is that of the points a step-axis view shows: after a
 * restart the highest step is the last one written.
 *
 * <p>The ranges read every step sample, so the cost grows with the stored points.
 */
final class TensorBoardRunsHandler {
  private final Queryable storage;
  private final TensorBoardTexts texts;
  private final TensorBoardImages images;

  TensorBoardRunsHandler(Queryable storage, TensorBoardTexts texts, TensorBoardImages images) {
    this.storage = storage;
    this.texts = texts;
    this.images = images;
  }

  private record RunKey(String logdir, String run) implements Comparable<RunKey> {
    @Override
    public int compareTo(RunKey o) {
      int c = logdir.compareTo(o.logdir);
      return c != 0 ? c : run.compareTo(o.run);
    }
  }

  private record TagKey(String tag, String kind) implements Comparable<TagKey> {
    @Override
    public int compareTo(TagKey o) {
      int c = tag.compareTo(o.tag);
      return c != 0 ? c : kind.compareTo(o.kind);
    }
  }

  /** A step range; {@code null} for none. */
  private record Steps(long min, long max) {}

  byte[] runs(Params params) {
    Map<RunKey, Map<TagKey, Steps>> runs = new TreeMap<>();
    try (Querier querier = storage.querier(Params.MIN_TIME, Params.MAX_TIME)) {
      addStepRanges(runs, querier.select(false, metric(TensorBoardApi.SCALAR_STEP)), "scalar");
      addStepRanges(
          runs, querier.select(false, metric(TensorBoardApi.HISTOGRAM_STEP)), "histogram");
    }
    for (String logdir : texts.logdirs()) {
      for (String run : texts.runs(logdir)) {
        for (String tag : texts.tags(logdir, run)) {
          List<TensorBoardText> samples =
              texts.fetch(logdir, run, tag, Long.MIN_VALUE, Long.MAX_VALUE);
          if (!samples.isEmpty()) {
            put(
                runs,
                logdir,
                run,
                tag,
                "text",
                samples.getFirst().step(),
                samples.getLast().step());
          }
        }
      }
    }
    for (String logdir : images.logdirs()) {
      for (String run : images.runs(logdir)) {
        for (String tag : images.tags(logdir, run)) {
          List<TensorBoardImage> found =
              images.list(logdir, run, tag, Long.MIN_VALUE, Long.MAX_VALUE);
          if (!found.isEmpty()) {
            put(runs, logdir, run, tag, "image", found.getFirst().step(), found.getLast().step());
          }
        }
      }
    }
    return ApiJson.success(
        out -> {
          out.writeStartArray();
          for (Map.Entry<RunKey, Map<TagKey, Steps>> run : runs.entrySet()) {
            out.writeStartObject();
            out.writeStringField("logdir", run.getKey().logdir());
            out.writeStringField("run", run.getKey().run());
            out.writeArrayFieldStart("tags");
            for (Map.Entry<TagKey, Steps> tag : run.getValue().entrySet()) {
              out.writeStartObject();
              out.writeStringField("tag", tag.getKey().tag());
              out.writeStringField("kind", tag.getKey().kind());
              Steps range = tag.getValue();
              if (range != null) {
                out.writeNumberField("min_step", range.min());
                out.writeNumberField("max_step", range.max());
              }
              out.writeEndObject();
            }
            out.writeEndArray();
            out.writeEndObject();
          }
          out.writeEndArray();
        });
  }

  private static void put(
      Map<RunKey, Map<TagKey, Steps>> runs,
      String logdir,
      String run,
      String tag,
      String kind,
      long minStep,
      long maxStep) {
    runs.computeIfAbsent(new RunKey(logdir, run), k -> new TreeMap<>())
        .put(new TagKey(tag, kind), new Steps(minStep, maxStep));
  }

  private static Matcher metric(String name) {
    return Matcher.equal(Labels.METRIC_NAME, name);
  }

  private static void addStepRanges(
      Map<RunKey, Map<TagKey, Steps>> runs, SeriesSet steps, String kind) {
    SampleIterator reuse = null;
    while (steps.next()) {
      reuse = steps.at().iterator(reuse);
      Steps range = stepRange(reuse);
      if (range != null) {
        add(runs, steps.at().labels(), kind, range);
      }
    }
  }

  /** The lowest step ever written (a restart may go below the first) and the last one. */
  private static Steps stepRange(SampleIterator samples) {
    if (!samples.next()) {
      return null;
    }
    long min = (long) samples.value();
    long last = min;
    while (samples.next()) {
      last = (long) samples.value();
      min = Math.min(min, last);
    }
    return new Steps(min, last);
  }

  private static void add(Map<RunKey, Map<TagKey, Steps>> runs, Labels l, String kind, Steps s) {
    runs.computeIfAbsent(new RunKey(l.get("logdir"), l.get("run")), k -> new TreeMap<>())
        .put(new TagKey(l.get("tag"), kind), s);
  }
}
