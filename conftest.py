"""The inner loop's guard: a report of the tests not marked slow that took over half a second.

``pytest -m "not slow"`` is the inner loop and should take about a minute; a test that takes
over about half a second belongs to the slow set (``@pytest.mark.slow``), which CI runs with
the rest. After every run this plugin lists the unmarked tests whose setup, call and teardown
together took longer than ``MINESHAFTED_SLOW_SECONDS`` (default 0.5), slowest first, so that a
new slow test is seen the day it lands. It reports and never fails: a test's verdict must not
depend on the machine's load, and a time is a measurement of the machine as much as the test.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Generator

import pytest

_THRESHOLD_VARIABLE = "MINESHAFTED_SLOW_SECONDS"
_SHOWN = 30
"""At most this many slow unmarked tests are named; the count says how many there were."""

_seconds: defaultdict[str, float] = defaultdict(float)
"""Test id -> its setup, call and teardown seconds so far, for tests not marked slow."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if item.get_closest_marker("slow") is None:
        _seconds[item.nodeid] += call.duration
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    threshold = _threshold()
    slow = sorted(
        ((seconds, test) for test, seconds in _seconds.items() if seconds > threshold),
        reverse=True,
    )
    if not slow:
        return
    terminalreporter.section(f"unmarked tests over {threshold:g} s (mark them slow)")
    for seconds, test in slow[:_SHOWN]:
        terminalreporter.write_line(f"{seconds:6.2f}s {test}")
    if len(slow) > _SHOWN:
        terminalreporter.write_line(f"... and {len(slow) - _SHOWN} more")


def _threshold() -> float:
    """The seconds over which an unmarked test is reported (``MINESHAFTED_SLOW_SECONDS``)."""
    text = os.environ.get(_THRESHOLD_VARIABLE, "")
    try:
        value = float(text) if text else 0.5
    except ValueError:
        return 0.5
    return value if value > 0 else 0.5
