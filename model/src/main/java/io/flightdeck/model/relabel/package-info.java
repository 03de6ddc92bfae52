/**
 * Prometheus-compatible relabelling: {@link io.flightdeck.model.relabel.RelabelConfig} is one
 * validated step and {@link io.flightdeck.model.relabel.Relabeler#process} applies a list of them
 * to a label set. Regular expressions use RE2 syntax through RE2/J, as Go's do.
 */
package io.flightdeck.model.relabel;
