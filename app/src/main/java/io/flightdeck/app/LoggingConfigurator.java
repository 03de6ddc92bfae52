package io.flightdeck.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * Logging for every command, set up in code: logfmt-style lines ({@link LogfmtLayout}) on stderr at
 * level INFO (or the {@code flightdeck.log.level} system property), Jetty and Javalin at WARN.
 * Reading the same setup from a logback.xml took 0.15 s of CPU at each start, on the path of every
 * command. Logback finds this class as a service; a {@code logback.configurationFile} system
 * property still wins.
 */
public final class LoggingConfigurator extends ContextAwareBase implements Configurator {
  @Override
  public ExecutionStatus configure(LoggerContext context) {
    if (System.getProperty("logback.configurationFile") != null) {
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    LogfmtLayout layout = new LogfmtLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("STDERR");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getProperty("flightdeck.log.level"), Level.INFO));
    root.addAppender(stderr);
    context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
    context.getLogger("io.javalin").setLevel(Level.WARN);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
