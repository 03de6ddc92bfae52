package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each detector on a simulated 2 × 4 GPU run with its incident (it fires, names the GPU or host
 * where it should, near the true onset), and on the other incidents' runs (it stays quiet).
 */
class RunDetectorsTest {
  private static final long HOURS_3 = 3 * 3600;
  private static final long ONSET = 5400;

  @TempDir static Path dir;
  static TrainingStore store;
  static RunCatalog catalog;

  private static SimulatedRun run(String name, SimulatedRun.Faults faults) {
    return new SimulatedRun(name, 2, 4, 15, HOURS_3, name.hashCode(), faults);
  }

  private static boolean during(long s, long from, long to) {
    return s >= from && s < to;
  }

  @BeforeAll
  static void write() {
    store = new TrainingStore(dir);
    run(
            "spiky",
            new SimulatedRun.Faults() {
              @Override
              double loss(int rank, long s, double healthy) {
                return s == ONSET ? healthy + 1.5 : healthy;
              }
            })
        .write(store);
    run("hung", hang(1, 2, ONSET, ONSET + 1200)).write(store);
    run(
            "frozen",
            new SimulatedRun.Faults() {
              @Override
              double step(int rank, long s, long healthy) {
                long frozenAt = Math.round(ONSET * SimulatedRun.STEPS_PER_SECOND);
                return rank == 5 ? Math.min(healthy, frozenAt) : healthy;
              }
            })
        .write(store);
    run(
            "straggling",
            new SimulatedRun.Faults() {
              @Override
              double clock(int node, int gpu, long s, double healthy) {
                return node == 0 && gpu == 3 && s >= ONSET ? 1410 : healthy;
              }
            })
        .write(store);
    run(
            "starved",
            new SimulatedRun.Faults() {
              @Override
              double pace(long s) {
                return during(s, ONSET, ONSET + 1800) ? 0.4 : 1;
              }

              @Override
              double util(int node, int gpu, long s, double healthy) {
                return during(s, ONSET, ONSET + 1800) ? healthy * 0.4 : healthy;
              }

              @Override
              double cpuBusy(int node, long s, double healthy) {
                return during(s, ONSET, ONSET + 1800) ? 0.97 : healthy;
              }
            })
        .write(store);
    run("network", networkBound()).write(store);
    run(
            "leaking",
            new SimulatedRun.Faults() {
              @Override
              double extraMemory(int rank, long s, long epoch) {
                return epoch >= 3 ? 2800 * (epoch - 2) : 0;
              }
            })
        .write(store);
    run("rewarming", rewarming()).write(store);
    catalog =
        new RunCatalog(
            store.tsdb,
            new ManualClock(TrainingStore.T0 + HOURS_3 * 1000),
            RunHParams.NONE,
            RunCatalogOptions.DEFAULT);
  }

  /** Every rank waits from {@code from} to {@code to}; one GPU idles, the others spin in NCCL. */
  static SimulatedRun.Faults hang(int node, int gpu, long from, long to) {
    return new SimulatedRun.Faults() {
      @Override
      double pace(long s) {
        return during(s, from, to) ? 0 : 1;
      }

      @Override
      double util(int n, int g, long s, double healthy) {
        return during(s, from, to) ? (n == node && g == gpu ? 0 : 100) : healthy;
      }

      @Override
      double power(int n, int g, long s, double healthy) {
        return during(s, from, to) ? (n == node && g == gpu ? 96 : 285) : healthy;
      }
    };
  }

  /** Throughput falls to 35% four minutes in five while eth0 is saturated; CPUs as usual. */
  static SimulatedRun.Faults networkBound() {
    return new SimulatedRun.Faults() {
      boolean saturated(long s) {
        return during(s, ONSET, ONSET + 3000) && (s - ONSET) % 300 < 240;
      }

      @Override
      double pace(long s) {
        return saturated(s) ? 0.35 : 1;
      }

      @Override
      double util(int node, int gpu, long s, double healthy) {
        return saturated(s) ? healthy * 0.48 : healthy;
      }

      @Override
      double receiveRate(int node, long s, double healthy) {
        return saturated(s) && node == 1 ? 1.24e9 : healthy * (saturated(s) ? 0.35 : 1);
      }
    };
  }

