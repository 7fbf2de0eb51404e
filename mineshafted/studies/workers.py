"""Workers: the processes a study's chunks are played in, and what each is sent.

A worker leaves Ctrl-C and SIGTERM to the parent (which stops the study cleanly) and ends
when the parent ends, however it ends. A pool of them is fed a few chunks ahead, so that an
endless study runs in bounded memory.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from ..lifetime import end_with_parent
from .kind import Kind, L, Parts, Player

__all__ = ["AHEAD", "in_processes", "part_of", "play_chunk", "setup"]

AHEAD = 4
"""Chunks submitted ahead per worker: enough to keep every worker busy."""


def play_chunk(study: Player[L], indices: Sequence[int]) -> list[L]:
    """Play the games ``indices`` of ``study`` (in a worker)."""
    return [study.play(i) for i in indices]


def part_of(study: Kind[L], chunk: Sequence[int]) -> Player[L]:
    """What a worker is sent to play ``chunk``: the study, or the chunk's part of it."""
    if isinstance(study, Parts):
        part: Player[L] = study.part(chunk)
        return part
    return study


def setup() -> None:
    """In a worker process: leave Ctrl-C and SIGTERM to the parent, which stops the study
    cleanly, and end when the parent ends, however it ends (``kill -9`` included)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _end_with_parent()


def _end_with_parent() -> None:
    """End this process when its parent dies.

    On Linux the kernel is asked to send ``SIGKILL`` on the parent's death
    (``PR_SET_PDEATHSIG``); everywhere, a daemon thread also watches the parent's pid
    (every 0.2 s) and ends the process once it has been re-parented.
    """
    parent = os.getppid()
    end_with_parent(parent)

    def watch() -> None:
        while True:
            time.sleep(0.2)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def in_processes(
    study: Kind[L], chunks: Iterator[list[int]], jobs: int
) -> Generator[list[L], None, None]:
    """Chunks played by a pool of ``jobs`` processes, started in order, at most :data:`AHEAD`
    per worker submitted at once (so an endless study runs in bounded memory)."""
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=setup)
    try:
        pending: set[Future[list[L]]] = set()
        for chunk in itertools.islice(chunks, jobs * AHEAD):
            pending.add(pool.submit(play_chunk, part_of(study, chunk), chunk))
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=id):
                for chunk in itertools.islice(chunks, 1):
                    pending.add(pool.submit(play_chunk, part_of(study, chunk), chunk))
                yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
