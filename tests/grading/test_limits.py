"""The grading limits: every one must be positive and the smallest positive one is accepted; the
options that carry them to the child, in bytes and seconds."""

from __future__ import annotations

import dataclasses

import pytest

from mineshafted.grading import GradingError, Limits
from mineshafted.grading.limits import MIB

FIELDS = [field.name for field in dataclasses.fields(Limits)]


def test_every_field_is_a_checked_limit() -> None:
    assert FIELDS == [
        "timeout",
        "memory_mb",
        "file_mb",
        "disk_mb",
        "processes",
        "output_cap",
        "message_cap",
        "grace",
    ]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("value", [0, -1])
def test_each_limit_must_be_positive(field: str, value: int) -> None:
    with pytest.raises(GradingError) as raised:
        Limits(**{field: value})
    assert str(raised.value) == f"the grading limit {field} must be positive"


@pytest.mark.parametrize("field", FIELDS)
def test_the_smallest_limit_is_accepted(field: str) -> None:
    smallest = 0.001 if field in ("timeout", "grace") else 1
    assert getattr(Limits(**{field: smallest}), field) == smallest


def test_the_child_is_told_each_limit_in_bytes_and_seconds() -> None:
    limits = Limits(timeout=2.2, memory_mb=3, file_mb=5, processes=7)
    assert limits.child_arguments() == [
        "--memory",
        str(3 * MIB),
        "--cpu",
        "7",  # the import's 3 s and the sweep's, and one more
        "--file-size",
        str(5 * MIB),
        "--processes",
        "7",
    ]
