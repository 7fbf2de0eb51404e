"""Names its process "sweeping" once its sweep has begun, then never answers."""

import ctypes
import time


def sweep_mines(bm):
    ctypes.CDLL(None).prctl(15, b"sweeping", 0, 0, 0)  # PR_SET_NAME: seen in /proc/PID/comm
    while True:
        time.sleep(1)
