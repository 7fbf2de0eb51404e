"""Workers: the processes that compute for the server, each computation under a deadline.

Counting placements is exponential in the width of a frontier, and pure Python: a thread
cannot be stopped in the middle of it, and a signal-based budget (``probabilities
--time-limit``) works only in the main thread of a process. So the server computes in worker
processes, and a computation that runs past its deadline, or whose client has gone, is
ended the only sure way, by killing its process; a fresh one takes its place. Each worker
has an address-space limit, so a count that grows too large fails alone, with a
``MemoryError``.

Glossary
--------
job
    A named function of :mod:`.jobs` and its argument: what a worker computes. Jobs are
    looked up by name in the worker, so nothing but the package's own functions ever runs.
reply
    ``("ok", value)``, or ``("error", status, message)``: an HTTP status and one line.
arrival
    When the request reached the server (:func:`time.monotonic`): the wait for a free worker
    is bounded from here, so a request is answered within the compute budget of its arrival
    however many wait beside it.
deadline
    The compute budget (:attr:`~.limits.Limits.seconds`): the longest a request waits for a
    free worker from its arrival, and again the longest a job may run (a job may be given a
    budget of its own).
counts
    The pool's own accounting (:class:`~.poolcounts.PoolCounts`): jobs served, refused,
    late, cancelled, those running now, and the longest wait from arrival.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Final

from .errors import RequestError
from .poolcounts import PoolCounts
from .worker import READY, Reply, serve  # a reply, or the pool's own ("late",), ("ended",)

__all__ = ["PoolCounts", "Workers"]

log = logging.getLogger(__name__)

BOOT_SECONDS: Final = 60.0
"""How long a worker may take to boot before it is given up."""


class Workers:
    """A pool of worker processes; :meth:`compute` computes one job in one of them, in time.

    Parameters
    ----------
    size:
        How many processes.
    seconds:
        The longest a request waits for a free worker (from its arrival), and the deadline of
        each job unless the job is given its own.
    memory:
        Each worker's address-space limit in MiB (``None``: none).

    Examples
    --------
    Not run as a doctest: it starts a process (about a second), which the inner loop of tests
    leaves to ``tests/web/test_workers.py``.

    >>> with Workers(1, seconds=10.0) as workers:  # doctest: +SKIP
    ...     workers.run("echo", [1, 2])
    [1, 2]

    Notes
    -----
    Processes are started with ``spawn`` (the server runs threads, which ``fork`` does not
    copy safely), by one thread that lives as long as the pool: on Linux a worker dies with
    the thread that started it (``PR_SET_PDEATHSIG``), so with the server however it ends.

    A request waits for a worker in the event loop (a future in a first-come queue, with a
    timer at the budget of its arrival): no thread is held while it waits, so a thousand
    waiting requests cost a thousand small objects, and each is answered in time. A job
    then holds one thread of the pool's own (as many as workers, twice over) while it
    sends its argument and waits for the reply; cancelling the coroutine that awaits it
    kills the worker, which ends that wait at once.
    """

    def __init__(self, size: int, *, seconds: float, memory: int | None = None) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one worker, not {size}")
        self.size = size
        self.seconds = seconds
        self.memory = memory
        self.counts = PoolCounts()
        self._context = multiprocessing.get_context("spawn")
        self._idle: deque[_Worker] = deque()
        self._waiting: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[_Worker]]] = deque()
        self._orders: deque[int | None] = deque()
        self._ordered = threading.Semaphore(0)
        self._spawner: threading.Thread | None = None
        self._threads = ThreadPoolExecutor(max_workers=2 * size, thread_name_prefix="web-job")
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

    async def compute(
        self,
        job: str,
        argument: object,
        *,
        slow: str = "",
        arrived: float | None = None,
        seconds: float | None = None,
    ) -> Any:
        """Compute ``job`` on ``argument`` in a worker and return its value.

        Parameters
        ----------
        job, argument:
            What to compute (a name of :data:`.jobs.JOBS`) and on what.
        slow:
            Ends the message of a job past its deadline (``": the position is too..."``).
        arrived:
            The request's arrival (:func:`time.monotonic`); now when ``None``. The wait for
            a free worker ends :attr:`seconds` after it.
        seconds:
            The job's deadline once it runs; :attr:`seconds` when ``None``.

        Raises
        ------
        RequestError
            The job's own refusal (its status and message: 413 when it runs out of memory);
            503 when no worker is free within the budget of the arrival, the job runs past
            its deadline (its process is then killed and replaced), or its process dies; 500
            for a bug, in one line.
        asyncio.CancelledError
            The awaiting task was cancelled (its client went away): a job waiting for a
            worker leaves the queue; a running job's worker is killed and replaced.
        """
        if self._closed:
            raise RequestError(503, "the server is shutting down")
        arrived = time.monotonic() if arrived is None else arrived
        budget = self.seconds if seconds is None else seconds
        try:
            worker = await self._take(arrived + self.seconds)
        finally:
            self.counts.waited(time.monotonic() - arrived)
        began = time.monotonic()
        with worker.lock:
            worker.busy = True
        exchange = self._threads.submit(self._exchange, worker, job, argument, budget)
        try:
            # Shielded: the exchange always runs to its end, which gives the worker back or
            # replaces it; cancelling stops the job by killing the worker.
            reply = await asyncio.shield(asyncio.wrap_future(exchange))
        except asyncio.CancelledError:
            if worker.cancel():
                self.counts.count("cancelled")
                log.info("job %s cancelled: its client went away", job)
            raise
        log.debug(
            "job %s: waited %.1f ms, took %.1f ms",
            job,
            (began - arrived) * 1000,
            (time.monotonic() - began) * 1000,
        )
        if reply[0] == "ok":
            return reply[1]
        if reply[0] == "late":
            raise RequestError(
                503,
                f"the computation did not finish within {budget:g} s, the server's compute "
                f"budget{slow}",
            )
        if reply[0] == "ended":
            raise RequestError(503, "the worker computing this request ended; try again")
        _, status, message = reply
        raise RequestError(status, message)

    @property
    def free(self) -> int:
        """How many workers are free now."""
        with self._lock:
            return len(self._idle)

    @property
    def waiting(self) -> int:
        """How many requests are waiting for a worker now."""
        with self._lock:
            return len(self._waiting)

    def run(self, job: str, argument: object, *, slow: str = "") -> Any:
        """:meth:`compute` from code with no event loop running (scripts and tests)."""
        return asyncio.run(self.compute(job, argument, slow=slow))

    def close(self) -> None:
        """Stop every worker: each is told to end, and killed if it does not at once."""
        self._closed = True
        self._order(None)
        if self._spawner is not None:
            self._spawner.join(timeout=10)
        with self._lock:
            workers = list(self._all)
            self._all.clear()
            self._idle.clear()
        for worker in workers:
            worker.stop()
        self._threads.shutdown(wait=False)

    # -- helpers --------------------------------------------------------------------------

    async def _take(self, deadline: float) -> _Worker:
        """A free worker, waiting in turn until ``deadline`` at the latest.

        Raises
        ------
        RequestError
            503: none was free by then.
        """
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._idle and not self._waiting:
                return self._idle.popleft()
            waiter: asyncio.Future[_Worker] = loop.create_future()
            self._waiting.append((loop, waiter))
        try:
            worker = await asyncio.wait_for(waiter, max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            self._forget(loop, waiter)
            self.counts.count("busy")
            raise RequestError(
                503,
                f"the server is busy: no worker was free within {self.seconds:g} s of the "
                "request's arrival; try again",
            ) from None
        except asyncio.CancelledError:
            self._forget(loop, waiter)
            raise
        if _cancelling():  # handed a worker just as its client went: pass the worker on
            self._release(worker)
            raise asyncio.CancelledError
        return worker

    def _forget(self, loop: asyncio.AbstractEventLoop, waiter: asyncio.Future[_Worker]) -> None:
        """A request stopped waiting: take it out of the queue, or pass on the worker it was
        handed as it gave up (one still on its way finds it done, and is passed on then)."""
        with self._lock:
            if (loop, waiter) in self._waiting:
                self._waiting.remove((loop, waiter))
                return
        if waiter.done() and not waiter.cancelled():
            self._release(waiter.result())

    def _release(self, worker: _Worker) -> None:
        """Give ``worker`` to the first request waiting (from any thread), or make it idle."""
        with self._lock:
            if self._closed:
                worker.stop()
                return
            while self._waiting:
                loop, waiter = self._waiting.popleft()
                try:
                    loop.call_soon_threadsafe(self._hand, waiter, worker)
                except RuntimeError:  # that request's loop has closed
                    continue
                return
            self._idle.append(worker)

    def _hand(self, waiter: asyncio.Future[_Worker], worker: _Worker) -> None:
        """In the waiting request's loop: give it ``worker``, or pass the worker on if the
        request stopped waiting meanwhile."""
        if waiter.done():
            self._release(worker)
        else:
            waiter.set_result(worker)

    def _exchange(self, worker: _Worker, job: str, argument: object, seconds: float) -> Reply:
        """In a thread of the pool's own: send the job, wait for its reply until ``seconds``,
        then give the worker back (or replace it if it was late, died, or was cancelled)."""
        self.counts.count("running")
        try:
            worker.conn.send((job, argument))
            if worker.conn.poll(seconds):
                reply: Reply = worker.conn.recv()
            else:
                reply = ("late",)
        except (EOFError, OSError):
            reply = ("ended",)
        finally:
            self.counts.count("running", -1)
        with worker.lock:
            worker.busy = False
            cancelled = worker.cancelled
        if cancelled or reply[0] in ("late", "ended"):
            if not cancelled:
                self.counts.count(reply[0])
            self._replace(worker)
        else:
            self.counts.count("served")
            self._release(worker)
        return reply

    def _spawn_loop(self, ready: threading.Event) -> None:
        """The spawner thread: start the pool, then one worker per order until told to stop."""
        for worker in [self._spawn() for _ in range(self.size)]:  # they boot side by side
            self._enlist(worker)
        ready.set()
        while True:
            self._ordered.acquire()
            with self._lock:
                order = self._orders.popleft()
            if order is None or self._closed:
                return
            self._enlist(self._spawn())

    def _order(self, order: int | None) -> None:
        """Ask the spawner for one more worker (``None``: to stop)."""
        with self._lock:
            self._orders.append(order)
        self._ordered.release()

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
        """Make ``worker`` free once it says it is ready (its imports done), so that no job's
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
        self._release(worker)

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and order a fresh one."""
        with self._lock:
            self._all.discard(worker)
        worker.kill()
        log.info("a worker was stopped (past its deadline, cancelled, or dead); starting another")
        if not self._closed:
            self._order(1)


def _cancelling() -> bool:
    """Whether the current task is being cancelled."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class _Worker:
    """One process, the parent's end of its pipe, and whether a job runs on it."""

    def __init__(self, process: BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.lock = threading.Lock()
        self.busy = False
        self.cancelled = False

    def cancel(self) -> bool:
        """Stop the job running on this worker, if one is, by killing the process (from any
        thread: the thread waiting for the reply then reads the end of the pipe). Whether a
        job was stopped."""
        with self.lock:
            if not self.busy or self.cancelled:
                return False
            self.cancelled = True
            self.process.kill()
            return True

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
