package io.flightdeck.demo;

import io.flightdeck.collector.host.MetricFamily;
import java.util.List;

/**
 * One rank's training gauges as a script using prometheus_client sets them, at one simulated
 * second. A rank blocked in a collective stops setting them: they keep the values of the hang's
 * first second.
 */
final class RankFamilies {
  private RankFamilies() {}

  static List<MetricFamily> render(ClusterModel model, int node, int localRank, int second) {
    int rank = DemoScript.rank(node, localRank);
    int t = model.gaugeSecond(second);
    String device = "cuda:" + localRank;
    double samples = model.samplesPerSecond(rank, t);
    return List.of(
        MetricFamily.gauge("train_loss", "Training loss of the last step.")
            .add(model.loss(rank, t)),
        MetricFamily.gauge("llm_learning_rate", "Learning rate of the last step.")
            .add(model.learningRate(t)),
        MetricFamily.gauge("training_samples_per_second", "Samples per second of this rank.")
            .add(samples),
        MetricFamily.gauge(
                "llm_train_samples_per_second", "Samples per second of this rank (llm_ family).")
            .add(samples),
        MetricFamily.gauge("gpu_memory_used_mb", "torch.cuda.memory_allocated in MB.")
            .add(model.rankMemoryMb(rank, t), "device", device),
        MetricFamily.gauge("gpu_memory_total_mb", "Total memory of the GPU in MB.")
            .add(ClusterModel.GPU_MEMORY_TOTAL_MB, "device", device),
        MetricFamily.gauge("llm_train_step", "Optimizer steps done.").add(model.step(t)),
        MetricFamily.gauge("llm_train_epoch", "Epochs done (fractional).")
            .add(model.fractionalEpoch(t)),
        MetricFamily.gauge("llm_train_max_steps", "Steps the run is configured for.")
            .add(DemoScript.MAX_STEPS));
  }
}
