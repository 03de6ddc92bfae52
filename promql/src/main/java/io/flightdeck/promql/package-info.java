/**
 * PromQL as Prometheus 3.x speaks it. {@link io.flightdeck.promql.PromQL#parse(String)} turns a
 * query into a checked syntax tree (package {@code parser}); evaluation is to follow.
 */
package io.flightdeck.promql;
