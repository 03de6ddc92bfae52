"""A training job whose step counter stops while a flag file exists, as a hung rank makes it.

The process keeps serving /metrics, so the job stays up: only the step stops moving."""
import os
import sys
import time

from prometheus_client import Gauge, start_http_server

port = int(sys.argv[1])
flag = sys.argv[2]
step = Gauge("llm_train_step", "Optimizer steps taken.")
loss = Gauge("llm_train_loss", "Current training loss.")

start_http_server(port, addr="127.0.0.1")
n = 0
while True:
    if not os.path.exists(flag):
        n += 1
        step.set(n)
        loss.set(2.0 / (1 + n * 0.01))
    time.sleep(0.2)
