"""Answers with one line of about 60 MiB made of empty lists, straight to the channel."""

import os


def sweep_mines(bm):
    out = bm._channel._out
    out.write(b'{"result": [' + b"[]," * (20 * 1024 * 1024) + b"[]]}\n")
    out.flush()
    os._exit(0)
