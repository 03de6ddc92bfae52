/**
 * Scraping: turns a job's discovered groups into targets with Prometheus's relabelling defaults,
 * runs one scrape loop per target and appends what it pulls, with synthetic series and staleness
 * markers, through an {@link io.flightdeck.storage.Appendable}. {@link
 * io.flightdeck.scrape.ScrapeManager} is the entry point.
 */
package io.flightdeck.scrape;
