"""Holds 400 MiB, then forks a child that takes 300 MiB more: together past a 576 MiB cgroup,
each under a 512 MiB address space; the biggest process, this one, is what the kernel ends."""

import os
import time

MIB = 1024 * 1024


def sweep_mines(bm):
    block = b"x" * (400 * MIB)
    if os.fork() == 0:
        del block  # the child's address space shrinks back, so its own share fits
        share = b"y" * (300 * MIB)
        while share:
            time.sleep(1)
    while block:
        time.sleep(1)
