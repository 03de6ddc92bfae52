package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.SharedFixtures;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A writer that resumes from a checkpoint goes back in steps. The reader exposes that as written;
 * the storing layer decides. For the next engineer: TensorBoard's current loader (RustBoard)
 * evicts, per tag, every kept point whose step is at or after the new, lower step, so points at or
 * after the new step are superseded by the resumed run (200 points here); the legacy Python loader
 * only purges on {@code SessionLog.START}, which PyTorch never writes, and keeps all 210.
 */
class StepRegressionTest {
  @Test
  void duplicateStepsFixtureExposesTheStepGoingBack() {
    TensorBoardRun run =
        RunDiscovery.discover(
                SharedFixtures.fixture("tfevents/tensorboard-reducer/tests/runs/duplicate_steps"))
            .getFirst();
    assertThat(run.name()).isEqualTo("run_1");
    CollectingListener listener = new CollectingListener();
    new RunReader(run).poll(listener);

    List<ScalarPoint> foo = listener.of(ScalarPoint.class, "dup_steps/foo");
    assertThat(foo).hasSize(210);
    List<Long> steps = foo.stream().map(ScalarPoint::step).toList();
    assertThat(steps.subList(0, 100)).isEqualTo(LongStream.range(0, 100).boxed().toList());
    assertThat(steps.subList(100, 210)).isEqualTo(LongStream.range(90, 200).boxed().toList());
    assertThat(foo.getFirst().value()).isEqualTo(1.4962565898895264);
    assertThat(foo.getLast().value()).isEqualTo(1.5478503704071045);
    // Step 95 occurs twice: the first pass and the resumed pass, in file order.
    assertThat(foo.stream().filter(p -> p.step() == 95)).hasSize(2);
    assertThat(listener.of(ScalarPoint.class, "dup_steps/bar")).hasSize(210);
  }
}
