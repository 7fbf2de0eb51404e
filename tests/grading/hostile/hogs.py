"""Forks four children that each take 300 MiB and hold it, then raises saying how much memory
the children still alive hold together (read from ``/proc``, once each has its share or died)."""

import os
import time

CHILDREN = 4
SHARE_MIB = 300


def sweep_mines(bm):
    pipes = {}
    for _ in range(CHILDREN):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            share = b"x" * (SHARE_MIB * 1024 * 1024)  # every page written, so resident
            os.write(write, b"held")
            while share:
                time.sleep(1)
        os.close(write)
        pipes[pid] = read
    for read in pipes.values():
        os.read(read, 4)  # "held", or nothing once the child is gone
    alive = {pid: _resident_mib(pid) for pid in pipes}
    alive = {pid: mib for pid, mib in alive.items() if mib}
    raise RuntimeError(f"held {sum(alive.values())} MiB in {len(alive)} children")


def _resident_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0
