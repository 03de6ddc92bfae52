package io.flightdeck.remote;

/** What a text-ingestion endpoint answers: a status code and a plain-text body (may be empty). */
public record IngestResponse(int status, String body) {}
