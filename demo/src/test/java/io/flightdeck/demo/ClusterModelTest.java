package io.flightdeck.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulation's determinism and its incidents' signals, second by simulated second. */
class ClusterModelTest {
  private static final long END = DemoScript.DEFAULT_DURATION.toSeconds();
  private final ClusterModel model = new ClusterModel(42, 30, END);

  @Test
  void sameSeedGivesTheSameSeriesAndAnotherSeedOthers() {
    ClusterModel again = new ClusterModel(42, 30, END);
    ClusterModel other = new ClusterModel(43, 30, END);
    boolean differs = false;
    for (int t = 0; t <= END; t += 7) {
      for (int node = 0; node < DemoScript.NODES; node++) {
        for (int gpu = 0; gpu < DemoScript.GPUS_PER_NODE; gpu++) {
          int rank = DemoScript.rank(node, gpu);
          assertThat(Double.doubleToLongBits(again.loss(rank, t)))
              .isEqualTo(Double.doubleToLongBits(model.loss(rank, t)));
          assertThat(again.rankMemoryMb(rank, t)).isEqualTo(model.rankMemoryMb(rank, t));
          assertThat(again.samplesPerSecond(rank, t)).isEqualTo(model.samplesPerSecond(rank, t));
          assertThat(again.utilization(node, gpu, t)).isEqualTo(model.utilization(node, gpu, t));
          assertThat(again.powerWatts(node, gpu, t)).isEqualTo(model.powerWatts(node, gpu, t));
          assertThat(again.energyMillijoules(node, gpu, t))
              .isEqualTo(model.energyMillijoules(node, gpu, t));
          differs |= other.powerWatts(node, gpu, t) != model.powerWatts(node, gpu, t);
        }
        assertThat(again.receivedBytes(node, 0, t)).isEqualTo(model.receivedBytes(node, 0, t));
      }
      assertThat(again.step(t)).isEqualTo(model.step(t));
    }
    assertThat(differs).as("seed 43 changes the noise").isTrue();
  }

  @Test
  void lossIsNotANumberExactlyDuringTheNanIncident() {
    for (int t = 0; t <= END; t++) {
      boolean nan = Double.isNaN(model.loss(3, t));
      assertThat(nan)
          .as("NaN at %d s", t)
          .isEqualTo(within(t, DemoScript.NAN_START, DemoScript.NAN_END));
    }
  }

  @Test
  void onlyTheHotGpuExceeds82DegreesAndOnlyDuringItsIncident() {
    boolean seenHot = false;
    for (int t = 0; t <= END; t += 5) {
      for (int node = 0; node < DemoScript.NODES; node++) {
        for (int gpu = 0; gpu < DemoScript.GPUS_PER_NODE; gpu++) {
          boolean hot = model.temperature(node, gpu, t) > 82;
          boolean incident =
              node == DemoScript.HOT_NODE
                  && gpu == DemoScript.HOT_GPU
                  && within(t, DemoScript.HOT_START, DemoScript.HOT_END);
          if (hot) {
            assertThat(incident).as("node %d gpu %d hot at %d s", node, gpu, t).isTrue();
          }
          seenHot |= hot;
        }
      }
    }
    int middle = (int) (DemoScript.HOT_START.toSeconds() + DemoScript.HOT_END.toSeconds()) / 2;
    assertThat(model.temperature(DemoScript.HOT_NODE, DemoScript.HOT_GPU, middle))
        .isGreaterThan(85);
    assertThat(seenHot).isTrue();
  }

  @Test
  void memoryClimbsAStepAtEveryEpochStartDuringTheLeakOnly() {
    int before = (int) DemoScript.LEAK_START.toSeconds() - 1;
    int end = (int) DemoScript.LEAK_END.toSeconds();
    double base = model.rankMemoryMb(5, before);
    int steps = 0;
    for (int t = 1; t <= END; t++) {
      double change = model.rankMemoryMb(5, t) - model.rankMemoryMb(5, t - 1);
      if (change > 1000) {
        assertThat(within(t, DemoScript.LEAK_START, DemoScript.LEAK_END))
            .as("rise at %d s", t)
            .isTrue();
        assertThat(model.epoch(t)).as("rise at an epoch start").isEqualTo(model.epoch(t - 1) + 1);
        steps++;
      }
      if (!within(t, DemoScript.LEAK_START, DemoScript.LEAK_END)) {
        assertThat(model.rankMemoryMb(5, t))
            .isCloseTo(base, org.assertj.core.data.Offset.offset(300.0));
      }
    }
    assertThat(steps).as("one step per epoch begun in the window").isGreaterThanOrEqualTo(4);
    assertThat(model.rankMemoryMb(5, end - 1) / ClusterModel.GPU_MEMORY_TOTAL_MB)
        .as("the leak stays below the 90% of HighGPUMemoryUsage")
        .isLessThan(0.9);
  }

