"""``mineshafted autograder``: build the autograders of Gradescope and PrairieLearn, and run one."""

from __future__ import annotations

import json
import secrets
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from .output import emit, fail, fail_on_error
from .usage import Command, group

__all__ = ["HELP", "app"]

HELP = (
    "Autograders for course platforms: the zip an instructor uploads to Gradescope, the grader "
    "image recipe and course files for PrairieLearn, and 'run', what they call for each "
    "submission. Each submission is graded on boards of its own, from a secret key inside the "
    "autograder (a resubmission gets new boards), in bubblewrap where the platform's "
    "container allows it."
)
"""The sub-app's ``--help`` text."""

app = group("autograder", HELP)


class Platform(StrEnum):
    """The platforms an autograder is for."""

    GRADESCOPE = "gradescope"
    PRAIRIELEARN = "prairielearn"


_OUT = typer.Option(metavar="FILE", help="The zip to write (a new file).", show_default=False)
_FILE = typer.Option(
    "--file",
    metavar="NAME",
    help="The submitted file to grade. Default: the only .py file submitted.",
    show_default=False,
)
_ALLOW = typer.Option(
    metavar="MODULES",
    help="The modules a submission may import, comma-separated (default: no check).",
    show_default=False,
)
_TIMEOUT = typer.Option(
    min=0.1, help="Wall-clock seconds per board (default: the grader's).", show_default=False
)
_MEMORY = typer.Option(min=64, metavar="MB", help="Memory per board, in MiB.")
_KEY = typer.Option(
    metavar="FILE",
    help="Put this key file's key in the autograder instead of a fresh one (to grade its "
    "submissions' boards again with grade --key FILE --context ID).",
    show_default=False,
)


@app.command(
    "gradescope",
    cls=Command,
    help="Write Gradescope's autograder zip: setup.sh and run_autograder at its root, the "
    "mineshafted wheel, a fresh board key and the settings. Upload it as the assignment's "
    "autograder (Ubuntu base image). Exit status: 0 written; 2 bad arguments or a file "
    "that cannot be written.",
)
def gradescope(
    out: Annotated[Path, _OUT],
    file_name: Annotated[str | None, _FILE] = None,
    allow: Annotated[str | None, _ALLOW] = None,
    timeout: Annotated[float | None, _TIMEOUT] = None,
    memory: Annotated[int, _MEMORY] = 1024,
    visibility: Annotated[
        str,
        typer.Option(
            metavar="WHEN",
            help="When students see the results: visible, hidden, after_due_date or "
            "after_published.",
        ),
    ] = "visible",
    key: Annotated[Path | None, _KEY] = None,
) -> None:
    """Build Gradescope's autograder zip."""
    _build(Platform.GRADESCOPE, out, file_name, allow, timeout, memory, visibility, key)


@app.command(
    "prairielearn",
    cls=Command,
    help="Write the PrairieLearn grader as one zip: image/ (a Dockerfile and the wheel: build "
    "and push the image), serverFilesCourse/mineshafted/ (run.sh, the entry point, with the "
    "key and settings: copy it into the course's serverFilesCourse) and info.json.example "
    "(the question's externalGradingOptions). Exit status: 0 written; 2 bad arguments or a "
    "file that cannot be written.",
)
def prairielearn(
    out: Annotated[Path, _OUT],
    file_name: Annotated[str | None, _FILE] = None,
    allow: Annotated[str | None, _ALLOW] = None,
    timeout: Annotated[float | None, _TIMEOUT] = None,
    memory: Annotated[int, _MEMORY] = 1024,
    key: Annotated[Path | None, _KEY] = None,
) -> None:
    """Build PrairieLearn's grader files."""
    _build(Platform.PRAIRIELEARN, out, file_name, allow, timeout, memory, "visible", key)


@app.command(
    "run",
    cls=Command,
    help="Grade the submission in an autograder's root and write its results.json: what "
    "run_autograder (Gradescope: ROOT/submission, ROOT/results) and run.sh (PrairieLearn: "
    "ROOT/student, ROOT/results) call. Exit status: 0 results written, whatever the "
    "submission; 2 the settings or key cannot be read.",
)
def run(
    platform: Annotated[
        Platform,
        typer.Argument(
            case_sensitive=False,
            metavar="PLATFORM",
            help="The platform: gradescope or prairielearn.",
        ),
    ],
    root: Annotated[Path, typer.Option(metavar="ROOT", help="The autograder's root folder.")],
    config: Annotated[Path, typer.Option(metavar="FILE", help="The settings (autograder.json).")],
    key: Annotated[Path, typer.Option(metavar="FILE", help="The board key file.")],
) -> None:
    """Grade the one submission in ``root``."""
    from ..grading.autograder import AutograderSettings
    from .grade import grade_for_platform

    try:
        settings = AutograderSettings.from_json(json.loads(config.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, AttributeError) as error:
        fail(f"{config}: not an autograder's settings: {error}")
    folder = root / ("submission" if platform is Platform.GRADESCOPE else "student")
    submission, missing = _submitted_file(folder, settings.file)
    grade_for_platform(
        submission,
        missing=missing,
        platform=platform.value,
        out=root / "results" / "results.json",
        key=key,
        context=_context(platform, root),
        allow=settings.allow,
        visibility=settings.visibility,
        timeout=settings.timeout,
        memory=settings.memory_mb,
        sandbox=None,
    )


def _build(
    platform: Platform,
    out: Path,
    file_name: str | None,
    allow: str | None,
    timeout: float | None,
    memory: int,
    visibility: str,
    key: Path | None,
) -> None:
    from ..grading.autograder import AutograderSettings, gradescope_zip, prairielearn_zip
    from ..grading.key import BoardKey
    from ..grading.platforms import VISIBILITIES
    from .grade import allowed_option

    if visibility not in VISIBILITIES:
        fail(f"--visibility must be one of {', '.join(VISIBILITIES)}, not {visibility!r}")
    if file_name is not None and Path(file_name).name != file_name:
        fail(f"--file: {file_name!r} is not a file name (no folder in it)")
    if out.exists() or out.is_symlink():
        fail(f"{out}: already exists: the autograder is written to a new file")
    settings = AutograderSettings(file_name, allowed_option(allow), timeout, memory, visibility)
    with fail_on_error():
        chosen = BoardKey.read(key) if key is not None else None
        if platform is Platform.GRADESCOPE:
            gradescope_zip(out, settings, chosen)
        else:
            prairielearn_zip(out, settings, chosen)
    emit(f"wrote {out} ({platform.value} autograder; its board key is inside: keep it private)")


def _submitted_file(folder: Path, name: str | None) -> tuple[Path, str]:
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


def _context(platform: Platform, root: Path) -> str:
    """The submission's own context: Gradescope's submission id, else a fresh random one."""
    if platform is Platform.GRADESCOPE:
        try:
            metadata = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
            if isinstance(metadata, dict) and metadata.get("id") is not None:
                return f"gradescope submission {metadata['id']}"
        except (OSError, ValueError):
            pass
    return f"{platform.value} {secrets.token_hex(16)}"
