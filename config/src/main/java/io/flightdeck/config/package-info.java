/**
 * {@code prometheus.yml}-compatible configuration. {@link io.flightdeck.config.ConfigLoader#load}
 * reads a file into an immutable, validated {@link io.flightdeck.config.Config}, or throws one
 * {@link io.flightdeck.config.ConfigException} naming file, line, column and field. Unknown fields
 * are errors, as in Prometheus; defaults and checks follow Prometheus's, with its wording.
 */
package io.flightdeck.config;
