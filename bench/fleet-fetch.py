#!/usr/bin/env python3
"""Fetches every machine's full config once, with its own token, as its Ignition would.

Usage: fleet-fetch.py ASSET_DIR PORT POOL

Reads auth/tokens.json of ASSET_DIR for the machine tokens, then GETs /config/POOL from
https://127.0.0.1:PORT with each one (4 keep-alive connections, the serving CA trusted).
Exits non-zero if any answer is not 200 or not the whole config. Prints the count.
"""
import http.client
import json
import os
import ssl
import sys
import threading

assets, port, pool = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(os.path.join(assets, "auth/tokens.json")) as f:
    tokens = [t for t in json.load(f)["tokens"] if t.get("machine")]
ctx = ssl.create_default_context(cafile=os.path.join(assets, "tls/mcs-ca.crt"))
accept = "application/vnd.coreos.ignition+json;version=3.3.0, */*;q=0.1"
failed = []


def worker(part):
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx)
    for t in part:
        bearer = f"Bearer {t['id']}.{t['secret']}"
        conn.request("GET", f"/config/{pool}", headers={"Authorization": bearer, "Accept": accept})
        r = conn.getresponse()
        body = r.read()
        if r.status != 200 or not body.startswith(b"{"):
            failed.append(f"{t['machine']}: {r.status}")
            return
        if r.getheader("Connection", "").lower() == "close":
            conn.close()
            conn = http.client.HTTPSConnection("127.0.0.1", port, context=ctx)
    conn.close()


threads = [threading.Thread(target=worker, args=(tokens[i::4],)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
if failed:
    sys.exit(f"fetches failed: {failed[:5]}")
print(len(tokens))
