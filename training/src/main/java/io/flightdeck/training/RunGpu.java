package io.flightdeck.training;

/**
 * One GPU a run uses.
 *
 * @param host the host as dcgm-exporter names it ({@code Hostname}, else the host part of {@code
 *     instance})
 * @param gpu the GPU index, dcgm-exporter's {@code gpu} label
 * @param uuid the GPU's {@code UUID}, null when no series tells it
 */
public record RunGpu(String host, String gpu, String uuid) {}
