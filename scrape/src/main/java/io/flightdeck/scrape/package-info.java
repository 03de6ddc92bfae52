/**
 * Scraping: turns a job's discovered groups into targets with Prometheus's relabelling defaults,
 * runs one scrape loop per target and appends what it pulls, with synthetic series and staleness
 * markers, through an {@link io.flightdeck.storage.Appendable}. {@link
 * io.flightdeck.scrape.ScrapeManager} is the entry point.
 *
 * <p>HTTP: scrapes use Apache HttpClient 5's classic (blocking) API with a pooled connection
 * manager ({@link io.flightdeck.scrape.ScrapeClient}), the only third-party library of this module.
 * Each scrape already runs on a virtual thread of its own, so a blocking exchange parks that thread
 * cheaply and reads the socket without a handoff; the JDK's {@code java.net.http.HttpClient} runs
 * the same exchange as a chain of {@code CompletableFuture} stages and scheduler tasks across its
 * selector thread, which cost a quarter of the server's CPU at 1,000 targets ({@code
 * bench/README.md}, "Scrape cost"). The library is the Apache Software Foundation's long-kept
 * HTTP/1.1 client, with per-route pools, TLS through the JDK's {@code SSLContext}, proxies and
 * redirects; it depends on {@code httpcore5} and {@code slf4j-api} only.
 */
package io.flightdeck.scrape;
