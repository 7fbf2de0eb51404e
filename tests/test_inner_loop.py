"""The inner loop's guard (the repository's ``conftest.py``): unmarked slow tests are named."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

GUARD = Path(__file__).resolve().parent.parent / "conftest.py"
"""The plugin under test: the repository's root ``conftest.py``."""

TESTS = """
import pytest

def test_unmarked():
    pass

@pytest.mark.slow
def test_marked():
    pass
"""


def _run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, threshold: str) -> list[str]:
    pytester.makeconftest(GUARD.read_text(encoding="utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    slow: slow\n")
    pytester.makepyfile(test_some=TESTS)
    monkeypatch.setenv("MINESHAFTED_SLOW_SECONDS", threshold)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # only the guard: a fast run
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    return result.outlines


def test_an_unmarked_test_over_the_threshold_is_named_and_a_marked_one_is_not(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _run(pytester, monkeypatch, "1e-12")
    assert any("unmarked tests over 1e-12 s" in line for line in lines)
    assert any(line.endswith("test_some.py::test_unmarked") for line in lines)
    assert not any("test_marked" in line for line in lines)


def test_nothing_is_reported_when_every_unmarked_test_is_under_the_threshold(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = _run(pytester, monkeypatch, "3600")
    assert not any("unmarked tests over" in line for line in lines)