  /** A second warm-up of the learning rate at step 3000, and the loss climbing back after it. */
  static SimulatedRun.Faults rewarming() {
    return new SimulatedRun.Faults() {
      @Override
      double learningRate(long step, double healthy) {
        if (step < 3000) {
          return 3e-4 * Math.max(0.05, 1 - step / 3000.0);
        }
        long s = step - 3000;
        return s < 200 ? 3e-4 * (s + 1) / 200 : 3e-4 * Math.max(0.05, 1 - (s - 200) / 3000.0);
      }

      @Override
      double loss(int rank, long s, double healthy) {
        long step = Math.round(s * SimulatedRun.STEPS_PER_SECOND);
        return step < 3000 ? healthy : healthy + 0.8 * (1 - Math.exp(-(step - 3000) / 100.0));
      }
    };
  }

  @AfterAll
  static void close() throws Exception {
    store.close();
  }

  private static List<RunEvent> events(String run, String kind) {
    return catalog
        .events(run, TrainingStore.T0, TrainingStore.T0 + HOURS_3 * 1000)
        .orElseThrow()
        .stream()
        .filter(e -> e.kind().equals(kind))
        .toList();
  }

  private static Set<String> kinds(String run) {
    return catalog
        .events(run, TrainingStore.T0, TrainingStore.T0 + HOURS_3 * 1000)
        .orElseThrow()
        .stream()
        .map(RunEvent::kind)
        .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
  }

  private static double secondsAfterOnset(RunEvent event) {
    return (event.timeMs() - TrainingStore.T0) / 1000.0 - ONSET;
  }

  @Test
  void aLossSpikeOnEveryRankIsOneEventAtItsSample() {
    List<RunEvent> spikes = events("spiky", "spike");
    assertEquals(1, spikes.size(), spikes.toString());
    RunEvent spike = spikes.get(0);
    assertEquals(0, secondsAfterOnset(spike));
    assertEquals(8, spike.evidence().get("series_count"));
    assertTrue((Double) spike.evidence().get("z") > LossSpikes.Z);
    assertEquals(ONSET * SimulatedRun.STEPS_PER_SECOND, spike.step(), 1);
    assertEquals(Set.of("epoch", "spike"), kinds("spiky"));
  }

  @Test
  void aHungGpuIsNamedInTheStallOfEveryRank() {
    List<RunEvent> hung = events("hung", "hung_rank");
    assertEquals(1, hung.size(), hung.toString());
    RunEvent rank = hung.get(0);
    assertEquals("hung-node-1", rank.host());
    assertEquals("2", rank.gpu());
    assertEquals(0.0, (Double) rank.evidence().get(HungRanks.UTIL));
    assertEquals(100.0, (Double) rank.evidence().get(HungRanks.UTIL + "_peers_median"));
    RunEvent stall = events("hung", "stall").get(0);
    assertEquals(stall.timeMs(), rank.timeMs());
    assertEquals(stall.endMs(), rank.endMs());
    assertTrue(Math.abs(secondsAfterOnset(rank)) <= 15, rank.toString());
    assertEquals(Set.of("epoch", "hung_rank", "stall"), kinds("hung"));
  }

