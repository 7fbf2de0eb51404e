"""The worker pool: a job past its deadline is killed and its worker replaced, a job's refusal
comes back with its status, a request finding every worker busy is refused within the budget
of its arrival, and a job whose client has gone is stopped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from mineshafted.web import RequestError
from mineshafted.web.workers import Workers


@pytest.fixture(scope="module")
def pool() -> Iterator[Workers]:
    with Workers(1, seconds=1.0, memory=1024) as workers:
        yield workers


def _until(condition: object, *, within: float = 120.0) -> None:
    """Wait (in short polls, at most ``within`` seconds: a generous bound) until
    ``condition()`` holds."""
    began = time.monotonic()
    while not condition():  # type: ignore[operator]
        assert time.monotonic() - began < within, "the pool never got there"
        time.sleep(0.02)


def test_a_job_returns_its_value(pool: Workers) -> None:
    assert pool.run("echo", {"a": [1, 2]}) == {"a": [1, 2]}


@pytest.mark.slow
def test_a_job_past_its_deadline_is_killed_and_the_pool_goes_on(pool: Workers) -> None:
    late = pool.counts.late
    with pytest.raises(RequestError, match=r"did not finish within 1 s.*: slow") as refused:
        pool.run("sleep", 30.0, slow=": slow")
    assert refused.value.status == 503 and pool.counts.late == late + 1
    _until(lambda: pool.free == 1)  # the replacement boots (the pool's only worker)
    assert pool.run("echo", 7) == 7  # a fresh worker took the killed one's place


def test_a_jobs_refusal_comes_back_with_its_status(pool: Workers) -> None:
    with pytest.raises(RequestError, match="the body is a JSON array, not an object") as refused:
        pool.run("load", b"[1]")
    assert refused.value.status == 422


def test_a_library_error_in_a_job_is_a_422_in_one_line(pool: Workers) -> None:
    with pytest.raises(RequestError, match="but at most 1 fit in the unknown cells") as refused:
        pool.run("hint", ([[1, None]], 5))
    assert refused.value.status == 422 and "\n" not in str(refused.value)


def test_a_count_past_the_memory_budget_is_a_413_naming_the_frontier() -> None:
    from mineshafted.solver.count import CountTooLargeError
    from mineshafted.web.worker import reply_to

    def wide(_: object) -> object:
        raise CountTooLargeError(cells=432, memory=512)

    status, code, message = reply_to({"analyze": wide}, "analyze", None, 1024)
    # The position is valid (not 422), and too wide on every retry (not 503: "try later").
    assert (status, code) == ("error", 413)
    assert "512 MiB" in message and "432 unknown cells" in message and "--memory" not in message


def test_a_worker_out_of_memory_is_a_413_not_a_try_later() -> None:
    from mineshafted.web.worker import reply_to

    def huge(_: object) -> object:
        raise MemoryError

    status, code, message = reply_to({"analyze": huge}, "analyze", None, 2048)
    assert (status, code) == ("error", 413)
    assert message.startswith("the computation ran out of memory (each worker may use 2048 MiB)")


def test_an_unknown_job_is_an_internal_error_not_a_crash(pool: Workers) -> None:
    with pytest.raises(RequestError, match=r"internal error \(KeyError\)") as refused:
        pool.run("format the disk", None)
    assert refused.value.status == 500
    assert pool.run("echo", 1) == 1  # the same worker: nothing crashed


@pytest.mark.slow
def test_the_wait_for_a_worker_is_bounded_from_the_requests_arrival() -> None:
    # The job's deadline is 60 s and the budget 30 s: a request that arrived 60 s ago and
    # finds the only worker busy is refused at once. Counted from when the pool took it up,
    # it would wait 30 s; the bound below (15 s) is generous for a loaded machine.
    async def scenario(workers: Workers) -> tuple[float, str]:
        holder = asyncio.ensure_future(workers.compute("sleep", 50.0, seconds=60.0))
        while workers.counts.running == 0:
            await asyncio.sleep(0.02)
        began = time.monotonic()
        try:
            await workers.compute("echo", 1, arrived=began - 60.0)
        except RequestError as error:
            message = str(error)
        holder.cancel()
        await asyncio.gather(holder, return_exceptions=True)
        return time.monotonic() - began, message

    with Workers(1, seconds=30.0, memory=1024) as workers:
        took, message = asyncio.run(scenario(workers))
        assert "no worker was free within 30 s of the request's arrival" in message
        assert took < 15.0 and workers.counts.busy == 1


@pytest.mark.slow
def test_a_running_job_whose_client_went_away_is_stopped(pool: Workers) -> None:
    _until(lambda: pool.free == 1)
    cancelled = pool.counts.cancelled

    async def scenario() -> None:
        job = asyncio.ensure_future(pool.compute("sleep", 100.0, seconds=200.0))
        while pool.counts.running == 0:
            await asyncio.sleep(0.02)
        job.cancel()  # what the app does when the client disconnects
        with pytest.raises(asyncio.CancelledError):
            await job

    asyncio.run(scenario())
    assert pool.counts.cancelled == cancelled + 1
    _until(lambda: pool.counts.running == 0)  # killed: not computing 100 s for nobody
    _until(lambda: pool.free == 1)  # and replaced
    assert pool.run("echo", 3) == 3


def test_a_waiting_request_whose_client_went_away_leaves_the_queue(pool: Workers) -> None:
    _until(lambda: pool.free == 1)

    async def scenario() -> int:
        taken = await pool._take(time.monotonic() + 1.0)  # as if another job held the worker
        waiter = asyncio.ensure_future(pool.compute("echo", 1, arrived=time.monotonic() + 60))
        while pool.waiting == 0:
            await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        left = pool.waiting
        pool._release(taken)
        return left

    assert asyncio.run(scenario()) == 0
    assert pool.free == 1 and pool.run("echo", 2) == 2


def test_a_request_finding_every_worker_busy_is_refused_503(pool: Workers) -> None:
    _until(lambda: pool.free == 1)

    async def scenario() -> RequestError:
        taken = await pool._take(time.monotonic() + 1.0)
        try:
            with pytest.raises(RequestError, match="the server is busy") as refused:
                await pool.compute("echo", 1, arrived=time.monotonic() - 1.0)
        finally:
            pool._release(taken)
        return refused.value

    assert asyncio.run(scenario()).status == 503
    assert pool.run("echo", 2) == 2


@pytest.mark.slow  # starts a pool of its own
def test_a_closed_pool_refuses_at_once() -> None:
    workers = Workers(1, seconds=1.0)
    workers.start()
    workers.close()
    with pytest.raises(RequestError, match="shutting down"):
        workers.run("echo", 1)
