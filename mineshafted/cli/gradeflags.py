"""The flags the grading commands share (``grade``, ``grade class``, ``autograder``): declared
once, and turned into one :class:`~mineshafted.grading.options.GradeOptions` by
:func:`grading_options`, which checks them as a settings file is checked."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .output import fail, fail_on_error

if TYPE_CHECKING:
    from ..grading.options import GradeOptions

__all__ = [
    "Allow",
    "DisallowedChoice",
    "DisallowedOption",
    "Force",
    "MaxTimeouts",
    "Memory",
    "SandboxChoice",
    "SandboxOption",
    "Starter",
    "Timeout",
    "allowed_option",
    "check_context",
    "grading_options",
    "warn_without_sandbox",
]


class SandboxChoice(StrEnum):
    """``--sandbox``: the values of :class:`mineshafted.grading.Sandbox` (imported lazily)."""

    BWRAP = "bwrap"
    NONE = "none"


class DisallowedChoice(StrEnum):
    """``--disallowed``: the values of :class:`mineshafted.grading.options.Disallowed`."""

    BLOCK = "block"
    FLAG = "flag"


# The options the single grade, the class run and the autograders share: one declaration.

Timeout = Annotated[
    float | None,
    typer.Option(
        metavar="SECONDS",
        help="Wall-clock seconds sweep_mines may take on a board (and the import, again), from "
        "0.1 to 86400. Default: max(30, 100 µs per cell).",
        show_default=False,
    ),
]
Memory = Annotated[
    int,
    typer.Option(
        metavar="MB",
        help="Memory per board, in MiB (at least 64): of all its processes together (and its "
        "/tmp) where a cgroup can be made, else the address space of each process.",
    ),
]
SandboxOption = Annotated[
    SandboxChoice | None,
    typer.Option(
        "--sandbox",
        case_sensitive=False,
        help="What isolates each board: bwrap or none. Default: bwrap where it works.",
        show_default=False,
    ),
]
Allow = Annotated[
    str | None,
    typer.Option(
        metavar="MODULES",
        help="The modules a submission may import, comma-separated (e.g. itertools); typing "
        "and __future__ always, and what --starter imports. Other imports are flagged (found "
        "in the source) and, with --disallowed block, refused at run time. Default: no check.",
        show_default=False,
    ),
]
Starter = Annotated[
    Path | None,
    typer.Option(
        metavar="FILE",
        help="The starter code every student was given: the modules it imports are "
        "permitted under --allow.",
        show_default=False,
    ),
]
DisallowedOption = Annotated[
    DisallowedChoice | None,
    typer.Option(
        "--disallowed",
        case_sensitive=False,
        help="With --allow, what a disallowed import costs beyond its flag in the report: "
        "block (refused at run time: the board crashes) or flag (the boards run with it). "
        "Default: block.",
        show_default=False,
    ),
]
MaxTimeouts = Annotated[
    int | None,
    typer.Option(
        "--max-timeouts",
        metavar="N",
        help="Boards a submission may let time out; its remaining boards are then not run "
        "(out of time), so a hanging sweep costs N timeouts, not one per board. 0: run every "
        "board. Default: 2.",
        show_default=False,
    ),
]
Force = Annotated[
    bool,
    typer.Option("--force", help="Replace an existing output file (never the submission)."),
]


def check_context(context: str | None, key: Path | None) -> None:
    """``--context`` goes with ``--key`` alone: without a kept key it names nothing (exit 2)."""
    if context is not None and key is None:
        fail("--context names a board set of a kept key: give the key with --key FILE")


def allowed_option(text: str | None) -> frozenset[str] | None:
    """The modules ``--allow`` names; ``None`` when it is not given (checked with the other
    options, by :class:`~mineshafted.grading.options.GradeOptions`)."""
    if text is None:
        return None
    from ..grading.imports import allowed_modules

    return allowed_modules(text)


def grading_options(
    *,
    timeout: float | None = None,
    memory: int = 1024,
    sandbox: SandboxChoice | None = None,
    allow: str | None = None,
    starter: Path | None = None,
    disallowed: DisallowedChoice | None = None,
    max_timeouts: int | None = None,
    file_name: str | None = None,
    starter_for: str = "--allow",
) -> tuple[GradeOptions, bytes | None]:
    """The grading options the flags give, and the starter's code (or one line, exit 2).

    ``starter_for`` names what ``--starter`` is for besides ``--allow`` (``--similarity``):
    given without either, it is refused rather than ignored.
    """
    from ..grading import Sandbox
    from ..grading.files import read_starter
    from ..grading.options import DEFAULT_MAX_TIMEOUTS, Disallowed, GradeOptions

    if starter is not None and allow is None and starter_for == "--allow":
        fail("--starter: its imports are permitted under --allow: give --allow too")
    with fail_on_error():
        options = GradeOptions(
            file=file_name,
            allow=allowed_option(allow),
            timeout=timeout,
            memory_mb=memory,
            sandbox=Sandbox(sandbox.value) if sandbox is not None else None,
            disallowed=Disallowed(disallowed.value) if disallowed else Disallowed.BLOCK,
            max_timeouts=DEFAULT_MAX_TIMEOUTS if max_timeouts is None else max_timeouts,
        )
        code = read_starter(starter) if starter is not None else None
        return options.with_starter(code), code


def warn_without_sandbox(sandbox: SandboxChoice | None) -> None:
    """Say on stderr what ``--sandbox none`` leaves a submission free to do."""
    if sandbox is SandboxChoice.NONE:
        from ..grading.sandbox import none_warning

        typer.echo(f"warning: {none_warning()}", err=True)
