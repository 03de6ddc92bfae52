package io.flightdeck.demo;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What {@code flightdeck demo} was asked for.
 *
 * @param speed simulated seconds per real second (default {@link DemoScript#DEFAULT_SPEED})
 * @param seed fixes every simulated value: the same seed gives the same data
 * @param duration how long the simulated job runs, in simulated time
 * @param workDir where the generated config, the scaled rule packs and the TensorBoard logdir go
 * @param feishuUrl a Feishu/Lark robot's webhook to send the demo's alerts to, or null
 * @param feishuSecret that robot's signing secret, or null
 * @param webhookUrl an Alertmanager-style webhook to send them to, or null
 */
public record DemoOptions(
    double speed,
    long seed,
    Duration duration,
    Path workDir,
    String feishuUrl,
    String feishuSecret,
    String webhookUrl) {

  public DemoOptions {
    if (!(speed > 0) || Double.isInfinite(speed)) {
      throw new IllegalArgumentException("--speed must be a number greater than 0, got " + speed);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("--duration must be greater than 0, got " + duration);
    }
  }

  public static DemoOptions defaults(Path workDir) {
    return new DemoOptions(
        DemoScript.DEFAULT_SPEED, 1, DemoScript.DEFAULT_DURATION, workDir, null, null, null);
  }

  public DemoOptions withSpeed(double newSpeed) {
    return new DemoOptions(newSpeed, seed, duration, workDir, feishuUrl, feishuSecret, webhookUrl);
  }
}
