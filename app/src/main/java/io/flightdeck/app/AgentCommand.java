package io.flightdeck.app;

import io.flightdeck.config.ConfigLoader;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.QueueConfig;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.model.ByteSizeFormat;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/** {@code flightdeck agent}: the node agent for GPU machines. */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description = {
      "Run the node agent: host metrics (node_exporter names) and GPU metrics (dcgm-exporter names)"
          + " collected on each scrape of /metrics or, with --remote-write.url or a"
          + " remote_write section in --config.file, every interval, served at /metrics and sent"
          + " with remote write 1.0 through a disk queue.",
      "Samples sent carry job=\""
          + NodeCollection.JOB
          + "\" and instance=\"<hostname>:<port of"
          + " --web.listen-address>\", the labels a scrape of the agent would add."
    })
final class AgentCommand implements Callable<Integer> {
  @Option(
      names = "--web.listen-address",
      defaultValue = "127.0.0.1:9596",
      description =
          "Address of /metrics (default ${DEFAULT-VALUE}: reachable from this machine only).")
  String listenAddress;

  @Mixin NodeCollectorFlags node;

  @Option(
      names = "--remote-write.url",
      description = "Send every collection to this remote-write 1.0 endpoint. Repeatable.")
  List<URI> remoteWriteUrls = new ArrayList<>();

  @Option(
      names = "--config.file",
      description =
          "A prometheus.yml-style file whose remote_write section (auth, TLS, write_relabel_configs,"
              + " queue_config) adds endpoints.")
  Path configFile;

  @Option(
      names = "--remote-write.queue-dir",
      defaultValue = "./agent-queue",
      description = "Directory of the disk queues, one per endpoint (default ${DEFAULT-VALUE}).")
  Path queueDir;

  @Option(
      names = "--remote-write.queue-max-size",
      defaultValue = "1GB",
      description =
          "Bound of each disk queue; past it the oldest samples are dropped and counted (default ${DEFAULT-VALUE}).")
  String queueMaxSize;

  @Override
  public Integer call() throws Exception {
    Duration every = node.interval();
    List<RemoteWriteConfig> endpoints = new ArrayList<>();
    for (URI url : remoteWriteUrls) {
      endpoints.add(
          new RemoteWriteConfig(
              url,
              "",
              RemoteWriteConfig.DEFAULT_REMOTE_TIMEOUT,
              Map.of(),
              HttpClientConfig.DEFAULT,
              List.of(),
              QueueConfig.DEFAULT));
    }
    if (configFile != null) {
      endpoints.addAll(ConfigLoader.load(configFile).remoteWrite());
    }
    ListenAddress address = ListenAddress.parse(listenAddress);
    String hostname = node.hostname();
    FlightdeckAgent agent =
        new FlightdeckAgent(
            new FlightdeckAgent.Options(
                address,
                hostname + ":" + address.port(),
                node.procRoot,
                node.nvmlLibrary,
                hostname,
                every,
                endpoints,
                queueDir,
                ByteSizeFormat.parse(queueMaxSize)));
    // SIGTERM and SIGINT stop the agent in order and exit 0; the hook covers other endings.
    CountDownLatch stopRequested = new CountDownLatch(1);
    for (String signal : new String[] {"TERM", "INT"}) {
      Signal.handle(new Signal(signal), s -> stopRequested.countDown());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(agent::close, "shutdown"));
    agent.start();
    stopRequested.await();
    agent.close();
    return 0;
  }
}
