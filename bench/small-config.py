#!/usr/bin/env python3
"""Writes a plain Ignition 3.2.0 config of about 2.6 KB (files of random data) to argv[1]:
the small config the bench scripts serve."""
import base64
import json
import os
import sys

files, i = [], 0
while len(json.dumps({"ignition": {"version": "3.2.0"}, "storage": {"files": files}})) < 2600:
    payload = base64.b64encode(os.urandom(600)).decode()
    files.append({"path": f"/etc/b/{i}", "mode": 420, "contents": {"source": "data:;base64," + payload}})
    i += 1
with open(sys.argv[1], "w") as f:
    f.write(json.dumps({"ignition": {"version": "3.2.0"}, "storage": {"files": files}}, separators=(",", ":")))
