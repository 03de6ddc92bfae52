package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The command line builds only the subcommand it runs, and every one when it needs them all. */
class MainTest {
  private static final String[] ALL = {
    "server",
    "demo",
    "init",
    "check",
    "test",
    "agent",
    "tsdb",
    "import",
    "query",
    "promql-test",
    "help"
  };

  @Test
  void aSubcommandNamedFirstIsTheOnlyOneBuilt() {
    assertThat(Main.commandLine(new String[] {"import", "tensorboard", "--help"}).getSubcommands())
        .containsOnlyKeys("import");
    assertThat(Main.commandLine(new String[] {"query", "up"}).getSubcommands())
        .containsOnlyKeys("query");
  }

  @Test
  void helpTopLevelOptionsAndUnknownNamesGetEverySubcommandInOrder() {
    for (String[] args :
        new String[][] {{}, {"help", "import"}, {"--version"}, {"no-such-command"}}) {
      assertThat(Main.commandLine(args).getSubcommands().keySet()).containsExactly(ALL);
    }
  }

  @Test
  void theHelpCommandStillDescribesEachSubcommand() {
    StringWriter out = new StringWriter();
    int code =
        Main.commandLine(new String[] {"help", "import"})
            .setOut(new PrintWriter(out))
            .execute("help", "import");
    assertThat(code).isZero();
    assertThat(out.toString()).contains("tensorboard");
  }
}
