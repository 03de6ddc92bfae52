"""A stand-in training job: exposes its progress with prometheus_client as our users do."""
import sys
import time

from prometheus_client import Counter, Gauge, Histogram, start_http_server

port = int(sys.argv[1])
loss = Gauge("llm_train_loss", "Current training loss.")
step = Gauge("llm_train_step", "Optimizer steps taken.")
memory = Gauge("gpu_memory_used_mb", "CUDA memory allocated, in MB.", ["device"])
samples = Counter("llm_train_samples", "Training samples consumed.")
step_time = Histogram("llm_train_step_seconds", "Time per optimizer step.")

start_http_server(port, addr="127.0.0.1")
memory.labels(device="cuda:0").set(40960)
loss.set(1.25)
n = 0
while True:
    n += 1
    step.set(n)
    samples.inc(8)
    step_time.observe(0.2)
    time.sleep(0.2)
