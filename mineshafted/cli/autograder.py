"""``mineshafted autograder``: build the autograders of Gradescope and PrairieLearn, run one, or
write a platform's results for one submission."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .gradeflags import (
    Allow,
    DisallowedOption,
    Force,
    MaxTimeouts,
    Memory,
    SandboxOption,
    Starter,
    Timeout,
    check_context,
    grading_options,
)
from .output import emit, fail, fail_on_error, note
from .usage import Command, group

if TYPE_CHECKING:
    from ..grading.key import BoardSet
    from ..grading.options import GradeOptions

__all__ = ["HELP", "app"]

HELP = (
    "Autograders for course platforms: the zip an instructor uploads to Gradescope, the grader "
    "image recipe and course files for PrairieLearn, and 'run', what they call for each "
    "submission ('results' does the same for one file here). Each submission is graded on "
    "boards of its own, from a secret key inside the autograder (a resubmission gets new "
    "boards), in bubblewrap where the platform's container allows it."
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
_KEY = typer.Option(
    metavar="FILE",
    help="Put this key file's key in the autograder instead of a fresh one (to grade its "
    "submissions' boards again with grade --key FILE --context ID).",
    show_default=False,
)
_VISIBILITY = typer.Option(
    metavar="WHEN",
    help="Gradescope's alone: when students see the results and each test: visible, hidden, "
    "after_due_date or after_published. Default: visible.",
    show_default=False,
)


@app.command(
    "gradescope",
    cls=Command,
    help="Write Gradescope's autograder zip: setup.sh and run_autograder at its root, the "
    "mineshafted wheel, a fresh board key and the settings (the grading options; the "
    "starter's imports, read now). Upload it as the assignment's autograder (Ubuntu base "
    "image). Exit status: 0 written; 2 bad arguments or a file that cannot be written.",
)
def gradescope(
    out: Annotated[Path, _OUT],
    file_name: Annotated[str | None, _FILE] = None,
    allow: Allow = None,
    starter: Starter = None,
    disallowed: DisallowedOption = None,
    timeout: Timeout = None,
    memory: Memory = 1024,
    max_timeouts: MaxTimeouts = None,
    visibility: Annotated[str | None, _VISIBILITY] = None,
    key: Annotated[Path | None, _KEY] = None,
    force: Force = False,
) -> None:
    """Build Gradescope's autograder zip."""
    options, _ = grading_options(
        timeout=timeout,
        memory=memory,
        allow=allow,
        starter=starter,
        disallowed=disallowed,
        max_timeouts=max_timeouts,
        file_name=file_name,
    )
    _build(Platform.GRADESCOPE, out, options, visibility or "visible", key, force)


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
    allow: Allow = None,
    starter: Starter = None,
    disallowed: DisallowedOption = None,
    timeout: Timeout = None,
    memory: Memory = 1024,
    max_timeouts: MaxTimeouts = None,
    key: Annotated[Path | None, _KEY] = None,
    force: Force = False,
) -> None:
    """Build PrairieLearn's grader files."""
    options, _ = grading_options(
        timeout=timeout,
        memory=memory,
        allow=allow,
        starter=starter,
        disallowed=disallowed,
        max_timeouts=max_timeouts,
        file_name=file_name,
    )
    _build(Platform.PRAIRIELEARN, out, options, "visible", key, force)


