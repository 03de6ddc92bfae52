package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDiscoveryTest {
  @TempDir Path logdir;

  private Path touch(String relative) throws IOException {
    Path file = logdir.resolve(relative);
    Files.createDirectories(file.getParent());
    return Files.write(file, new byte[0]);
  }

  @Test
  void everyDirectoryHoldingEventFilesIsARunNamedByItsRelativePath() throws IOException {
    Path rootFile = touch("events.out.tfevents.1700000000.host.1.0");
    Path later = touch("train/events.out.tfevents.1700000100.host.1.1");
    Path earlier = touch("train/events.out.tfevents.1700000000.host.1.0");
    touch("train/checkpoint.pt");
    touch("validation/events.out.tfevents.1700000000.host.1.2");
    touch("validation/nested/deeper/events.out.tfevents.1700000000.host.1.3.v2");
    touch("plugins/profile/events.out.tfevents.1700000000.host.profile-empty");
    touch("empty/readme.txt");
    Files.createDirectories(logdir.resolve("nothing"));

    List<TensorBoardRun> runs = RunDiscovery.discover(logdir);

    assertThat(runs)
        .extracting(TensorBoardRun::name)
        .containsExactly(".", "plugins/profile", "train", "validation", "validation/nested/deeper");
    assertThat(runs.get(0).eventFiles()).containsExactly(rootFile);
    assertThat(runs.get(2).eventFiles()).containsExactly(earlier, later);
    assertThat(runs.get(2).directory()).isEqualTo(logdir.resolve("train"));
    assertThat(runs).allSatisfy(r -> assertThat(r.hparamsParent()).isEmpty());
  }

  @Test
  void pytorchHparamsSubRunIsAttachedToItsParent() throws IOException {
    touch("exp1/events.out.tfevents.1771595850.host.7.0");
    touch("exp1/1771595857.3236299/events.out.tfevents.1771595857.host.7.1");
    touch("orphan/1771595857.5/events.out.tfevents.1771595857.host.7.2");
    touch("events.out.tfevents.1771595800.host.7.3");
    touch("1771595858.1/events.out.tfevents.1771595858.host.7.4");

    List<TensorBoardRun> runs = RunDiscovery.discover(logdir);

    assertThat(runs)
        .extracting(TensorBoardRun::name, TensorBoardRun::hparamsParent)
        .containsExactly(
            tuple(".", Optional.empty()),
            tuple("1771595858.1", Optional.of(".")),
            tuple("exp1", Optional.empty()),
            tuple("exp1/1771595857.3236299", Optional.of("exp1")),
            tuple("orphan/1771595857.5", Optional.empty()));
  }

  @Test
  void missingLogdirHasNoRuns() {
    assertThat(RunDiscovery.discover(logdir.resolve("not-yet"))).isEmpty();
  }

  @Test
  void fixtureLogdirWithSpacesAndEqualsSignsInRunNames() {
    List<TensorBoardRun> runs =
        RunDiscovery.discover(SharedFixtures.fixture("tfevents/process-tensorboard-logs"));
    assertThat(runs)
        .extracting(TensorBoardRun::name)
        .containsExactly(
            "DQN_buffsize_eps_sched_all - Copy/buffer_size=1000/seed_1/DQN_1",
            "DQN_buffsize_eps_sched_all - Copy/buffer_size=1000/seed_2/DQN_1",
            "DQN_buffsize_eps_sched_all - Copy/buffer_size=1000/seed_3/DQN_1",
            "DQN_buffsize_eps_sched_all - Copy/buffer_size=1000/seed_4/DQN_1",
            "DQN_buffsize_eps_sched_all - Copy/buffer_size=1000000_eps_sched/seed_1/DQN_1",
            "Ray_PPO_cycle_1e6/PPO_JBW-cycle-1e6-v3_9a92d_00000_0_2021-04-11_10-56-44");
    assertThat(runs).allSatisfy(r -> assertThat(r.eventFiles()).hasSize(1));
  }

  @Test
  void fixtureRunsReadThroughRunReader() {
    List<TensorBoardRun> runs =
        RunDiscovery.discover(SharedFixtures.fixture("tfevents/tensorboard-flight-analysis"));
    assertThat(runs)
        .extracting(TensorBoardRun::name)
        .containsExactly(
            "src/frontend/test_logs",
            "test_logs/flight_viz_test",
            "test_logs/tensorboard/PPO_1",
            "test_logs/tensorboard/PPO_2");
    CollectingListener listener = new CollectingListener();
    List<ReadProgress> progress = new RunReader(runs.get(3)).poll(listener);
    assertThat(progress).singleElement().satisfies(p -> assertThat(p.records()).isEqualTo(30));
    assertThat(listener.of(ScalarPoint.class, "train/loss"))
        .extracting(ScalarPoint::step, ScalarPoint::value)
        .containsExactly(tuple(4096L, 944.8350219726562), tuple(6144L, 1432.54248046875));
  }
}
