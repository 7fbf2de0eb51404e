"""Workers: the processes that compute for the server, each computation under a deadline.

Counting placements is exponential in the width of a frontier, and pure Python: a thread
cannot be stopped in the middle of it, and a signal-based budget (``probabilities
--time-limit``) works only in the main thread of a process. So the server computes in worker
processes, and a computation that runs past its deadline is ended the only sure way, by
killing its process; a fresh one takes its place. Each worker has an address-space limit, so
a count that grows too large fails alone, with a ``MemoryError``.

Glossary
--------
job
    A named function of :mod:`.jobs` and its argument: what a worker computes. Jobs are
    looked up by name in the worker, so nothing but the package's own functions ever runs.
reply
    ``("ok", value)``, or ``("error", status, message)``: an HTTP status and one line.
deadline
    The compute budget (:attr:`~.limits.Limits.seconds`): the longest a request waits for a
    free worker, and again the longest a job may run.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Final

from ..lifetime import end_with_parent
from .errors import RequestError

__all__ = ["Workers"]

log = logging.getLogger(__name__)

Reply = tuple[Any, ...]
"""What a worker sends back for one job (see the glossary)."""

READY: Final = "ready"
"""What a worker says once it has booted (its imports done)."""

BOOT_SECONDS: Final = 60.0
"""How long a worker may take to boot before it is given up."""


class Workers:
    """A pool of worker processes; :meth:`run` computes one job in one of them, in time.

    Parameters
    ----------
    size:
        How many processes.
    seconds:
        The deadline of each job, and of the wait for a free worker.
    memory:
        Each worker's address-space limit in MiB (``None``: none).

    Examples
    --------
    >>> with Workers(1, seconds=10.0) as workers:
    ...     workers.run("echo", [1, 2])
    [1, 2]

    Notes
    -----
    Processes are started with ``spawn`` (the server runs threads, which ``fork`` does not
    copy safely), by one thread that lives as long as the pool: on Linux a worker dies with
    the thread that started it (``PR_SET_PDEATHSIG``), so with the server however it ends.
    """

    def __init__(self, size: int, *, seconds: float, memory: int | None = None) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self.seconds = seconds
        self.memory = memory
        self._context = multiprocessing.get_context("spawn")
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._orders: queue.Queue[int | None] = queue.Queue()
        self._spawner: threading.Thread | None = None
        self._closed = False
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()

    def __enter__(self) -> Workers:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> None:
        """Start the processes; return once each has started (or failed to)."""
        ready = threading.Event()
        self._spawner = threading.Thread(
            target=self._spawn_loop, args=(ready,), name="web-workers", daemon=True
        )
        self._spawner.start()
        ready.wait()

    def run(self, job: str, argument: object, *, slow: str = "") -> Any:
        """Compute ``job`` on ``argument`` in a worker and return its value.

        Blocks the calling thread (the server calls it from a thread of its own). ``slow``
        ends the message of a job past its deadline (``": the position is too hard..."``).

        Raises
        ------
        RequestError
            The job's own refusal (its status and message); 503 when no worker is free
            within the deadline, the job runs past it (its process is then killed and
            replaced), runs out of memory, or its process dies; 500 for a bug, in one line.
        """
        if self._closed:
            raise RequestError(503, "the server is shutting down")
        began = time.monotonic()
        worker: _Worker | None
        try:
            worker = self._idle.get(timeout=self.seconds)
        except queue.Empty:
            raise RequestError(
                503,
                f"the server is busy: no worker was free within {self.seconds:g} s; try again",
            ) from None
        waited = time.monotonic() - began
        try:
            worker.conn.send((job, argument))
            if not worker.conn.poll(self.seconds):
                self._replace(worker)
                worker = None
                raise RequestError(
                    503,
                    f"the computation did not finish within {self.seconds:g} s, the server's "
                    f"compute budget{slow}",
                )
            reply: Reply = worker.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            if worker is not None:
                self._replace(worker)
                worker = None
            raise RequestError(503, "the worker computing this request ended; try again") from None
        finally:
            if worker is not None:
                self._idle.put(worker)
        log.debug(
            "job %s: waited %.1f ms, took %.1f ms",
            job,
            waited * 1000,
            (time.monotonic() - began - waited) * 1000,
        )
        if reply[0] == "ok":
            return reply[1]
        _, status, message = reply
        raise RequestError(status, message)

    def close(self) -> None:
        """Stop every worker: each is told to end, and killed if it does not at once."""
        self._closed = True
        self._orders.put(None)
        if self._spawner is not None:
            self._spawner.join(timeout=10)
        with self._lock:
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            worker.stop()

    # -- helpers --------------------------------------------------------------------------

    def _spawn_loop(self, ready: threading.Event) -> None:
        """The spawner thread: start the pool, then one worker per order until told to stop."""
        for worker in [self._spawn() for _ in range(self.size)]:  # they boot side by side
            self._enlist(worker)
        ready.set()
        while True:
            order = self._orders.get()
            if order is None or self._closed:
                return
            self._enlist(self._spawn())

    def _spawn(self) -> _Worker:
        """Start one worker process (it boots on its own: see :meth:`_enlist`)."""
        parent, child = self._context.Pipe()
        process = self._context.Process(
            target=serve,
            args=(child, self.memory, os.getpid()),
            name="mineshafted-web-worker",
            daemon=True,
        )
        process.start()
        child.close()
        return _Worker(process, parent)

    def _enlist(self, worker: _Worker) -> None:
        """Make ``worker`` idle once it says it is ready (its imports done), so that no job's
        deadline ever counts a worker's boot; one that does not boot within a minute is
        killed."""
        try:
            booted = worker.conn.poll(BOOT_SECONDS) and worker.conn.recv() == READY
        except (EOFError, OSError):
            booted = False
        if not booted:
            log.error("a worker did not start within %g s", BOOT_SECONDS)
            worker.kill()
            return
        with self._lock:
            if self._closed:
                worker.stop()
                return
            self._all.add(worker)
        self._idle.put(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and order a fresh one."""
        with self._lock:
            self._all.discard(worker)
        worker.kill()
        log.warning("a worker was killed (past its deadline, or dead); starting another")
        if not self._closed:
            self._orders.put(1)


