"""A training job whose loss turns NaN while a flag file exists, as a diverging run does."""
import math
import os
import sys
import time

from prometheus_client import Gauge, start_http_server

port = int(sys.argv[1])
flag = sys.argv[2]
loss = Gauge("llm_train_loss", "Current training loss.")
step = Gauge("llm_train_step", "Optimizer steps taken.")

start_http_server(port, addr="127.0.0.1")
n = 0
while True:
    n += 1
    step.set(n)
    loss.set(math.nan if os.path.exists(flag) else 2.0 / (1 + n * 0.01))
    time.sleep(0.2)
