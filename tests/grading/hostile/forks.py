"""Forks up to 200 children that sleep, then raises saying how many forks succeeded."""

import os
import time

TRIES = 200


def sweep_mines(bm):
    forked = 0
    for _ in range(TRIES):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            while True:
                time.sleep(1)
        forked += 1
    raise RuntimeError(f"forked {forked} of {TRIES}")
