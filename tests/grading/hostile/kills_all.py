"""Sends SIGKILL to every process it may signal: ``kill(-1, SIGKILL)``, as any code can.

Run by a grader that is root with no sandbox, that ends every process on the machine unless
the board runs as a user of its own. So it first checks that it does: it refuses (raises) if
it runs as root, holds a capability, or shares its user id with any process but itself. Then it
starts a helper of its own, kills everything it may, and prints whether the helper died.
"""

import os
import signal
import subprocess
import time


def _alone() -> str:
    """Why this process must not kill -1, or "" when it runs as a user no other process has."""
    if 0 in os.getresuid():
        return "runs as root"
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(("CapPrm", "CapEff", "CapAmb")) and int(line.split()[1], 16):
                return f"holds capabilities: {line.strip()}"
    me, uid = os.getpid(), str(os.getuid())
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/status") as status:
                ids = next(line.split()[1:] for line in status if line.startswith("Uid:"))
        except (OSError, StopIteration):
            continue
        if uid in ids:
            return f"shares its user id with process {name}"
    return ""


def sweep_mines(bm):
    refusal = _alone()
    if refusal:
        raise RuntimeError(f"refusing to kill -1: {refusal}")
    helper = subprocess.Popen(["sleep", "30"])
    time.sleep(0.1)
    os.kill(-1, signal.SIGKILL)
    print(f"helper ended by signal {-helper.wait(timeout=5)}")
    time.sleep(0.3)  # boards beside this one are still playing: they must not be touched
    os.kill(-1, signal.SIGKILL)
    return None
