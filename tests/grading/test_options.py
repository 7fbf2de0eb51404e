"""The grading options: one model, checked alike from the command line and from a file, read
back from the files earlier versions wrote."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mineshafted.cli import app
from mineshafted.grading import Sandbox
from mineshafted.grading.autograder import AutograderConfig
from mineshafted.grading.options import (
    DEFAULT_MAX_TIMEOUTS,
    Disallowed,
    GradeOptions,
    GradeOptionsError,
    permitted,
)

runner = CliRunner()

modules = st.frozensets(st.sampled_from(["itertools", "math", "collections", "functools"]))

options = st.builds(
    GradeOptions,
    file=st.none() | st.sampled_from(["lab.py", "solution.py"]),
    allow=st.none() | modules,
    timeout=st.none() | st.floats(0.1, 86_400, allow_nan=False),
    memory_mb=st.integers(64, 1024 * 1024),
    sandbox=st.none() | st.sampled_from(list(Sandbox)),
    max_timeouts=st.integers(0, 10_000),
)


@given(options)
def test_options_read_back_what_they_write(chosen: GradeOptions) -> None:
    written = json.loads(json.dumps(chosen.to_json()))
    assert GradeOptions.from_json(written, "run.json") == chosen
    assert AutograderConfig.from_json({**written, "visibility": "hidden"}, "x").options == chosen


# Each bad value: (key, JSON value, the flag and its text on the command line, the reason).
BAD = [
    ("memory_mb", math.inf, None, "must be a whole number of MiB from 64 to 1048576, not Infinity"),
    ("memory_mb", 1, ["--memory", "1"], None),
    ("memory_mb", 10**30, ["--memory", str(10**30)], "must be a whole number of MiB"),
    ("memory_mb", "x", None, 'must be a whole number of MiB from 64 to 1048576, not "x"'),
    ("memory_mb", None, None, "must be a whole number of MiB from 64 to 1048576, not null"),
    ("memory_mb", 1024.0, None, "must be a whole number of MiB from 64 to 1048576, not 1024.0"),
    ("timeout", "x", None, 'must be a number of seconds from 0.1 to 86400, not "x"'),
    ("timeout", math.inf, ["--timeout", "inf"], "not Infinity"),
    ("timeout", math.nan, ["--timeout", "nan"], "not NaN"),
    ("timeout", 0, None, "must be a number of seconds from 0.1 to 86400, not 0"),
    ("timeout", True, None, "must be a number of seconds from 0.1 to 86400, not true"),
    ("file", 5, None, "5 is not a file name (no folder in it)"),
    ("file", "", ["--file", ""], '"" is not a file name (no folder in it)'),
    ("file", "a/b.py", ["--file", "a/b.py"], '"a/b.py" is not a file name (no folder in it)'),
    ("file", "..", ["--file", ".."], '".." is not a file name (no folder in it)'),
    ("allow", "abc", None, 'must be a list of module names, not "abc"'),
    ("allow", ["a b"], ["--allow", "a b"], '"a b" is not a module name'),
    ("allow", [5], None, "must be a list of module names"),
    ("sandbox", "docker", None, 'must be bwrap or none, not "docker"'),
    ("disallowed", "warn", None, 'must be block or flag, not "warn"'),
    ("max_timeouts", -1, None, "must be a whole number from 0 (no limit) to 10000, not -1"),
    ("max_timeouts", 1.5, None, "must be a whole number from 0 (no limit) to 10000, not 1.5"),
]


@pytest.mark.parametrize(("key", "value", "flag", "reason"), BAD)
def test_a_bad_value_in_a_file_is_one_line_naming_the_file_and_the_key(
    key: str, value: object, flag: list[str] | None, reason: str | None
) -> None:
    data = {**GradeOptions(allow=frozenset({"x"})).to_json(), key: value}
    with pytest.raises(GradeOptionsError) as raised:
        GradeOptions.from_json(data, "out/run.json")
    assert raised.value.where == f'out/run.json: "{key}"'
    if reason is not None:
        assert reason in raised.value.reason
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("key", "value", "flag", "reason"), [case for case in BAD if case[2] is not None]
)
def test_the_command_line_refuses_what_a_file_refuses_with_the_same_reason(
    tmp_path: Path, key: str, value: object, flag: list[str], reason: str | None
) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text("x = 1\n")
    data = {**GradeOptions(allow=frozenset({"x"})).to_json(), key: value}
    with pytest.raises(GradeOptionsError) as raised:
        GradeOptions.from_json(data, "run.json")
    out = tmp_path / "out"
    done = runner.invoke(app, ["grade", "class", str(folder), *flag, "--out", str(out)])
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr == f"error: {flag[0]}: {raised.value.reason}\n"
    assert not out.exists()


@pytest.mark.parametrize("data", [[], "options", 5, None])
def test_options_that_are_not_an_object_are_one_line(data: object) -> None:
    with pytest.raises(GradeOptionsError, match="the options are not a JSON object"):
        GradeOptions.from_json(data, "run.json")


def test_a_file_an_earlier_version_wrote_is_read_as_it_was_graded() -> None:
    earlier = {"file": None, "allow": ["itertools"], "timeout": 5, "memory_mb": 512}
    read = GradeOptions.from_json({**earlier, "sandbox": "none"}, "run.json")
    assert read.allow == {"itertools"} and read.timeout == 5.0 and read.memory_mb == 512
    assert read.permitted == {"itertools", "__future__"}  # the rule of the time
    assert read.max_timeouts == 0 and read.disallowed is Disallowed.BLOCK
    assert read.sandbox is Sandbox.NONE
    settings = AutograderConfig.from_json({**earlier, "visibility": "after_due_date"}, "a.json")
    assert settings.visibility == "after_due_date" and settings.options.max_timeouts == 0


def test_the_permitted_modules_are_allow_the_annotations_and_the_starter_s_imports() -> None:
    starter = b"from typing import List\nimport itertools, collections.abc\nfrom . import x\n"
    annotations = {"typing", "typing_extensions", "__future__"}
    assert permitted(frozenset({"math"}), None) == {"math", *annotations}
    assert permitted(frozenset(), starter) == {*annotations, "itertools", "collections"}
    chosen = GradeOptions(allow=frozenset({"math"})).with_starter(starter)
    assert chosen.permitted == {"math", *annotations, "itertools", "collections"}
    assert chosen.findings("import numpy\nimport itertools\nimport typing\n") == [
        "line 1: imports numpy"
    ]
    assert GradeOptions().with_starter(starter).permitted is None  # no --allow: no check
    with pytest.raises(GradeOptionsError, match="--starter: does not parse as Python"):
        GradeOptions(allow=frozenset()).with_starter(b"def (:\n")


def test_block_refuses_at_run_time_and_flag_only_flags() -> None:
    blocked = GradeOptions(allow=frozenset({"itertools"}))
    flagged = GradeOptions(allow=frozenset({"itertools"}), disallowed=Disallowed.FLAG)
    assert blocked.run_time_allow == blocked.permitted and flagged.run_time_allow is None
    assert (
        flagged.findings("import os\n") == blocked.findings("import os\n") == ["line 1: imports os"]
    )
    assert GradeOptions().findings("import os\n") == []
    without_allow = "--disallowed: no import is checked without --allow"
    with pytest.raises(GradeOptionsError, match=without_allow):
        GradeOptions(disallowed=Disallowed.FLAG)


def test_the_defaults_bound_a_hanging_submission() -> None:
    assert GradeOptions().max_timeouts == DEFAULT_MAX_TIMEOUTS == 2


def test_differences_name_the_flags_a_resumed_run_must_repeat() -> None:
    started = GradeOptions(allow=frozenset({"itertools"}), timeout=5, max_timeouts=3)
    assert started.differences(started) == []
    assert started.differences(GradeOptions()) == [
        "--allow itertools",
        "--timeout 5.0",
        "--starter (imports permitted: __future__, itertools, typing, typing_extensions)",
        "--max-timeouts 3",
    ]
