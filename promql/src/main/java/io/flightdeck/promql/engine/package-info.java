/**
 * PromQL evaluation with Prometheus 3's semantics, against any {@code storage.Queryable}.
 *
 * <p>{@link io.flightdeck.promql.engine.Engine} is the entry point: it limits concurrency, opens
 * one storage snapshot per query over the span the query's selectors read, and returns a {@link
 * io.flightdeck.promql.engine.QueryResult} shaped as the HTTP API answers. Evaluation follows
 * Prometheus's engine: every instant-vector or scalar node yields series with one point per step;
 * operators, aggregations and most functions then work step by step on the vectors gathered from
 * their arguments. Functions over range vectors read each series once over the whole query span and
 * slide their window along the steps, so a range query costs one pass over the data, not one per
 * step. Subqueries run a nested evaluation over their own aligned steps.
 *
 * <p>Numbers follow Prometheus to the bit where it matters: Kahan-Neumaier sums, Go's {@code
 * math.Pow} and {@code %g}, the XXH64 label hash behind {@code limit_ratio}, RE2 regexes in {@code
 * label_replace}. Errors carry Prometheus's messages; annotations carry its texts and positions.
 * Native histograms are not supported: the storage keeps floats only.
 */
package io.flightdeck.promql.engine;
