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
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .key import KEY_FILE_HEADER, BoardKey
from .wheel import build_wheel

__all__ = ["CONFIG", "AutograderSettings", "gradescope_zip", "prairielearn_zip"]

CONFIG = "autograder.json"
"""The settings file in an autograder."""

_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class AutograderSettings:
    """What an autograder grades with."""

    file: str | None = None
    """The file to grade among the submitted ones; by default the only ``.py``."""
    allow: frozenset[str] | None = None
    timeout: float | None = None
    memory_mb: int = 1024
    visibility: str = "visible"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "allow": sorted(self.allow) if self.allow is not None else None,
            "timeout": self.timeout,
            "memory_mb": self.memory_mb,
            "visibility": self.visibility,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AutograderSettings:
        allow = data.get("allow")
        return cls(
            file=data.get("file"),
            allow=frozenset(allow) if allow is not None else None,
            timeout=data.get("timeout"),
            memory_mb=int(data.get("memory_mb", 1024)),
            visibility=str(data.get("visibility", "visible")),
        )


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


def gradescope_zip(out: Path, settings: AutograderSettings, key: BoardKey | None = None) -> None:
    """Write Gradescope's autograder zip to ``out`` (a fresh key unless ``key`` is given).

    Raises
    ------
    OSError
        It cannot be written.
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
    _write_zip(out, members)


def prairielearn_zip(out: Path, settings: AutograderSettings, key: BoardKey | None = None) -> None:
    """Write the PrairieLearn files as one zip to ``out`` (a fresh key unless ``key`` is given).

    Raises
    ------
    OSError
        It cannot be written.
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
    _write_zip(out, members)


def _config(settings: AutograderSettings) -> bytes:
    return (json.dumps(settings.to_json(), indent=2) + "\n").encode()


def _key_line(key: BoardKey) -> bytes:
    return f"{KEY_FILE_HEADER} {key.secret.hex()}\n".encode()


def _write_zip(out: Path, members: list[tuple[str, bytes, int]]) -> None:
    """Write the zip beside ``out``, then put it in place (never a half-written zip)."""
    from .classrun import write_atomically

    with tempfile.SpooledTemporaryFile() as buffer:
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data, mode in members:
                member = zipfile.ZipInfo(name, _EPOCH)
                member.external_attr = (0o100000 | mode) << 16
                member.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(member, data)
        buffer.seek(0)
        write_atomically(out, buffer.read(), 0o600)
