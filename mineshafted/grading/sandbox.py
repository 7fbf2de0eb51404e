"""The sandbox a grading child runs in: bubblewrap's namespaces, or the bare process.

With :attr:`Sandbox.BWRAP` each child runs under bubblewrap (``bwrap``, Debian's
``bubblewrap`` package) in new user, PID, IPC, UTS, cgroup and network namespaces
(``--unshare-all``), with every capability dropped, killed with the grader
(``--die-with-parent``), and sees:

- the system's programs and libraries (``/usr``, ``/lib*``, ``/bin``, ``/sbin``) and the
  Python installation (its prefixes) read-only, with the ``mineshafted`` package itself
  and its shipped puzzles hidden under empty read-only folders of :data:`HIDING_BYTES` (a
  ``mineshafted`` one holds only an ``__init__.py`` that raises ``ModuleNotFoundError``, so
  it is no namespace package);
- a fresh ``/tmp`` of a fixed size (:attr:`~.limits.Limits.disk_mb`), with its working folder
  :data:`WORK_FOLDER` in it;
- its own ``/proc`` (only the sandbox's processes) and a minimal ``/dev``;
- of the caller's files, only copies of the child script (at :data:`CHILD_PATH`) and the
  submission (in :data:`SUBMISSION_FOLDER`), both read-only, read through file descriptors:
  ``/proc/self/mountinfo`` shows the paths of the system folders and of the Python
  installation it binds (which the child sees anyway), but neither file's host path;
- nothing else it can write: its root, ``/dev`` and the hiding folders are remounted
  read-only, so ``/tmp`` is the one writable file system, and it has a size.

When the child ends, the PID namespace ends with it: every process it started is killed.

With :attr:`Sandbox.NONE` the child is an ordinary process in its own session and an empty
temporary folder, of the grader's user, or, when the grader is root, of a fresh unprivileged
user of its own (:mod:`.process`), which sweeps away what it left running.
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path

from .errors import GradingError
from .users import unprivileged_problem

__all__ = [
    "CHILD_PATH",
    "HIDING_BYTES",
    "INSTALL_HINT",
    "SUBMISSION_FOLDER",
    "WORK_FOLDER",
    "Sandbox",
    "bwrap_arguments",
    "bwrap_command",
    "bwrap_problem",
    "choose_sandbox",
    "none_warning",
]

logger = logging.getLogger(__name__)

CHILD_PATH = "/grader/child.py"
"""Where the child script is inside the sandbox."""

SUBMISSION_FOLDER = "/submission"
"""The folder that holds the submission, and nothing else, inside the sandbox."""

WORK_FOLDER = "/tmp/grading"
"""The child's working folder: empty, on the sandbox's private ``/tmp`` (which may also hold
a virtual environment's interpreter, bound read-only at its own path)."""

INSTALL_HINT = "install bubblewrap (apt-get install bubblewrap) to run each board in a sandbox"
"""How to get a real sandbox, for the note shown when there is none."""

HIDING_BYTES = 64 * 1024
"""The size of each empty file system that hides the package (it is read-only besides)."""


def none_warning(root: bool | None = None) -> str:
    """What ``grade --sandbox none`` warns of on stderr: exactly what a submission can do.

    Parameters
    ----------
    root:
        Whether the grader runs as root; by default, whether it does.

    Examples
    --------
    >>> none_warning(root=False).split(": ")[1]
    'each board runs with no sandbox, as you'
    """
    if root is None:
        root = os.geteuid() == 0
    if root:
        return (
            "--sandbox none: each board runs with no sandbox, as a fresh unprivileged user of "
            "its own in its own session (never as root): it cannot signal, trace or write to "
            "your processes or your private files, but it can read every file that any user "
            "may read, use the network and see every process; grade untrusted code with bwrap"
        )
    return (
        "--sandbox none: each board runs with no sandbox, as you: it can read, change and "
        "delete every file you can, kill every process of yours (kill(-1, SIGKILL) ends this "
        "grader, your shell and the rest of your session), use the network and forge this "
        "report; grade untrusted code with bwrap"
    )


_MISSING = b"raise ModuleNotFoundError(\"No module named 'mineshafted'\", name='mineshafted')\n"
"""The ``__init__.py`` put into a hidden ``mineshafted`` folder: importing it fails as if it
were not there."""

_SYSTEM = ("/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin")
"""The system folders bound read-only (or linked, where they are links into ``/usr``)."""


class Sandbox(Enum):
    """What a grading child is isolated by."""

    BWRAP = "bwrap"
    """Bubblewrap: namespaces, a read-only system, a private ``/tmp``, only the submission."""
    NONE = "none"
    """A plain process: its own session, folder and limits; what it leaves running is killed."""


def choose_sandbox(requested: Sandbox | None) -> Sandbox:
    """The sandbox to grade in: ``requested``, or by default bubblewrap where it works.

    Parameters
    ----------
    requested:
        The sandbox asked for; ``None`` picks :attr:`Sandbox.BWRAP` when bubblewrap runs
        here, else :attr:`Sandbox.NONE` with a warning (logged once per process) that the
        isolation is process-only.

    Raises
    ------
    GradingError
        :attr:`Sandbox.BWRAP` was asked for and bubblewrap cannot run here; or, for a grader
        running as root, there would be no sandbox and a board cannot run as an unprivileged
        user of its own here either (:func:`~.users.unprivileged_problem`).
    """
    if requested is Sandbox.NONE:
        return _unsandboxed()
    problem = bwrap_problem()
    if problem is None:
        return Sandbox.BWRAP
    if requested is Sandbox.BWRAP:
        raise GradingError(f"the bwrap sandbox cannot run here: {problem}; {INSTALL_HINT}")
    _unsandboxed(problem)
    _warn_once(problem)
    return Sandbox.NONE


def _unsandboxed(bwrap: str | None = None) -> Sandbox:
    """:attr:`Sandbox.NONE`, once it is sure that a grader running as root can run each board
    as an unprivileged user of its own (``bwrap`` says why there is no sandbox, if asked for
    one by default)."""
    if os.geteuid() != 0:
        return Sandbox.NONE
    problem = unprivileged_problem()
    if problem is None:
        return Sandbox.NONE
    why = f"bwrap cannot run here ({bwrap}), and without it " if bwrap else "with --sandbox none "
    raise GradingError(
        f"{why}a grader running as root runs each board as a fresh unprivileged user, which "
        f"fails here: {problem}; {INSTALL_HINT}, or grade as an ordinary user"
    )


@functools.cache
def bwrap_problem() -> str | None:
    """Why bubblewrap cannot run a grading child here, or ``None`` when it can.

    Notes
    -----
    Runs ``bwrap`` once per process with the grader's arguments and the interpreter's
    ``-c pass`` (about 30 ms), and remembers the answer.
    """
    if not sys.platform.startswith("linux"):
        return f"bubblewrap needs Linux, not {sys.platform}"
    if shutil.which("bwrap") is None:
        return "bwrap is not installed"
    probe = [*bwrap_arguments(Path(sys.executable), 1), sys.executable, "-I", "-c", "pass"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"bwrap does not start: {error}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap fails here: {said[-1] if said else f'status {done.returncode}'}"
    return None


def bwrap_arguments(
    submission: Path,
    disk_mb: int,
    child: Path | None = None,
    *,
    hidden: tuple[Path, ...] = (),
    data: Callable[[Path | bytes], int] | None = None,
    user: int | None = None,
) -> list[str]:
    """The ``bwrap`` command line that runs a grading child; the child's own command follows.

    Parameters
    ----------
    submission:
        The submission file, bound read-only into :data:`SUBMISSION_FOLDER` under its name.
    disk_mb:
        The size of the sandbox's ``/tmp``, in MiB.
    child:
        The child script, bound read-only at :data:`CHILD_PATH` (none for the probe).
    hidden:
        More folders to hide under empty ones, where they lie in what is bound.
    data:
        Turns a file (or bytes) into a descriptor the sandbox will read it from. Given, the
        submission and the child script are copied in through descriptors (so the mount
        table in the sandbox shows no path of the caller's), and each hidden ``mineshafted``
        folder gets an ``__init__.py`` that raises ``ModuleNotFoundError`` (so it is not
        an empty namespace package). Without it (the probe), they are bound by path.
    user:
        The user and group id the child has inside the sandbox (``--uid``, ``--gid``); by
        default the caller's. A zygote (:mod:`.zygote`) needs one other than 0: its board
        processes map it into user namespaces of their own, which the kernel refuses for 0
        without a capability the sandbox drops.

    Examples
    --------
    >>> arguments = bwrap_arguments(Path("/home/ann/student.py"), 16)
    >>> arguments[:4]
    ['bwrap', '--unshare-all', '--die-with-parent', '--new-session']
    >>> arguments[arguments.index("/home/ann/student.py") - 1 :][:3]
    ['--ro-bind', '/home/ann/student.py', '/submission/student.py']
    >>> arguments[-3:]
    ['--chdir', '/tmp/grading', '--']

    Notes
    -----
    Binding the interpreter's prefixes keeps a virtual environment's packages importable
    (numpy, say), but not ``mineshafted``: its package folder and shipped puzzles are covered
    by empty ones, and an editable install points at a source folder that is not bound.
    """
    arguments = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session"]
    arguments += ["--cap-drop", "ALL", "--hostname", "grading"]
    if user is not None:
        arguments += ["--uid", str(user), "--gid", str(user)]
    bound: list[Path] = []
    for name in _SYSTEM:
        path = Path(name)
        if path.is_symlink():
            arguments += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            arguments += ["--ro-bind", name, name]
            bound.append(path)
    # The private /tmp first: an interpreter installed below /tmp (a virtual environment in a
    # fresh clone, say) is then bound on top of it, not covered by it.
    arguments += ["--proc", "/proc", "--dev", "/dev"]
    arguments += ["--size", str(disk_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    for prefix in _python_roots():
        if not any(prefix.is_relative_to(root) for root in bound):
            arguments += ["--ro-bind", str(prefix), str(prefix)]
            bound.append(prefix)
    hiding: list[str] = []
    for folder in (*_package_folders(), *hidden):
        if folder.is_dir() and any(folder.is_relative_to(root) for root in bound):
            arguments += ["--size", str(HIDING_BYTES), "--tmpfs", str(folder)]
            hiding.append(str(folder))
            if data is not None and folder.name == "mineshafted":
                arguments += ["--ro-bind-data", str(data(_MISSING)), f"{folder}/__init__.py"]
    copied = [(child, CHILD_PATH)] if child is not None else []
    copied.append((submission, f"{SUBMISSION_FOLDER}/{submission.name}"))
    for source, target in copied:
        if data is None:
            arguments += ["--ro-bind", str(source), target]
        else:
            arguments += ["--ro-bind-data", str(data(source)), target]
    arguments += ["--dir", WORK_FOLDER]  # empty, whatever the interpreter bound into /tmp
    for folder_name in hiding:  # after its __init__.py is bound: nothing more is written there
        arguments += ["--remount-ro", folder_name]
    arguments += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", WORK_FOLDER, "--"]
    return arguments


def bwrap_command(arguments: list[str]) -> tuple[list[str], bytes]:
    """``bwrap`` reading ``arguments`` (up to its ``--``) from a file descriptor, and their bytes.

    The sandbox's first process is ``bwrap`` itself, so its command line is visible in the
    sandbox's ``/proc/1/cmdline``; passed this way, the paths it binds are not. The caller
    writes the bytes to a pipe and passes its read end as ``{fd}`` in the command.

    Examples
    --------
    >>> command, data = bwrap_command(["bwrap", "--unshare-all", "--", "true"])
    >>> command, data
    (['bwrap', '--args', '{fd}', '--', 'true'], b'--unshare-all\\x00')
    """
    cut = arguments.index("--")
    data = b"".join(os.fsencode(argument) + b"\0" for argument in arguments[1:cut])
    return [arguments[0], "--args", "{fd}", *arguments[cut:]], data


def _python_roots() -> list[Path]:
    """The folders the interpreter needs: its prefixes and the folder of its executable."""
    names = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    roots = {Path(name).resolve() for name in names if name}
    executable = Path(sys.executable)
    roots |= {executable.parent, executable.resolve().parent}
    # Sorted by depth or by path alike, a folder comes before those inside it.
    ordered = sorted(roots, key=lambda path: len(path.parts))  # pragma: no mutate - same order
    kept: list[Path] = []
    for root in ordered:
        if not any(root.is_relative_to(other) for other in kept):
            kept.append(root)
    return kept


def _package_folders() -> list[Path]:
    """Every copy of the ``mineshafted`` package the interpreter could see, and its puzzles.

    The package this grader runs from (a source tree: its ``puzzles/`` beside it), and any
    ``mineshafted`` folder on the import path: an editable install still puts the shipped
    puzzles into ``site-packages/mineshafted/puzzles``.
    """
    package = Path(__file__).resolve().parent.parent
    folders = [package, package.parent / "puzzles"]
    for entry in sys.path:
        if entry:
            candidate = Path(entry).resolve() / "mineshafted"
            if candidate.is_dir() and candidate not in folders:
                folders.append(candidate)
    return folders


def _warn_once(problem: str) -> None:
    if not _warned:
        _warned.append(problem)
        logger.warning(
            "grading without a sandbox (%s): isolation is process-only; %s", problem, INSTALL_HINT
        )


_warned: list[str] = []
