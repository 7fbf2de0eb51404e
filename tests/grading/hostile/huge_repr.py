"""Sends an unreadable answer whose repr is 30 MiB, straight to the channel."""

import os


def sweep_mines(bm):
    out = bm._channel._out
    out.write(b'{"unreadable": {"type": "set", "repr": "' + b"y" * (30 * 1024 * 1024) + b'"}}\n')
    out.flush()
    os._exit(0)