  @Test
  void throughputFallsExactlyWhenTheReceiveLinkIsFull() {
    int full = 0;
    for (int t = 0; t < DemoScript.XID_AT.toSeconds(); t++) {
      if (model.hung(t)) {
        continue;
      }
      boolean saturated =
          model.receiveRate(DemoScript.SATURATED_NODE, 0, t)
              > 0.95 * ClusterModel.NIC_BYTES_PER_SECOND;
      boolean slow = model.samplesPerSecond(0, t) < 5;
      assertThat(slow).as("slow at %d s", t).isEqualTo(saturated);
      if (saturated) {
        assertThat(within(t, DemoScript.NETWORK_START, DemoScript.NETWORK_END)).isTrue();
        full++;
      }
      assertThat(model.receiveRate(1 - DemoScript.SATURATED_NODE, 0, t))
          .isLessThan(0.8 * ClusterModel.NIC_BYTES_PER_SECOND);
    }
    long window = DemoScript.NETWORK_END.minus(DemoScript.NETWORK_START).toSeconds();
    assertThat(full).as("4 minutes in 5 saturated").isEqualTo((int) (window * 4 / 5));
  }

  @Test
  void duringTheHangNoRankStepsAndTheHungGpuAloneIsIdle() {
    int start = (int) DemoScript.HANG_START.toSeconds();
    int end = (int) DemoScript.HANG_END.toSeconds();
    for (int t = 1; t < DemoScript.XID_AT.toSeconds(); t++) {
      if (within(t, DemoScript.HANG_START, DemoScript.HANG_END)) {
        assertThat(model.step(t)).isEqualTo(model.step(start));
        for (int gpu = 0; gpu < DemoScript.GPUS_PER_NODE; gpu++) {
          boolean hungGpu = gpu == DemoScript.HUNG_GPU;
          assertThat(model.utilization(DemoScript.HUNG_NODE, gpu, t)).isEqualTo(hungGpu ? 0 : 100);
        }
        // The gauges keep their values: the rank's loop is blocked.
        assertThat(model.gaugeSecond(t)).isEqualTo(start);
      } else if (t % 60 == 0 && !model.hung(t - 60)) {
        assertThat(model.step(t)).as("steps advance at %d s", t).isGreaterThan(model.step(t - 60));
        assertThat(model.utilization(DemoScript.HUNG_NODE, DemoScript.HUNG_GPU, t))
            .isGreaterThan(30);
      }
    }
    assertThat(model.step(end + 60)).isGreaterThan(model.step(start));
  }

  @Test
  void onlyTheLostGpuIsLostAndOnlyFromTheXid() {
    for (int t = 0; t <= END; t += 10) {
      for (int node = 0; node < DemoScript.NODES; node++) {
        for (int gpu = 0; gpu < DemoScript.GPUS_PER_NODE; gpu++) {
          boolean expected =
              node == DemoScript.LOST_NODE
                  && gpu == DemoScript.LOST_GPU
                  && t >= DemoScript.XID_AT.toSeconds();
          assertThat(model.lost(node, gpu, t)).isEqualTo(expected);
        }
      }
      assertThat(model.training(t)).isEqualTo(t < DemoScript.XID_AT.toSeconds());
    }
  }

  @Test
  void siblingLossReboundsAtTheSecondWarmUpOnly() {
    SiblingRun run = new SiblingRun(42, END, true);
    int restart = run.stepAt(DemoScript.REBOUND_START.toSeconds());
    assertThat(run.learningRate(restart + 100)).isGreaterThan(run.learningRate(restart - 1) * 5);
    double before = average(run, restart - 450, restart);
    double during = average(run, restart + 75, run.stepAt(DemoScript.REBOUND_END.toSeconds()));
    assertThat(during).isGreaterThan(1.5 * before);
    // Before the restart the loss only falls: every 30-minute mean is below the one before.
    for (int s = 900; s < restart; s += 150) {
      assertThat(average(run, s - 150, s)).isLessThan(average(run, s - 450, s - 150));
    }
    assertThat(run.hparams()).containsEntry("max_steps", run.maxSteps());
  }

  @Test
  void theBaselineRunsLossKeepsFallingUnderOneCosine() {
    SiblingRun run = new SiblingRun(42, END, false);
    for (int s = 450; s < run.maxSteps(); s += 150) {
      assertThat(average(run, s - 150, s))
          .as("step %d", s)
          .isLessThan(average(run, s - 450, s - 150));
    }
    for (int s = 100; s < run.maxSteps(); s++) {
      assertThat(run.learningRate(s)).isLessThanOrEqualTo(run.learningRate(s - 1));
    }
    assertThat(run.hparams()).containsEntry("lr_scheduler_type", "cosine");
  }

  private static double average(SiblingRun run, int from, int to) {
    double sum = 0;
    for (int s = from; s < to; s++) {
      sum += run.loss(s);
    }
    return sum / (to - from);
  }

  private static boolean within(int t, Duration start, Duration end) {
    return t >= start.toSeconds() && t < end.toSeconds();
  }
}