  @Test
  void aHangIsNamedAtTheFirstScrapeThatShowsTheStepUnmoved() {
    // The step moves at every 15 s scrape; the hang began at ONSET's scrape, so the scrape after
    // it is the first to show the step unmoved: two usual intervals since the step was last seen
    // at another value. (Counted from the plateau's first sample, it took one scrape more.)
    long end = TrainingStore.T0 + (ONSET + 15) * 1000;
    RunCatalog atFirstUnmoved =
        new RunCatalog(
            store.tsdb, new ManualClock(end), RunHParams.NONE, RunCatalogOptions.DEFAULT);
    List<RunEvent> hung =
        atFirstUnmoved.events("hung", end - 3_600_000, end).orElseThrow().stream()
            .filter(e -> e.kind().equals("hung_rank"))
            .toList();
    assertEquals(1, hung.size(), hung.toString());
    assertEquals("hung-node-1", hung.get(0).host());
    assertEquals("2", hung.get(0).gpu());
    assertEquals(0, secondsAfterOnset(hung.get(0)));
    // One scrape earlier nothing shows the step unmoved yet, and nothing is named.
    long before = end - 15_000;
    RunCatalog atOnset =
        new RunCatalog(
            store.tsdb, new ManualClock(before), RunHParams.NONE, RunCatalogOptions.DEFAULT);
    assertTrue(
        atOnset.events("hung", before - 3_600_000, before).orElseThrow().stream()
            .noneMatch(e -> e.kind().equals("hung_rank")));
  }

