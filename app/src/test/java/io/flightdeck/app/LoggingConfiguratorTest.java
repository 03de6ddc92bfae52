package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The logging setup in code writes what logback.xml wrote. */
class LoggingConfiguratorTest {
  @Test
  void logfmtLinesOnStderrAtInfoWithJettyAtWarn() {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter()); // as logback's service provider does
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      LoggingConfigurator configurator = new LoggingConfigurator();
      configurator.setContext(context);
      assertThat(configurator.configure(context))
          .isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
      context.getLogger("io.flightdeck.tsdb.Tsdb").info("opened {}", "data");
      context.getLogger("io.flightdeck.tsdb.Tsdb").debug("not shown");
      context.getLogger("org.eclipse.jetty.server.Server").info("not shown either");
      context.getLogger("org.eclipse.jetty.server.Server").warn("shown");
    } finally {
      context.stop();
      System.setErr(stderr);
    }
    String[] lines = captured.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(2);
    assertThat(lines[0])
        .matches(
            "ts=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z level=INFO thread=\\S+"
                + " logger=Tsdb msg=\"opened data\"");
    assertThat(lines[1])
        .endsWith(
            "level=WARN thread="
                + Thread.currentThread().getName()
                + " logger=Server msg=\"shown\"");
  }
}
