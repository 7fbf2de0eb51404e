"""Autograders: the zip an instructor uploads to Gradescope, the files PrairieLearn needs.

Both hold a board key made for the autograder (its secret: each submission is graded on the
boards the key makes for the submission's own context, so a resubmission gets new boards),
the settings (``autograder.json``: the file to grade, ``--allow``, the time and memory
limits, Gradescope's visibility), the wheel of the installed ``mineshafted`` (so the image
needs no repository) and thin scripts that call ``mineshafted autograder run``. The scripts
take the autograder's root from ``AUTOGRADER_ROOT`` (default ``/autograder`` on Gradescope,
``/grade`` on PrairieLearn) and the interpreter from ``AUTOGRADER_PYTHON`` (default the
image's), so they can run in a test without the platform.

Gradescope's zip: ``setup.sh`` (installs bubblewrap and Python from the image's apt, a
virtual environment in ``ROOT/venv``, the wheel) and ``run_autograder`` at its root.

PrairieLearn's: ``image/Dockerfile`` and the wheel (the grader image: no secret in it, since
images are pulled from a public registry), ``serverFilesCourse/mineshafted/`` (``run.sh``,
the entry point, with the key and settings: course files students cannot read), and
``info.json.example`` (the question's ``externalGradingOptions``).
"""

from __future__ import annotations

import json
import secrets
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import GraderFileError, SubmissionError
from .files import read_json, write_atomically
from .grade import grade
from .key import KEY_FILE_HEADER, BoardKey, BoardSet
from .options import GradeOptions, GradeOptionsError
from .platforms import VISIBILITIES, gradescope_results, prairielearn_results
from .roster import read_submission
from .student import StudentGrade
from .wheel import build_wheel

__all__ = [
    "CONFIG",
    "PLATFORMS",
    "VISIBILITIES",
    "AutograderConfig",
    "grade_submission",
    "gradescope_zip",
    "platform_results",
    "prairielearn_zip",
    "submission_context",
    "submitted_file",
]

CONFIG = "autograder.json"
"""The settings file in an autograder."""

PLATFORMS = ("gradescope", "prairielearn")
"""The course platforms an autograder is for."""

_EPOCH = (1980, 1, 1, 0, 0, 0)

_METADATA_BYTES = 1024 * 1024
"""The most of Gradescope's ``submission_metadata.json`` read (it is a few KiB)."""


@dataclass(frozen=True)
class AutograderConfig:
    """What an autograder grades with: the grading options, and Gradescope's visibility.

    ``autograder.json`` is the options' JSON object (:meth:`GradeOptions.to_json
    <.options.GradeOptions.to_json>`) with ``"visibility"`` beside them; the starter's
    imports are in its ``"permitted"``, computed when the autograder was built.

    Raises
    ------
    GradeOptionsError
        ``visibility`` is not one of :data:`VISIBILITIES`.
    """

    options: GradeOptions = field(default_factory=GradeOptions)
    visibility: str = "visible"

    def __post_init__(self) -> None:
        if self.visibility not in VISIBILITIES:
            raise GradeOptionsError(
                "--visibility", f"must be one of {', '.join(VISIBILITIES)}, not {self.visibility!r}"
            )

    def to_json(self) -> dict[str, Any]:
        """``autograder.json``'s object."""
        return {**self.options.to_json(), "visibility": self.visibility}

    @classmethod
    def from_json(cls, data: object, source: str) -> AutograderConfig:
        """The settings in ``autograder.json``'s object (one an earlier version wrote, too).

        Raises
        ------
        GradeOptionsError
            It is not one (named as ``source: "key"``).
        """
        if not isinstance(data, dict):
            raise GradeOptionsError(source, "the settings are not a JSON object")
        visibility = data.get("visibility", "visible")
        if visibility not in VISIBILITIES:
            raise GradeOptionsError(
                f'{source}: "visibility"', f"must be one of {', '.join(VISIBILITIES)}"
            )
        options = {key: value for key, value in data.items() if key != "visibility"}
        return cls(GradeOptions.from_json(options, source), visibility)

    @classmethod
    def read(cls, path: Path) -> AutograderConfig:
        """The settings in the file ``path``.

        Raises
        ------
        GraderFileError
            It cannot be read, or is not an autograder's settings (one line).
        """
        try:
            return cls.from_json(read_json(path, "an autograder's settings"), str(path))
        except GradeOptionsError as error:
            key = error.where.removeprefix(str(path)).removeprefix(": ")
            reason = f"{key}: {error.reason}" if key else error.reason
            raise GraderFileError(path, f"not an autograder's settings: {reason}") from None


SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: bubblewrap (the
# sandbox each board runs in), Python 3.11 or later, and mineshafted from the wheel beside it.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
if [ -z "${AUTOGRADER_SKIP_APT:-}" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap python3 python3-venv
fi
PYTHON=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    if [ -z "${AUTOGRADER_SKIP_APT:-}" ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3.11 python3.11-venv
    fi
    PYTHON=python3.11
fi
"$PYTHON" -m venv "$ROOT/venv"
"$ROOT/venv/bin/pip" install -q "$ROOT"/source/mineshafted-*.whl
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for each submission: it grades submission/ on boards of the submission's
# own (from the key in source/) and writes results/results.json.
set -uo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PYTHON="${AUTOGRADER_PYTHON:-$ROOT/venv/bin/python}"
mkdir -p "$ROOT/results"
"$PYTHON" -P -m mineshafted autograder run gradescope --root "$ROOT" \\
    --config "$ROOT/source/autograder.json" --key "$ROOT/source/board.key"
status=$?
if [ "$status" -ne 0 ] || [ ! -s "$ROOT/results/results.json" ]; then
    message="The autograder failed (status $status): ask your instructor."
    printf '{"score": 0.0, "output": "%s"}\\n' "$message" > "$ROOT/results/results.json"
fi
"""

RUN_SH = """#!/usr/bin/env bash
# PrairieLearn's entry point for each submission: grades /grade/student on boards of its own
# (from the key beside this script) and writes /grade/results/results.json.
set -uo pipefail
ROOT="${AUTOGRADER_ROOT:-/grade}"
PYTHON="${AUTOGRADER_PYTHON:-python3}"
HERE="$ROOT/serverFilesCourse/mineshafted"
mkdir -p "$ROOT/results"
"$PYTHON" -P -m mineshafted autograder run prairielearn --root "$ROOT" \\
    --config "$HERE/autograder.json" --key "$HERE/board.key"
status=$?
if [ "$status" -ne 0 ] || [ ! -s "$ROOT/results/results.json" ]; then
    message="The grader failed (status $status): ask your instructor."
    printf '{"gradable": false, "message": "%s"}\\n' "$message" > "$ROOT/results/results.json"
fi
"""

DOCKERFILE = """# The grader image for PrairieLearn: Python, bubblewrap and mineshafted (no secret
# in it: the board key stays in serverFilesCourse). Build and push it, then name it in
# info.json.
FROM python:3.12-slim
RUN apt-get update -qq \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap \\
    && rm -rf /var/lib/apt/lists/*
COPY {wheel} /tmp/{wheel}
RUN pip install --no-cache-dir /tmp/{wheel} && rm /tmp/{wheel}
"""

INFO_EXAMPLE = {
    "externalGradingOptions": {
        "enabled": True,
        "image": "YOUR-DOCKER-HUB-NAME/mineshafted-grader",
        "serverFilesCourse": ["mineshafted/"],
        "entrypoint": "/grade/serverFilesCourse/mineshafted/run.sh",
        "timeout": 600,
    }
}


def gradescope_zip(
    out: Path, settings: AutograderConfig, key: BoardKey | None = None, *, force: bool = False
) -> None:
    """Write Gradescope's autograder zip to ``out`` (a fresh key unless ``key`` is given;
    replacing a file there only with ``force``).

    Raises
    ------
    TargetError
        It may not, or cannot, be written.
    """
    key = key or BoardKey.new()
    with tempfile.TemporaryDirectory() as folder:
        wheel = build_wheel(Path(folder))
        members = [
            ("setup.sh", SETUP_SH.encode(), 0o755),
            ("run_autograder", RUN_AUTOGRADER.encode(), 0o755),
            (CONFIG, _config(settings), 0o644),
            ("board.key", _key_line(key), 0o600),
            (wheel.name, wheel.read_bytes(), 0o644),
        ]
    _write_zip(out, members, force)


def prairielearn_zip(
    out: Path, settings: AutograderConfig, key: BoardKey | None = None, *, force: bool = False
) -> None:
    """Write the PrairieLearn files as one zip to ``out`` (a fresh key unless ``key`` is
    given; replacing a file there only with ``force``).

    Raises
    ------
    TargetError
        It may not, or cannot, be written.
    """
    key = key or BoardKey.new()
    with tempfile.TemporaryDirectory() as folder:
        wheel = build_wheel(Path(folder))
        here = "serverFilesCourse/mineshafted"
        members = [
            ("image/Dockerfile", DOCKERFILE.format(wheel=wheel.name).encode(), 0o644),
            (f"image/{wheel.name}", wheel.read_bytes(), 0o644),
            (f"{here}/run.sh", RUN_SH.encode(), 0o755),
            (f"{here}/{CONFIG}", _config(settings), 0o644),
            (f"{here}/board.key", _key_line(key), 0o600),
            ("info.json.example", (json.dumps(INFO_EXAMPLE, indent=2) + "\n").encode(), 0o644),
        ]
    _write_zip(out, members, force)


def _config(settings: AutograderConfig) -> bytes:
    return (json.dumps(settings.to_json(), indent=2) + "\n").encode()


def _key_line(key: BoardKey) -> bytes:
    return f"{KEY_FILE_HEADER} {key.secret.hex()}\n".encode()


def _write_zip(out: Path, members: list[tuple[str, bytes, int]], force: bool) -> None:
    """Write the zip beside ``out``, then put it in place (never a half-written zip); only its
    owner may read it (the key is inside)."""
    with tempfile.SpooledTemporaryFile() as buffer:
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data, mode in members:
                member = zipfile.ZipInfo(name, _EPOCH)
                member.external_attr = (0o100000 | mode) << 16
                member.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(member, data)
        buffer.seek(0)
        write_atomically(out, buffer.read(), 0o600, force=force)


# One submission, as the platform hands it over.


def submitted_file(folder: Path, name: str | None) -> tuple[Path, str]:
    """The file to grade in the submission folder (``name``, or the only ``.py`` in it: at its
    top, else anywhere below), and why there is none (``""`` when there is one)."""
    if name is not None:
        return folder / name, ""
    top = sorted(p for p in folder.glob("*.py") if p.is_file())
    if len(top) == 1:
        return top[0], ""
    below = sorted(p for p in folder.rglob("*.py") if p.is_file())
    if len(below) == 1:
        return below[0], ""
    if below:
        names = ", ".join(str(p.relative_to(folder)) for p in below[:5])
        return folder, f"several Python files were submitted ({names}): submit one"
    return folder, "no Python file was submitted"


def submission_context(platform: str, root: Path) -> tuple[str, str]:
    """The submission's own context (its boards), and why it is a fresh random one if not
    Gradescope's submission id (``""`` when it is, or for PrairieLearn, which has none).

    Gradescope's ``ROOT/submission_metadata.json`` is read through :func:`~.files.read_json`:
    one that cannot be read (a FIFO, nested too deep, not JSON) costs the submission only
    the reproducibility of its boards, never its grade.
    """
    fresh = f"{platform} {secrets.token_hex(16)}"
    if platform != "gradescope":
        return fresh, ""
    path = root / "submission_metadata.json"
    try:
        metadata = read_json(path, "Gradescope's submission metadata", limit=_METADATA_BYTES)
    except GraderFileError as error:
        return fresh, f"{error}: graded on boards of a fresh context"
    found = metadata.get("id") if isinstance(metadata, dict) else None
    if isinstance(found, (int, str)) and not isinstance(found, bool) and len(str(found)) <= 100:
        return f"gradescope submission {found}", ""
    return fresh, f"{path}: no submission id in it: graded on boards of a fresh context"


def grade_submission(
    submission: Path, options: GradeOptions, chosen: BoardSet, *, missing: str = ""
) -> StudentGrade:
    """Grade one submission on ``chosen``'s boards, as a student's grade.

    ``missing`` says why there is no file to grade (an autograder's empty submission). A
    submission that cannot be graded is a grade that says why; only a run-level problem
    (no grading process can be started, say) raises.

    Raises
    ------
    GradingError
        Grading itself cannot go on.
    """
    began = time.perf_counter()
    result = StudentGrade(submission.name, submission.name)
    try:
        if missing:
            raise FileNotFoundError(missing)
        data, digest = read_submission(submission)
    except FileNotFoundError:
        result.problem = missing or f"no file {submission.name} was submitted"
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        result.problem = f"{submission.name} cannot be read: {reason}"
    else:
        result.sha256 = digest
        result.imports = options.findings(data)
        try:
            result.report = grade(
                submission, chosen.boards(), options, board_set=chosen.name, zygote=True
            )
        except SubmissionError as error:
            result.problem = f"not gradable: {error.reason}"
    result.seconds = time.perf_counter() - began
    return result


def platform_results(
    platform: str, grade_: StudentGrade, board_set: str, visibility: str = "visible"
) -> dict[str, Any]:
    """The platform's ``results.json`` for a student's grade (:mod:`.platforms`)."""
    if platform == "gradescope":
        return gradescope_results(grade_, board_set, visibility=visibility)
    return prairielearn_results(grade_, board_set)
