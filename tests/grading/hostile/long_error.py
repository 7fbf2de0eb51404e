"""Sends an error under the channel's cap whose type name and message are far over their caps."""

import json
import os


def sweep_mines(bm):
    error = {"type": "T" * 5000, "message": "m" * 60_000}
    bm._channel._out.write(json.dumps({"error": error}).encode() + b"\n")
    bm._channel._out.flush()
    os._exit(0)
