"""Pushes a training job's metrics with prometheus_client, as a job that cannot be scraped would.

Usage: push_job.py PORT full|loss-only|delete [RUN]
"full" pushes loss, step counter and per-GPU memory; "loss-only" pushes the loss alone, so that a
PUT of it replaces the group and ends the other series; "delete" deletes the group. The group is
job "trainer" with grouping label run=RUN (default "lora/7").
"""
import sys

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    delete_from_gateway,
    push_to_gateway,
)

port, mode = sys.argv[1], sys.argv[2]
run = sys.argv[3] if len(sys.argv) > 3 else "lora/7"
gateway = "127.0.0.1:" + port
# A "/" in a grouping value makes the client send it base64-encoded.
grouping_key = {"run": run}
if mode == "delete":
    delete_from_gateway(gateway, job="trainer", grouping_key=grouping_key)
    sys.exit(0)
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
push_to_gateway(gateway, job="trainer", registry=registry, grouping_key=grouping_key)
