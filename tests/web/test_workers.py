"""The worker pool: a job past its deadline is killed and its worker replaced, a job's refusal
comes back with its status, and a request finding every worker busy is refused in time."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from mineshafted.web import RequestError
from mineshafted.web.workers import Workers


@pytest.fixture(scope="module")
def pool() -> Iterator[Workers]:
    with Workers(1, seconds=1.0, memory=1024) as workers:
        yield workers


def test_a_job_returns_its_value(pool: Workers) -> None:
    assert pool.run("echo", {"a": [1, 2]}) == {"a": [1, 2]}


@pytest.mark.slow
def test_a_job_past_its_deadline_is_killed_and_the_pool_goes_on(pool: Workers) -> None:
    with pytest.raises(RequestError, match=r"did not finish within 1 s.*: slow") as refused:
        pool.run("sleep", 30.0, slow=": slow")
    assert refused.value.status == 503
    booting = time.monotonic()
    while pool._idle.empty():  # the replacement boots (the pool's only worker)
        assert time.monotonic() - booting < 120, "no worker took the killed one's place"
        time.sleep(0.05)
    assert pool.run("echo", 7) == 7  # a fresh worker took the killed one's place


def test_a_jobs_refusal_comes_back_with_its_status(pool: Workers) -> None:
    with pytest.raises(RequestError, match="the body is a JSON array, not an object") as refused:
        pool.run("load", b"[1]")
    assert refused.value.status == 422


def test_a_library_error_in_a_job_is_a_422_in_one_line(pool: Workers) -> None:
    with pytest.raises(RequestError, match="but at most 1 fit in the unknown cells") as refused:
        pool.run("hint", ([[1, None]], 5))
    assert refused.value.status == 422 and "\n" not in str(refused.value)


def test_an_unknown_job_is_an_internal_error_not_a_crash(pool: Workers) -> None:
    with pytest.raises(RequestError, match=r"internal error \(KeyError\)") as refused:
        pool.run("format the disk", None)
    assert refused.value.status == 500
    assert pool.run("echo", 1) == 1  # the same worker: nothing crashed


@pytest.mark.slow
def test_a_request_finding_every_worker_busy_is_refused_within_the_deadline(
    pool: Workers,
) -> None:
    taken = pool._idle.get()  # as if the only worker were computing another request
    try:
        began = time.monotonic()
        with pytest.raises(RequestError, match="the server is busy") as refused:
            pool.run("echo", 1)
        assert refused.value.status == 503 and 1.0 <= time.monotonic() - began < 30
    finally:
        pool._idle.put(taken)
    assert pool.run("echo", 2) == 2


def test_a_closed_pool_refuses_at_once() -> None:
    workers = Workers(1, seconds=1.0)
    workers.start()
    workers.close()
    with pytest.raises(RequestError, match="shutting down"):
        workers.run("echo", 1)