  @Test
  void aShortHangIsNamedByItsStoppedGpuBeforeItIsAStallAndAPauseOfAllGpusIsNot() {
    // 90 s at 15 s scrapes: under the 2-minute stall floor, over two usual step intervals.
    long from = ONSET;
    long to = ONSET + 90;
    try (TrainingStore short_ = new TrainingStore(dir.resolve("short"))) {
      run("brief", hang(1, 2, from, to)).write(short_);
      run(
              "checkpoint",
              new SimulatedRun.Faults() {
                @Override
                double pace(long s) {
                  return during(s, from, to) ? 0 : 1;
                }

                @Override
                double util(int n, int g, long s, double healthy) {
                  // Every GPU idles while one rank writes the checkpoint; rank 0's GPU copies.
                  return during(s, from, to) ? (n == 0 && g == 0 ? 60 : 0) : healthy;
                }

                @Override
                double power(int n, int g, long s, double healthy) {
                  return during(s, from, to) ? (n == 0 && g == 0 ? 300 : 90) : healthy;
                }
              })
          .write(short_);
      long end = TrainingStore.T0 + HOURS_3 * 1000;
      RunCatalog usual =
          new RunCatalog(
              short_.tsdb, new ManualClock(end), RunHParams.NONE, RunCatalogOptions.DEFAULT);
      List<RunEvent> brief = usual.events("brief", TrainingStore.T0, end).orElseThrow();
      assertTrue(brief.stream().noneMatch(e -> e.kind().equals("stall")), brief.toString());
      List<RunEvent> hung = brief.stream().filter(e -> e.kind().equals("hung_rank")).toList();
      assertEquals(1, hung.size(), hung.toString());
      assertEquals("brief-node-1", hung.get(0).host());
      assertEquals("2", hung.get(0).gpu());
      assertTrue(Math.abs(secondsAfterOnset(hung.get(0))) <= 15, hung.toString());
      assertTrue(
          usual.events("checkpoint", TrainingStore.T0, end).orElseThrow().stream()
              .noneMatch(e -> e.kind().equals("hung_rank")));
      // Under a floor scaled as for a demo the pause is a stall too, and the same GPU is named.
      RunCatalog scaled =
          new RunCatalog(
              short_.tsdb,
              new ManualClock(end),
              RunHParams.NONE,
              RunCatalogOptions.DEFAULT.withStallFloor(java.time.Duration.ofSeconds(4)));
      List<RunEvent> inStall = scaled.events("brief", TrainingStore.T0, end).orElseThrow();
      assertTrue(inStall.stream().anyMatch(e -> e.kind().equals("stall")), inStall.toString());
      assertEquals(
          List.of("2"),
          inStall.stream().filter(e -> e.kind().equals("hung_rank")).map(RunEvent::gpu).toList());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aRankWhoseStepStopsWhileTheOthersGoOnIsHung() {
    List<RunEvent> hung = events("frozen", "hung_rank");
    assertEquals(1, hung.size(), hung.toString());
    RunEvent rank = hung.get(0);
    assertEquals("frozen-node-1", rank.host());
    assertEquals("1", rank.gpu(), "rank 5 is local rank 1 of node 1");
    assertEquals(0, secondsAfterOnset(rank), 15);
    assertNull(rank.endMs(), "still stopped at the end");
    assertEquals(Set.of("epoch", "hung_rank"), kinds("frozen"));
  }

  @Test
  void aThrottledGpuIsAStragglerWithinFiveMinutes() {
    List<RunEvent> stragglers = events("straggling", "straggler");
    assertEquals(1, stragglers.size(), stragglers.toString());
    RunEvent straggler = stragglers.get(0);
    assertEquals("straggling-node-0", straggler.host());
    assertEquals("3", straggler.gpu());
    assertEquals(1410.0, straggler.evidence().get("DCGM_FI_DEV_SM_CLOCK"));
    assertNull(straggler.endMs(), "still slow at the end");
    // Detected once three windows of four samples are slow: the event begins at the onset.
    assertTrue(Math.abs(secondsAfterOnset(straggler)) <= 60, straggler.toString());
    assertEquals(Set.of("epoch", "straggler"), kinds("straggling"));
  }

  @Test
  void idleGpusWithBusyCpusAreStarvation() {
    List<RunEvent> starved = events("starved", "starvation");
    assertEquals(1, starved.size(), starved.toString());
    RunEvent event = starved.get(0);
    assertTrue(secondsAfterOnset(event) >= 0 && secondsAfterOnset(event) <= 60, event.toString());
    assertNotNull(event.endMs());
    assertTrue((Double) event.evidence().get("cpu_busy") > 0.9);
    assertTrue(kinds("starved").contains("throughput_drop"), "samples/s fell too");
    assertTrue(
        kinds("starved").stream().noneMatch(k -> k.equals("straggler") || k.equals("stall")));
  }

  @Test
  void aSaturatedNetworkIsAThroughputDropNotStarvation() {
    List<RunEvent> drops = events("network", "throughput_drop");
    assertEquals(1, drops.size(), "one event for the whole saturated stretch: " + drops);
    RunEvent drop = drops.get(0);
    assertTrue(secondsAfterOnset(drop) >= 0 && secondsAfterOnset(drop) <= 30, drop.toString());
    assertTrue((Double) drop.evidence().get("ratio") < 0.5);
    String movers = (String) drop.evidence().get("movers");
    assertTrue(movers.contains("node_network_receive_bytes_total"), movers);
    assertTrue(!movers.contains("samples_per_second"), "the target is not its own mover");
    assertEquals(Set.of("epoch", "throughput_drop"), kinds("network"));
  }

  @Test
  void memoryRisingAtEpochStartsIsAStaircaseWithATimeToOom() {
    List<RunEvent> stairs = events("leaking", "staircase");
    assertEquals(1, stairs.size(), stairs.toString());
    RunEvent stair = stairs.get(0);
    // Epoch 3 begins at step 1800, 3600 s in; the second step (epoch 4) confirms it.
    assertEquals(3600, (stair.timeMs() - TrainingStore.T0) / 1000.0, 15);
    assertEquals(2800, (Double) stair.evidence().get("step_per_epoch"), 200);
    double toOom = (Double) stair.evidence().get("seconds_to_oom");
    // 81,559 MiB less the 41,800 + 5,600 in use, at 2,800 per 1,200 s epoch: about 14,600 s.
    assertTrue(toOom > 14_000 && toOom < 16_000, "about twelve epochs: " + toOom);
    assertEquals(16, stair.evidence().get("series_count"), "8 GPUs and 8 ranks");
    assertEquals(Set.of("epoch", "staircase"), kinds("leaking"));
  }

  @Test
  void aSecondWarmUpWithTheLossClimbingBackIsAReWarmUp() {
    List<RunEvent> rewarmups = events("rewarming", "lr_rewarmup");
    assertEquals(1, rewarmups.size(), rewarmups.toString());
    RunEvent event = rewarmups.get(0);
    assertEquals(3000, event.step(), 10);
    assertTrue(
        (Double) event.evidence().get("loss_after") > (Double) event.evidence().get("loss_before"));
    assertTrue(kinds("rewarming").stream().noneMatch(k -> k.equals("stall")));
  }
}
