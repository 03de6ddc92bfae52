/**
 * Prometheus's PromQL test-script language ({@code *.test} files, see {@code
 * ../shared/docs/promqltest-format.md}): {@link io.flightdeck.promqltest.ScriptParser} turns a
 * script into a {@link io.flightdeck.promqltest.Script} of commands that a runner executes.
 */
package io.flightdeck.promqltest;
