/**
 * Prometheus's PromQL test-script language ({@code *.test} files, see {@code
 * ../shared/docs/promqltest-format.md}): {@link io.flightdeck.promqltest.ScriptParser} turns a
 * script into a {@link io.flightdeck.promqltest.Script} of commands, {@link
 * io.flightdeck.promqltest.ScriptRunner} runs it against the PromQL engine on the embedded database
 * and {@link io.flightdeck.promqltest.ReportWriter} prints the outcomes.
 */
package io.flightdeck.promqltest;
