"""Scrapes /metrics endpoints once a second over kept-alive connections, as Prometheus does.

Usage: keepalive_scraper.py SECONDS OUT_DIR URL...
Writes the last body of each URL to OUT_DIR/<index>.last and the number of successful scrapes of
each URL, one per line, to OUT_DIR/scrapes."""
import http.client
import sys
import time
import urllib.parse

seconds, out_dir, urls = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
targets = [urllib.parse.urlsplit(u) for u in urls]
connections = [None] * len(targets)
scrapes = [0] * len(targets)
end = time.monotonic() + seconds
while time.monotonic() < end:
    started = time.monotonic()
    for i, target in enumerate(targets):
        try:
            if connections[i] is None:
                connections[i] = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
            connections[i].request("GET", target.path)
            response = connections[i].getresponse()
            body = response.read()
            if response.status == 200:
                scrapes[i] += 1
                with open(f"{out_dir}/{i}.last", "wb") as f:
                    f.write(body)
        except (OSError, http.client.HTTPException):
            connections[i] = None  # reconnect at the next scrape, as a scraper would
    time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
with open(f"{out_dir}/scrapes", "w") as f:
    f.write("\n".join(str(n) for n in scrapes) + "\n")
