/**
 * Service discovery: where scrape targets come from. Each {@link
 * io.flightdeck.discovery.Discoverer} reports complete lists of {@link
 * io.flightdeck.discovery.TargetGroup}s; {@link io.flightdeck.discovery.Discoverers} builds them
 * from a job's configuration.
 */
package io.flightdeck.discovery;
