"""Pushes a training job's metrics with prometheus_client, as a job that cannot be scraped would.

Usage: push_job.py PORT full|loss-only
"full" pushes loss, step counter and per-GPU memory; "loss-only" pushes the loss alone, so that a
PUT of it replaces the group and ends the other series.
"""
import sys

from prometheus_client import CollectorRegistry, Counter, Gauge, push_to_gateway

port, mode = sys.argv[1], sys.argv[2]
registry = CollectorRegistry()
loss = Gauge("train_loss", "Training loss.", registry=registry)
if mode == "full":
    loss.set(0.42)
    Counter("train_steps", "Optimizer steps.", registry=registry).inc(5)
    memory = Gauge("gpu_memory_used_mb", "GPU memory in use.", ["device"], registry=registry)
    memory.labels(device="0").set(1024)
    memory.labels(device="1").set(2048)
else:
    loss.set(0.40)
# A "/" in a grouping value makes the client send it base64-encoded.
push_to_gateway(
    "127.0.0.1:" + port, job="trainer", registry=registry, grouping_key={"run": "lora/7"}
)