@app.command(
    "run",
    cls=Command,
    help="Grade the submission in an autograder's root and write its results.json: what "
    "run_autograder (Gradescope: ROOT/submission, ROOT/results) and run.sh (PrairieLearn: "
    "ROOT/student, ROOT/results) call; ROOT/results/results.json is replaced if it is a "
    "regular file. Exit status: 0 results written, whatever the submission; 2 the settings "
    "or key cannot be read.",
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
    from ..grading.autograder import AutograderConfig, submission_context, submitted_file
    from ..grading.key import BoardKey

    with fail_on_error():
        settings = AutograderConfig.read(config)
        chosen_key = BoardKey.read(key)
    context, why = submission_context(platform.value, root)
    if why:
        note(f"warning: {why}")
    folder = root / ("submission" if platform is Platform.GRADESCOPE else "student")
    submission, missing = submitted_file(folder, settings.options.file)
    _results(
        platform,
        submission,
        settings.options,
        chosen_key.board_set(context),
        settings.visibility,
        out=root / "results" / "results.json",
        force=True,
        missing=missing,
    )


@app.command(
    "results",
    cls=Command,
    help="Grade one submission as an autograder would and write the platform's results.json "
    "(to --out, or stdout): a fresh key's boards, or --key FILE's for --context. A submission "
    "that cannot be graded still gets results that say why. Exit status: 0 written, whatever "
    "the submission; 2 bad arguments, or a key or output file that cannot be used.",
)
def results(
    platform: Annotated[
        Platform,
        typer.Argument(
            case_sensitive=False,
            metavar="PLATFORM",
            help="The platform: gradescope or prairielearn.",
        ),
    ],
    submission: Annotated[
        Path,
        typer.Argument(
            metavar="SUBMISSION.py",
            help="A Python file that defines sweep_mines(bm).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="The results.json to write (a new file; default: stdout).",
            show_default=False,
        ),
    ] = None,
    force: Force = False,
    key: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Grade on the boards of this key file (an autograder's board.key), for "
            "--context. Default: a fresh key.",
            show_default=False,
        ),
    ] = None,
    context: Annotated[
        str | None,
        typer.Option(
            metavar="TEXT",
            help="With --key: the submission's context (Gradescope's 'gradescope submission ID').",
            show_default=False,
        ),
    ] = None,
    allow: Allow = None,
    starter: Starter = None,
    disallowed: DisallowedOption = None,
    visibility: Annotated[str | None, _VISIBILITY] = None,
    timeout: Timeout = None,
    memory: Memory = 1024,
    sandbox: SandboxOption = None,
    max_timeouts: MaxTimeouts = None,
) -> None:
    """Grade one submission and write the platform's results."""
    from ..grading.key import BoardKey

    if visibility is not None and platform is not Platform.GRADESCOPE:
        fail("--visibility is Gradescope's alone: PrairieLearn's results have none")
    check_context(context, key)
    options, _ = grading_options(
        timeout=timeout,
        memory=memory,
        sandbox=sandbox,
        allow=allow,
        starter=starter,
        disallowed=disallowed,
        max_timeouts=max_timeouts,
    )
    with fail_on_error():
        if key is not None:
            chosen = BoardKey.read(key).board_set(context or "")
        else:
            chosen = BoardKey.new().board_set()
    _results(platform, submission, options, chosen, visibility or "visible", out=out, force=force)


def _results(
    platform: Platform,
    submission: Path,
    options: GradeOptions,
    chosen: BoardSet,
    visibility: str,
    *,
    out: Path | None,
    force: bool,
    missing: str = "",
) -> None:
    """Grade ``submission`` on ``chosen``'s boards and write the platform's results.json (to
    ``out``, checked first, or stdout)."""
    from ..files import check_target
    from ..grading.autograder import AutograderConfig, grade_submission, platform_results
    from ..grading.files import write_atomically

    with fail_on_error():
        AutograderConfig(options, visibility)  # the visibility, checked before grading
        if out is not None:
            check_target(out, force=force, inputs=[submission])
        grade_ = grade_submission(submission, options, chosen, missing=missing)
        found = platform_results(platform.value, grade_, chosen.name, visibility)
        text = json.dumps(found, indent=1) + "\n"
        if out is None:
            emit(text.rstrip("\n"))
        else:
            write_atomically(out, text.encode("utf-8"), force=force, inputs=[submission])


def _build(
    platform: Platform,
    out: Path,
    options: GradeOptions,
    visibility: str,
    key: Path | None,
    force: bool,
) -> None:
    from ..files import check_target
    from ..grading.autograder import AutograderConfig, gradescope_zip, prairielearn_zip
    from ..grading.key import BoardKey

    with fail_on_error():
        settings = AutograderConfig(options, visibility)
        check_target(out, force=force)
        chosen = BoardKey.read(key) if key is not None else None
        if platform is Platform.GRADESCOPE:
            gradescope_zip(out, settings, chosen, force=force)
        else:
            prairielearn_zip(out, settings, chosen, force=force)
    emit(f"wrote {out} ({platform.value} autograder; its board key is inside: keep it private)")