class _Worker:
    """One process and the parent's end of its pipe."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn

    def kill(self) -> None:
        """End the process at once."""
        self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        """Close the pipe (the worker ends when it reads the end of it); kill if it lingers."""
        self.conn.close()
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.kill()


def serve(conn: Connection, memory: int | None, parent: int) -> None:
    """A worker process's life: compute each job that comes down the pipe, until it closes.

    Ctrl-C is the server's to handle (the worker ignores SIGINT); the worker ends with the
    server (on Linux through ``PR_SET_PDEATHSIG``, everywhere when the pipe closes).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent)
    if memory is not None:
        import resource

        limit = memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from .jobs import JOBS  # the jobs' imports (the solver and all) paid once, before any job

    conn.send(READY)
    while True:
        try:
            job, argument = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_computed(JOBS, job, argument, memory))


def _computed(
    jobs: dict[str, Callable[[Any], Any]], job: str, argument: object, memory: int | None
) -> Reply:
    """The reply to one job."""
    from ..errors import MineshaftedError

    try:
        return ("ok", jobs[job](argument))
    except RequestError as error:
        return ("error", error.status, str(error))
    except MineshaftedError as error:
        return ("error", 422, " ".join(str(error).split()))
    except MemoryError:
        return (
            "error",
            503,
            f"the computation ran out of memory (each worker may use {memory} MiB): the "
            "position is too large to count",
        )
    except RecursionError:
        return ("error", 422, "the input is nested too deeply to compute with")
    except Exception as error:
        log.exception("job %s failed", job)
        return ("error", 500, f"internal error ({type(error).__name__}): see the server's log")
