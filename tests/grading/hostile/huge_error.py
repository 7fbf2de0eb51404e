"""Sends an error message of 60 MiB straight to the channel (past the child's own cut)."""

import os


def sweep_mines(bm):
    out = bm._channel._out
    out.write(
        b'{"error": {"type": "ValueError", "message": "' + b"x" * (60 * 1024 * 1024) + b'"}}\n'
    )
    out.flush()
    os._exit(0)
