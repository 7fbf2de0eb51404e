"""A stop (Ctrl-C, SIGTERM) never lands between writing a game and counting it."""

from __future__ import annotations

import os
import signal

import pytest

from mineshafted.studies.stopping import Stopping, Terminated


@pytest.mark.parametrize(
    ("signum", "raised"), [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)]
)
def test_a_stop_inside_a_step_is_raised_when_the_step_ends(
    signum: int, raised: type[BaseException]
) -> None:
    done = []
    with pytest.raises(raised), Stopping() as stopping, stopping.step():
        os.kill(os.getpid(), signum)
        done.append("written")
        done.append("counted")
    assert done == ["written", "counted"]


def test_a_stop_outside_a_step_is_raised_at_once() -> None:
    done = []
    with pytest.raises(Terminated), Stopping():
        os.kill(os.getpid(), signal.SIGTERM)
        done.append("after")
    assert done == []


def test_the_handlers_before_are_put_back() -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with Stopping():
        assert signal.getsignal(signal.SIGTERM) is not before[1]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_host_applications_handler_is_left_alone() -> None:
    def host(signum: int, frame: object) -> None:
        pass

    before = signal.signal(signal.SIGTERM, host)
    try:
        with Stopping():
            assert signal.getsignal(signal.SIGTERM) is host
    finally:
        signal.signal(signal.SIGTERM, before)
