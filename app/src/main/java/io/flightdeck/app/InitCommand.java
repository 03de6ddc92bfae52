package io.flightdeck.app;

import io.flightdeck.rules.RulePacks;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code flightdeck init}: writes a commented starter {@code flightdeck.yml} and copies of the
 * shipped rule packs into a folder, so that {@code ./flightdeck} started there uses them. Never
 * overwrites a file the user may have edited.
 */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    description =
        "Write a commented starter flightdeck.yml (a training job on :8080, this node's GPUs, a"
            + " Feishu robot, the GPU and training rule packs in rules/) into a folder.")
final class InitCommand implements Callable<Integer> {
  private static final String STARTER = "starter-config.yml";

  @Option(
      names = "--dir",
      defaultValue = ".",
      description = "Folder to write into (default: the working folder).")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path config = dir.resolve(ServerCommand.DEFAULT_CONFIG_FILE);
    Path rules = dir.resolve("rules");
    for (Path existing : targets(config, rules)) {
      if (Files.exists(existing)) {
        err.println(
            "flightdeck init: "
                + existing
                + " already exists; nothing written (move it away to start afresh)");
        err.flush();
        return 1;
      }
    }
    Files.createDirectories(dir);
    try (InputStream in = InitCommand.class.getResourceAsStream(STARTER)) {
      Files.write(config, in.readAllBytes());
    }
    RulePacks.writeTo(rules);
    out.println("Wrote " + config + " and the rule packs " + RulePacks.FILES + " in " + rules);
    out.println("Check it with:  ./flightdeck check config " + config);
    out.println("Start with:     ./flightdeck   (in " + dir.toAbsolutePath().normalize() + ")");
    out.flush();
    return 0;
  }

  private static Path[] targets(Path config, Path rules) {
    Path[] all = new Path[RulePacks.FILES.size() + 1];
    all[0] = config;
    for (int i = 0; i < RulePacks.FILES.size(); i++) {
      all[i + 1] = rules.resolve(RulePacks.FILES.get(i));
    }
    return all;
  }
}
