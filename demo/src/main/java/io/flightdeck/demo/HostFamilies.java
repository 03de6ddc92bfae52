package io.flightdeck.demo;

import io.flightdeck.collector.host.MetricFamily;
import java.util.List;

/** A simulated node's host metrics under node_exporter's names, at one simulated second. */
final class HostFamilies {
  private static final String[] NICS = {"eth0", "eth1"};
  private static final String[] CPU_MODES = {"user", "system", "iowait", "idle"};
  private static final String DISK = "nvme0n1";

  private HostFamilies() {}

  static List<MetricFamily> render(ClusterModel model, int node, int t) {
    MetricFamily cpu =
        MetricFamily.counter("node_cpu_seconds_total", "Seconds the CPUs spent in each mode.");
    for (String mode : CPU_MODES) {
      double perCpu = model.cpuSeconds(node, mode, t) / ClusterModel.CPUS;
      for (int c = 0; c < ClusterModel.CPUS; c++) {
        cpu.add(perCpu, "cpu", Integer.toString(c), "mode", mode);
      }
    }
    double available = model.memoryAvailableBytes(node, t);
    MetricFamily total =
        MetricFamily.gauge("node_memory_MemTotal_bytes", "Memory information field MemTotal_bytes.")
            .add(ClusterModel.HOST_MEMORY_BYTES);
    MetricFamily avail =
        MetricFamily.gauge(
                "node_memory_MemAvailable_bytes", "Memory information field MemAvailable_bytes.")
            .add(available);
    MetricFamily free =
        MetricFamily.gauge("node_memory_MemFree_bytes", "Memory information field MemFree_bytes.")
            .add(Math.floor(available * 0.55));
    MetricFamily rx =
        MetricFamily.counter(
            "node_network_receive_bytes_total", "Network device statistic receive_bytes.");
    MetricFamily tx =
        MetricFamily.counter(
            "node_network_transmit_bytes_total", "Network device statistic transmit_bytes.");
    MetricFamily speed =
        MetricFamily.gauge("node_network_speed_bytes", "Network device property: speed_bytes");
    for (int nic = 0; nic < NICS.length; nic++) {
      rx.add(model.receivedBytes(node, nic, t), "device", NICS[nic]);
      tx.add(model.transmittedBytes(node, nic, t), "device", NICS[nic]);
      speed.add(ClusterModel.NIC_BYTES_PER_SECOND, "device", NICS[nic]);
    }
    MetricFamily read =
        MetricFamily.counter(
                "node_disk_read_bytes_total", "The total number of bytes read successfully.")
            .add(model.diskReadBytes(node, t), "device", DISK);
    MetricFamily written =
        MetricFamily.counter(
                "node_disk_written_bytes_total", "The total number of bytes written successfully.")
            .add(model.diskWrittenBytes(node, t), "device", DISK);
    MetricFamily load =
        MetricFamily.gauge("node_load1", "1m load average.").add(model.training(t) ? 14.5 : 0.4);
    return List.of(cpu, total, avail, free, rx, tx, speed, read, written, load);
  }
}
