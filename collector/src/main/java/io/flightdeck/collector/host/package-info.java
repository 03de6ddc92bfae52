/**
 * Host metrics under node_exporter's names, labels, help texts and units, so that existing alert
 * rules and Grafana dashboards work unchanged.
 *
 * <p>Why direct parsing instead of OSHI: node_exporter reads {@code /proc} itself, and what our
 * users' rules depend on is its exact values (ticks divided by USER_HZ, sectors times 512,
 * milliseconds times 0.001), its exact label values (the kernel's device names, {@code cpu="0"})
 * and its exact name mangling ({@code Active(anon)} becomes {@code node_memory_Active_anon_bytes}).
 * OSHI reshapes the same files into its own cross-platform model (memory as total/available, CPU
 * ticks as an enum, disks as OSHI stores): every node_exporter field that model lacks would need a
 * second path to the file, and its global {@code oshi.util.proc.path} setting is process-wide, so
 * tests could not run two roots side by side. Reading the files ourselves behind an injected root
 * keeps each collector a few dozen lines, needs no dependency and matches node_exporter to the bit.
 * The price is Linux only; other platforms get an empty host section until they need one.
 *
 * <p>The public API is {@link io.flightdeck.collector.host.HostCollector} (run every collector
 * against one procfs root), {@link io.flightdeck.collector.host.Collector}, {@link
 * io.flightdeck.collector.host.MetricFamily} and {@link io.flightdeck.collector.host.MetricsText}
 * (render families in text format 0.0.4, ordered as node_exporter orders them).
 */
package io.flightdeck.collector.host;
