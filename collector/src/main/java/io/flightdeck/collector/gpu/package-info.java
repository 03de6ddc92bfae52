/**
 * GPU metrics under dcgm-exporter's names, read from NVML in-process (JNA) or, as a fallback, from
 * {@code nvidia-smi -q -x} XML, so dashboards and alerts written for dcgm-exporter work unchanged.
 *
 * <p><b>Series.</b> Each {@code DCGM_FI_*} family has dcgm-exporter's name, TYPE, HELP and units
 * (see {@code default-counters.csv}) and the labels {@code gpu}, {@code UUID}, {@code pci_bus_id},
 * {@code device} ({@code nvidia<index>}), {@code modelName}, {@code Hostname} and {@code
 * DCGM_FI_DRIVER_VERSION}. {@code DCGM_FI_PROF_GR_ENGINE_ACTIVE}, {@code
 * DCGM_FI_PROF_PIPE_TENSOR_ACTIVE} and {@code DCGM_FI_PROF_DRAM_ACTIVE} (ratios 0 to 1) come from
 * NVML's GPM, on Hopper and newer only, as the rate between this collection's GPM sample and the
 * previous one: none on a GPU's first collection, none on older GPUs or drivers. Not exported: the
 * other {@code DCGM_FI_PROF_*} activity ratios (the default CSV leaves them out) and the vGPU
 * license status. {@code DCGM_FI_PROF_PCIE_TX_BYTES} and {@code _RX_BYTES} are approximated from
 * NVML's 20 ms PCIe throughput sample and carry {@code source="nvml_pcie_throughput"} to say so.
 * {@code DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL} is NVML's data TX plus RX over all links, in KiB.
 * {@code DCGM_FI_DEV_CLOCKS_EVENT_REASONS} (not in the default CSV) is the reason bitmask, also
 * split into {@code flightdeck_gpu_clock_event_reason_active{reason}}.
 *
 * <p><b>Errors.</b> A reading NVML does not offer (NOT_SUPPORTED, NO_PERMISSION, NOT_FOUND,
 * NO_DATA, a missing symbol) leaves its series out; sentinel values are never exported. Other
 * errors also leave the series out and are listed in the scrape's failures.
 *
 * <p><b>Health.</b> {@code flightdeck_gpu_healthy{...,reason}} has one series per GPU ever seen: 1
 * with {@code reason="ok"}, or 0 with the reason the GPU was given up: {@code gpu_is_lost}, {@code
 * reset_required}, {@code gpu_not_found}, {@code driver_version_mismatch} or {@code
 * nvml_error_<code>} (for example when its handle cannot be obtained). A GPU given up is not polled
 * again until the collector restarts, keeps the identity labels it had, and never disappears
 * silently.
 *
 * <p><b>Xid.</b> {@code DCGM_FI_DEV_XID_ERRORS} is the last Xid per GPU with {@code err_code} and
 * {@code err_msg} (0 and "No Error" before any), and {@code flightdeck_gpu_xid_errors_total{xid,
 * description}} counts every occurrence; descriptions come from {@code xid-catalog.tsv}.
 *
 * <p><b>Processes.</b> {@code flightdeck_gpu_process_memory_bytes{pid,command,container_id,
 * pod_uid,rank,local_rank,world_size}}, the process labels present only when procfs tells them.
 *
 * <p><b>Fallback.</b> Where NVML cannot be loaded but {@code nvidia-smi} is on the PATH, {@link
 * io.flightdeck.collector.gpu.NvidiaSmiCollector} runs {@code nvidia-smi -q -x} at each collection
 * and serves what its XML offers under the same names and labels; Xid events and GPM ratios need
 * NVML and are absent then.
 *
 * <p>The public API is {@link io.flightdeck.collector.gpu.GpuCollector}, its {@link
 * io.flightdeck.collector.gpu.GpuCollectorOptions}, {@link
 * io.flightdeck.collector.gpu.NvidiaSmiCollector}, and the {@link io.flightdeck.collector.gpu.Nvml}
 * contract.
 */
package io.flightdeck.collector.gpu;
