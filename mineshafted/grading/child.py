"""The grading child: one submission's ``sweep_mines`` against a manager that asks the parent.

Run by :mod:`mineshafted.grading` as a script in a fresh interpreter (POSIX only)::

    python -I -B child.py --memory BYTES --cpu SECONDS --file-size BYTES --processes N
        [--parent PID] [--user ID] [--check] SUBMISSION ROWS COLS READ_FD WRITE_FD
    python -I -B child.py --probe ID

First thing, before it imports the submission, it sets its own limits with
``resource.setrlimit`` (address space, CPU time, file size, processes, no core file; soft and hard
alike, so the submission cannot raise them again). With ``--user`` (a grader running as root,
outside a sandbox) it then becomes that unprivileged user and group, with no supplementary
group and no way to gain privileges again (``PR_SET_NO_NEW_PRIVS``), and checks that root is
gone for good; if any of that fails it exits with status 4 before the submission is read.
The Python installation may lie where only root can reach it (under ``/root``, say): so that
the interpreter, which is already running, can still import from it, every folder on the
import path is opened while the child is root and reached through ``/proc/self/fd`` after
(which opens only those folders to it, nothing above them), and the submission is read the
same way; its folder is not importable then (as in the sandbox). ``--probe ID`` does only
that, with no submission, and prints what it became, as JSON.

With ``--parent`` (outside a sandbox) it then asks the kernel to kill it when the grader
dies (``PR_SET_PDEATHSIG``), and exits at once if the grader ``PID`` is already gone. It
imports nothing from the package, so the process holds nothing of the grader's.

The hidden board never enters it: ``move`` sends the index to the parent over a pipe and the
parent answers with that one clue. Messages are JSON, one object with one key per line, in this
order:

- child -> parent: ``{"ready": true}`` (imported) or ``{"error": ...}`` (the import raised);
  then ``{"start": true}`` (the sweep is about to begin), any number of ``{"move": i}``, and
  one answer: ``{"result": board}``, ``{"unreadable": {"type": ..., "repr": ...}}`` (a value
  JSON cannot carry) or ``{"error": {"type": ..., "message": ..., "frames": [...],
  "skipped": n}}`` (the exception, and the last few frames of the submission's own code in
  its traceback, innermost last, each ``[file, line, function, text, times]``); an import
  whose ``sweep_mines`` does not fit the assignment's contract (none, a class, a generator, a
  coroutine, or one that cannot be called with the manager alone) is an error with
  ``"misfit"``, what was found as its message;
- parent -> child: ``{"go": true}`` to the start (the child calls ``sweep_mines`` only then,
  so the parent's clock, started before it answers, never misses any of the sweep however
  busy the machine), then to each move ``{"clue": n}``, ``{"mine": true}`` (the game is
  over), ``{"over": true}`` (it already was) or ``{"bad": "message"}`` (an index it refuses).

If the channel breaks (the submission closed it, or the parent is gone), the child exits at
once with status 3. The parent's half, and these names, are in ``protocol.py``.

Kept whole over 450 lines: it runs as one script in an isolated interpreter (``-I``, alone in
the sandbox at ``/grader/child.py``) and imports nothing of the package, so it has no
modules of its own to import.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.machinery
import importlib.util
import json
import os
import reprlib
import sys
from typing import Any, BinaryIO, NoReturn

CHANNEL_LOST = 3
"""Exit status when the channel to the parent breaks (``protocol.CHANNEL_LOST``)."""

STILL_ROOT = 4
"""Exit status when the child cannot become the unprivileged user it was given."""

_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxstring = 60
_REPR.maxother = 60


class _Channel:
    """The two pipe ends to the parent."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._in: BinaryIO = open(read_fd, "rb")  # noqa: SIM115 - lives as long as the process
        self._out: BinaryIO = open(write_fd, "wb")  # noqa: SIM115

    def send(self, message: dict[str, Any]) -> None:
        """Send one message; raises only if ``message`` is not JSON (before sending anything)."""
        data = json.dumps(message).encode() + b"\n"
        try:
            self._out.write(data)
            self._out.flush()
        except (OSError, ValueError):
            _lost()

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message and read the reply."""
        self.send(message)
        try:
            reply: dict[str, Any] = json.loads(self._in.readline())
        except (OSError, ValueError):  # closed, or the parent has gone (an empty line)
            _lost()
        return reply


class BoardManager:
    """The Mine Shafted starter's interface, backed by the parent.

    ``size`` is ``(rows, cols)``; ``move(index)`` returns the clue, or raises a bare
    ``RuntimeError`` on a mine (and on every move after it), or ``IndexError`` for an index
    outside the board; ``get_adjacent(index)`` lists the up-to-8 neighbours in row-major
    order.
    """

    def __init__(self, rows: int, cols: int, channel: _Channel) -> None:
        self.size = (rows, cols)
        self._channel = channel

    def move(self, index: int) -> int:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a cell index must be an int, not {index!r}")
        reply = self._channel.ask({"move": int(index)})
        if "clue" in reply:
            return int(reply["clue"])
        if "bad" in reply:
            raise IndexError(reply["bad"])
        raise RuntimeError

    def get_adjacent(self, index: int) -> list[int]:
        rows, cols = self.size
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < rows * cols:
            raise IndexError(f"cell index {index!r} is outside 0..{rows * cols - 1}")
        row, col = divmod(index, cols)
        return [
            r * cols + c
            for r in range(max(row - 1, 0), min(row + 2, rows))
            for c in range(max(col - 1, 0), min(col + 2, cols))
            if (r, c) != (row, col)
        ]


def main(argv: list[str]) -> None:
    if argv[:1] == ["--probe"]:
        _probe(int(argv[1]))
        return
    if argv[:1] == ["--zygote"]:
        _zygote(argv[1:])
        return
    options = _options(argv)
    sys.dont_write_bytecode = True  # no __pycache__ beside the submission, even without -B
    _forget_own_folder()
    _limit(options.memory, options.cpu, options.file_size, options.processes)
    read_from = _become(options.user, options.submission) if options.user else None
    if options.parent:
        _die_with(options.parent)  # after _become: a change of user clears the request
    allow = _allowed(options.allow)
    _play(
        options.submission,
        options.rows,
        options.cols,
        options.read_fd,
        options.write_fd,
        check=options.check,
        allow=allow,
        read_from=read_from,
    )


def _play(
    submission: str,
    rows: int,
    cols: int,
    read_fd: int,
    write_fd: int,
    *,
    check: bool,
    allow: frozenset[str] | None,
    read_from: str | None = None,
) -> None:
    """Import the submission and play one board over the channel (or only say it imports)."""
    channel = _Channel(read_fd, write_fd)
    try:
        if allow is not None:
            _police_imports(allow)
        sweep = _load(submission, read_from=read_from)
    except BaseException as error:
        channel.send({"error": _describe(error, submission)})
        return
    channel.send({"ready": True})
    if check:
        return
    manager = BoardManager(rows, cols, channel)
    channel.ask({"start": True})  # the answer is "go": the parent's clock is running
    try:
        result = sweep(manager)
    except BaseException as error:
        channel.send({"error": _describe(error, submission)})
        return
    try:
        channel.send({"result": result})
    except Exception:  # TypeError (a set), ValueError (a cycle), RecursionError (too deep)...
        channel.send({"unreadable": {"type": type(result).__name__, "repr": _short(result)}})


def _options(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="child.py")
    parser.add_argument("--memory", type=int, required=True)
    parser.add_argument("--cpu", type=int, required=True)
    parser.add_argument("--file-size", type=int, required=True)
    parser.add_argument("--processes", type=int, required=True)
    parser.add_argument("--parent", type=int, default=0)
    parser.add_argument("--user", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--allow", default=None)
    for name in ("submission", "rows", "cols", "read_fd", "write_fd"):
        parser.add_argument(name, type=str if name == "submission" else int)
    return parser.parse_args(argv)


def _limit(memory: int, cpu: int, file_size: int, processes: int) -> None:
    """Limit this process, soft and hard alike (never above a hard limit already set)."""
    import resource  # POSIX only; the grader itself never imports it

    for which, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, file_size),
        (resource.RLIMIT_NPROC, processes),
        (resource.RLIMIT_CORE, 0),
    ):
        hard = resource.getrlimit(which)[1]
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(which, (value, value))


def _die_with(parent: int) -> None:
    """Be killed when ``parent`` dies (Linux); exit now if it already has."""
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the grader's sweep is all there is
        return
    if os.getppid() != parent:  # it died before the line above: nobody would kill us
        os._exit(CHANNEL_LOST)


_PR_SET_PDEATHSIG = 1
"""``prctl``'s option: the signal this process gets when its parent thread ends."""


def _forget_own_folder() -> None:
    """Take this script's folder (the grader's own modules, outside a sandbox) off the path."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != here]


def _become(user: int, submission: str) -> str:
    """Become ``user`` (and its group) for good; the path to read the submission by after.

    Exits with :data:`STILL_ROOT`, before anything of the submission runs, if it cannot.
    """
    try:
        kept = os.open(submission, os.O_RDONLY)
        _reach_path_through_descriptors()
        os.setgroups([])
        os.setresgid(user, user, user)
        os.setresuid(user, user, user)
        _no_new_privileges()
    except (OSError, ValueError) as error:
        _still_root(f"cannot become user {user}: {error}")
    if os.getresuid() != (user,) * 3 or os.getresgid() != (user,) * 3 or os.getgroups():
        _still_root(f"did not become user {user}")
    if any(int(mask, 16) for mask in _capabilities().values()):
        _still_root(f"kept capabilities as user {user}: {_capabilities()}")
    try:
        os.setuid(0)
    except PermissionError:
        return f"/proc/self/fd/{kept}"
    _still_root("could become root again")


def _reach_path_through_descriptors() -> None:
    """Open every folder (or zip file) on the import path, and every loaded package's, and
    put ``/proc/self/fd/N`` in its place: reachable by this process whoever it becomes."""
    opened: dict[str, int] = {}

    def through(entry: str) -> str:
        real = os.path.realpath(entry) if entry else entry
        for root, fd in opened.items():
            if real == root or real.startswith(root + os.sep):
                return f"/proc/self/fd/{fd}{real[len(root) :]}"
        return entry

    for entry in sys.path:
        real = os.path.realpath(entry) if entry else ""
        if real and os.path.exists(real) and through(real) == real:
            opened[real] = os.open(real, os.O_RDONLY)
    sys.path[:] = [through(entry) for entry in sys.path]
    for module in list(sys.modules.values()):
        paths = getattr(module, "__path__", None)
        if isinstance(paths, list):
            paths[:] = [through(entry) for entry in paths]
    sys.path_importer_cache.clear()


def _capabilities() -> dict[str, str]:
    """This process's capability sets, as ``/proc/self/status`` shows them (hex masks)."""
    with open("/proc/self/status") as status:
        return {
            name: mask
            for name, _, mask in (line.partition(":\t") for line in status)
            if name in ("CapInh", "CapPrm", "CapEff", "CapAmb")
        }


def _no_new_privileges() -> None:
    """Set ``PR_SET_NO_NEW_PRIVS``: no set-user-ID program can make this process root again."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")


_PR_SET_NO_NEW_PRIVS = 38


def _still_root(why: str) -> NoReturn:
    """Give up before the submission runs: say why on stderr, exit with :data:`STILL_ROOT`."""
    with contextlib.suppress(Exception):
        sys.stderr.write(f"grading child: {why}\n")
        sys.stderr.flush()
    os._exit(STILL_ROOT)


def _probe(user: int) -> None:
    """Become ``user`` as a board would, and print who this process is now, as JSON."""
    _become(user, os.devnull)
    try:
        os.kill(os.getppid(), 0)
        signals_parent = True
    except PermissionError:
        signals_parent = False
    who = {
        "uid": os.getresuid(),
        "gid": os.getresgid(),
        "groups": os.getgroups(),
        "pid": os.getpid(),
        "sid": os.getsid(0),
        "signals_parent": signals_parent,
        "capabilities": sorted({int(mask, 16) for mask in _capabilities().values()}),
    }
    print(json.dumps(who))


def _load(path: str, *, read_from: str | None = None) -> Any:
    """Import the submission from its file ``path``, with its folder importable; or, given
    ``read_from`` (where the file is reached since :func:`_become`), from there, alone."""
    spec = importlib.util.spec_from_file_location("submission", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    loader = spec.loader
    if read_from is None:
        sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    else:
        loader = importlib.machinery.SourceFileLoader("submission", read_from)
        spec = importlib.util.spec_from_file_location("submission", read_from, loader=loader)
        if spec is None:
            raise ImportError(f"{path} cannot be read")
    module = importlib.util.module_from_spec(spec)
    sys.modules["submission"] = module
    _OWN_FILES.add(spec.origin or path)
    loader.exec_module(module)
    sweep = getattr(module, "sweep_mines", None)
    if sweep is None:
        raise _Misfit("missing", _functions(module))
    _check_fits(sweep)
    return sweep


class _Misfit(Exception):
    """``sweep_mines`` does not fit the contract: how (``wording.Misfit``'s value), and what
    was found."""

    def __init__(self, kind: str, found: str) -> None:
        super().__init__(found)
        self.kind = kind
        self.found = found


_CO_VARARGS, _CO_GENERATOR = 0x04, 0x20
_CO_COROUTINE, _CO_ITERABLE_COROUTINE, _CO_ASYNC_GENERATOR = 0x80, 0x100, 0x200


def _check_fits(sweep: Any) -> None:
    """Raise :class:`_Misfit` if ``sweep`` is not a function to call with the manager alone.

    Read from its code object (``inspect`` would cost every board its import): a class, a
    value that is not callable, a generator or coroutine function, or parameters that the
    manager alone does not fill. A callable it cannot read (a builtin, an object with
    ``__call__``) is let through, to be called.
    """
    if isinstance(sweep, type):
        raise _Misfit("class", "")
    if not callable(sweep):
        raise _Misfit("not callable", type(sweep).__name__[:100])
    function = getattr(sweep, "__func__", sweep)  # a bound method: its function
    code = getattr(function, "__code__", None)
    if not isinstance(code, type(_check_fits.__code__)):
        return
    flags = code.co_flags
    if flags & (_CO_GENERATOR | _CO_ASYNC_GENERATOR):
        raise _Misfit("generator", "")
    if flags & (_CO_COROUTINE | _CO_ITERABLE_COROUTINE):
        raise _Misfit("coroutine", "")
    bound = 1 if function is not sweep and getattr(sweep, "__self__", None) is not None else 0
    positional = code.co_argcount - bound
    required = positional - len(getattr(function, "__defaults__", None) or ())
    keywords = code.co_kwonlyargcount - len(getattr(function, "__kwdefaults__", None) or {})
    if required > 1 or keywords > 0 or (positional < 1 and not flags & _CO_VARARGS):
        names = code.co_varnames[bound : code.co_argcount + code.co_kwonlyargcount]
        raise _Misfit("parameters", ", ".join(names)[:100])


def _functions(module: Any) -> str:
    """The public functions and classes the submission defines, by name (the first five)."""
    try:
        names = [
            name
            for name, value in list(vars(module).items())
            if not name.startswith("_")
            and callable(value)
            and getattr(value, "__module__", None) == "submission"
        ]
    except Exception:
        return ""
    shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
    return shown[:200]


NOT_ALLOWED = "import not allowed"
"""How the ImportError of an import that ``--allow`` does not allow begins (``imports.py``
reads it back)."""

_ALWAYS_ALLOWED = frozenset({"__future__"})
"""Imports that are compiler directives, not modules the submission uses."""


def _allowed(text: str | None) -> frozenset[str] | None:
    """The modules ``--allow`` names (comma-separated), or ``None`` for no check."""
    if text is None:
        return None
    return frozenset(name.strip() for name in text.split(",") if name.strip())


def _police_imports(allowed: frozenset[str]) -> None:
    """Refuse, from now on, every import the submission makes of a module not ``allowed``.

    Three checks, because none sees every import: ``builtins.__import__`` is wrapped (every
    ``import`` statement and ``__import__`` call, even of a module already loaded), so is
    ``importlib.import_module`` (which goes around it), and an audit hook sees every module
    loaded for the first time by any other way. An
    import counts as the submission's when the nearest frame outside the import machinery
    runs the submission's code (for ``__import__``, the frame that calls it); what an allowed
    module, or the import system, imports for itself is not checked.
    """
    import builtins

    permitted = allowed | _ALWAYS_ALLOWED
    original = builtins.__import__
    shown = ", ".join(sorted(allowed)) or "no module"

    def refuse(name: str) -> None:
        raise ImportError(f"{NOT_ALLOWED}: {name!r} (allowed: {shown})", name=name)

    def checked(
        name: str,
        globals: Any = None,
        locals: Any = None,
        fromlist: Any = (),
        level: int = 0,
    ) -> Any:
        outside = level == 0 and name.partition(".")[0] not in permitted
        if outside and sys._getframe(1).f_globals.get("__name__") == "submission":
            refuse(name)  # the statement (or the call) is the submission's own
        return original(name, globals, locals, fromlist, level)

    def audit(event: str, args: tuple[Any, ...]) -> None:
        if event != "import" or not isinstance(args[0], str):
            return
        outside = args[0].partition(".")[0] not in permitted
        if outside and _by_submission(sys._getframe(1), machinery):
            refuse(args[0])

    load = importlib.import_module

    def import_module(name: str, package: str | None = None) -> Any:
        outside = not name.startswith(".") and name.partition(".")[0] not in permitted
        if outside and sys._getframe(1).f_globals.get("__name__") == "submission":
            refuse(name)
        return load(name, package)

    machinery = {checked.__code__, audit.__code__, import_module.__code__}
    builtins.__import__ = checked
    importlib.import_module = import_module  # it calls the import system, not __import__
    sys.addaudithook(audit)


_MACHINERY = frozenset(
    {
        "<frozen importlib._bootstrap>",
        "<frozen importlib._bootstrap_external>",
        "<frozen zipimport>",
    }
)
"""The frozen modules of the import system: their frames are the machinery, not the caller."""


def _by_submission(frame: Any, machinery: set[Any]) -> bool:
    """Whether the nearest frame outside the import machinery (and the police's own) is the
    submission's code."""
    folder = os.path.dirname(importlib.util.__file__)
    while frame is not None:
        code = frame.f_code
        name = code.co_filename
        inside = name in _MACHINERY or name.startswith(folder + os.sep)
        if not inside and code not in machinery:
            return bool(frame.f_globals.get("__name__") == "submission")
        frame = frame.f_back
    return False


# The zygote: one sandboxed process per submission that forks a fresh board process per board.

_CLONE_NEWNS = 0x00020000
_CLONE_NEWUTS = 0x04000000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_BIND, _MS_REC, _MS_PRIVATE = 0x1000, 0x4000, 1 << 18
_PR_CAPBSET_DROP = 24
_CAPABILITY_VERSION_3 = 0x20080522

BOARD_FAILED = 5
"""Exit status of a board process that could not be set up (before the submission ran)."""

_FDS = 4
"""Descriptors each order carries: the channel's two ends, the output, the report socket."""


def _zygote(argv: list[str]) -> None:
    """Serve orders from the grader until it closes the control socket: each order is a board
    (or an import check), played by a board process forked for it (:func:`_board`).

    The zygote itself runs only this script: the submission is never imported here, so every
    board starts from the same clean process, and nothing a board does reaches the next.
    """
    import signal
    import socket

    parser = argparse.ArgumentParser(prog="child.py --zygote")
    parser.add_argument("--allow", default=None)
    parser.add_argument("control", type=int)
    parser.add_argument("submission")
    options = parser.parse_args(argv)
    sys.dont_write_bytecode = True
    _forget_own_folder()
    allow = _allowed(options.allow)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the board supervisors reap themselves
    control = socket.socket(fileno=options.control)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(control, 65536, _FDS)
        except OSError:
            return
        if not data:
            return
        order = json.loads(data)
        if os.fork() == 0:
            try:
                control.close()
                _board(order, fds, options.submission, allow)
            finally:
                os._exit(0)
        for fd in fds:
            os.close(fd)


def _board(order: dict[str, Any], fds: list[int], submission: str, allow: Any) -> None:
    """Supervise one board: isolate it, fork its process, report it to the grader, reap it.

    This process (the board's supervisor) runs only this script. The board process it forks is
    the first process of a new PID namespace, so it sees no other process, and when it ends
    every process it started ends with it. Reported on the report socket, in order:
    ``{"pid": n}`` with a pidfd of the board process, then ``{"set": true}`` (set up, the
    submission may run) or ``{"error": why}``, then ``{"status": code}``.
    """
    import signal
    import socket

    read_fd, write_fd, output_fd, report_fd = fds
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    report = socket.socket(fileno=report_fd)

    def tell(message: dict[str, Any], passed: tuple[int, ...] = ()) -> None:
        data = json.dumps(message).encode()
        if passed:
            socket.send_fds(report, [data], list(passed))
        else:
            report.send(data)

    try:
        _isolate(int(order["disk"]))
    except OSError as error:
        tell({"error": f"cannot isolate the board: {error}"})
        return
    setup_r, setup_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(setup_r)
            report.close()
            _board_process(order, read_fd, write_fd, output_fd, setup_w, submission, allow)
        finally:
            os._exit(BOARD_FAILED)
    for fd in (read_fd, write_fd, output_fd, setup_w):
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    tell({"pid": pid}, (pidfd,))
    os.close(pidfd)
    said = b""
    while chunk := os.read(setup_r, 4096):
        said += chunk
    tell({"error": said.decode("utf-8", "replace")} if said else {"set": True})
    _, status = os.waitpid(pid, 0)
    tell({"status": os.waitstatus_to_exitcode(status)})


def _isolate(disk: int) -> None:
    """Give this process (and the board process it forks next) namespaces of its own: user,
    mount, PID, network, IPC and host name; a fresh ``/tmp`` of ``disk`` bytes with an empty
    working folder; ``/proc`` covered by an empty read-only folder.

    Raises
    ------
    OSError
        A step failed (nothing of the submission has run).
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    _write("/proc/self/oom_score_adj", "1000")  # the board, before the grader's processes
    flags = _CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWIPC
    _check(libc, libc.unshare(flags | _CLONE_NEWUTS), "unshare")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    _check(libc, libc.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "mount /")
    below_tmp = _python_below_tmp()  # a virtual environment in a clone under /tmp, say
    kept = [os.open(root, os.O_RDONLY | os.O_DIRECTORY) for root in below_tmp]
    size = f"size={disk},mode=1777".encode()
    _check(libc, libc.mount(b"tmpfs", b"/tmp", b"tmpfs", _MS_NOSUID | _MS_NODEV, size), "/tmp")
    for root, fd in zip(below_tmp, kept, strict=True):  # bound again over the fresh /tmp
        os.makedirs(root, exist_ok=True)
        source = f"/proc/self/fd/{fd}".encode()
        _check(libc, libc.mount(source, root.encode(), None, _MS_BIND | _MS_REC, None), root)
        os.close(fd)
    os.mkdir("/tmp/grading")
    os.chdir("/tmp/grading")
    hide = _MS_RDONLY | _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
    _check(libc, libc.mount(b"tmpfs", b"/proc", b"tmpfs", hide, b"size=4096"), "/proc")


def _python_below_tmp() -> list[str]:
    """The interpreter's folders (its prefixes and its executable's) that lie below ``/tmp``:
    a board's fresh ``/tmp`` would cover them, and with them the modules not yet imported."""
    names = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    names |= {os.path.dirname(sys.executable)}
    roots = sorted({os.path.realpath(name) for name in names if name}, key=len)
    below: list[str] = []
    for root in roots:
        inside = root.startswith("/tmp/") and not root.startswith("/tmp/grading/")
        if inside and not any(root.startswith(other + "/") for other in below):
            below.append(root)
    return below


def _board_process(
    order: dict[str, Any],
    read_fd: int,
    write_fd: int,
    output_fd: int,
    setup_w: int,
    submission: str,
    allow: Any,
) -> None:
    """The board process: drop every capability, set the limits, keep only its own
    descriptors, then import the submission and play (:func:`_play`); never returns."""
    try:
        _drop_capabilities()
        _limit(
            int(order["memory"]),
            int(order["cpu"]),
            int(order["file_size"]),
            int(order["processes"]),
        )
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        kept = sorted({0, 1, 2, read_fd, write_fd, setup_w})
        for low, high in zip(kept, [*kept[1:], 65536], strict=True):
            os.closerange(low + 1, high)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.write(setup_w, f"cannot set up the board: {error!r}".encode())
        os._exit(BOARD_FAILED)
    os.close(setup_w)  # the supervisor reads end of file: set up
    _play(
        submission,
        int(order["rows"]),
        int(order["cols"]),
        read_fd,
        write_fd,
        check=bool(order["check"]),
        allow=allow,
    )
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(0)


def _drop_capabilities() -> None:
    """Drop every capability for good: the bounding set, then the effective, permitted and
    inheritable sets; and no new privileges ever.

    Raises
    ------
    OSError
        One of them could not be dropped, or a capability is left.
    """
    import ctypes
    import errno

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in range(64):
        dropped = libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0) == 0
        if not dropped and ctypes.get_errno() != errno.EINVAL:  # EINVAL: past the last one
            _check(libc, -1, "drop the bounding set")
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    none = (ctypes.c_uint32 * 6)()
    _check(libc, libc.capset(header, none), "capset")
    _check(libc, libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")
    left = (ctypes.c_uint32 * 6)()
    _check(libc, libc.capget(header, left), "capget")
    if any(left):
        raise OSError(f"capabilities left: {list(left)}")


def _check(libc: Any, result: int, what: str) -> None:
    """Raise ``OSError`` with the C library's error if ``result`` is -1."""
    if result != 0:
        import ctypes

        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


_OWN_FILES: set[str] = set()
"""The submission's file, as its code objects name it (once it is being imported)."""

_FRAMES = 4
"""Frames of the submission's code sent at most (``text.FRAMES_KEPT``)."""

_LINE = 120
"""Characters of a line of its code sent (``text.LINE_CAP``)."""


def _describe(error: BaseException, submission: str) -> dict[str, Any]:
    """The error message for ``error``: its type and message, and where in the submission's
    own code (or, for a misfit, how it does not fit)."""
    if isinstance(error, _Misfit):
        return {"type": "sweep_mines", "message": error.found, "misfit": error.kind}
    try:  # a SyntaxError in the submission: its line is a frame, its message the rest
        own = isinstance(error, SyntaxError) and error.filename in _OWN_FILES
        message = str(error.msg if isinstance(error, SyntaxError) and own else error)
    except Exception:
        message = "(an exception whose message cannot be read)"
    described: dict[str, Any] = {"type": type(error).__name__[:100], "message": message[:500]}
    try:
        frames, skipped = _frames(error, os.path.basename(submission))
    except BaseException:  # out of memory, a poisoned line cache: the message is enough
        return described
    if frames:
        described["frames"] = frames
    if skipped:
        described["skipped"] = skipped
    return described


def _frames(error: BaseException, name: str) -> tuple[list[list[Any]], int]:
    """The last :data:`_FRAMES` runs of frames of the submission's own code in ``error``'s
    traceback, innermost last, as ``[file, line, function, text, times]`` (a run: calls in a
    row from one line), and how many of its frames came before them.

    A :class:`SyntaxError` in the submission names its line itself. The grader's frames (this
    script's) and the standard library's are never kept: the last frame kept is the
    submission's line that raised, or that made the call that raised.
    """
    import collections
    import linecache

    runs: collections.deque[list[Any]] = collections.deque()
    skipped = 0
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in _OWN_FILES:
            line, function = tb.tb_lineno or 0, getattr(code, "co_qualname", code.co_name)
            if runs and runs[-1][:3] == [code.co_filename, line, function]:
                runs[-1][3] += 1
            else:
                runs.append([code.co_filename, line, function, 1])
                if len(runs) > _FRAMES:
                    skipped += runs.popleft()[3]
        tb = tb.tb_next
    if isinstance(error, SyntaxError) and error.filename in _OWN_FILES and error.lineno:
        runs.append([error.filename, error.lineno, "", 1])
        if len(runs) > _FRAMES:
            skipped += runs.popleft()[3]
    frames = []
    for file, line, function, times in runs:
        text = linecache.getline(file, line).strip()[:_LINE]
        frames.append([name[:100], line, str(function)[:100], text, times])
    return frames, skipped


def _short(value: Any) -> str:
    """A short repr, safe for cycles, huge values and a ``__repr__`` that raises."""
    try:
        return _REPR.repr(value)[:200]
    except Exception:
        return f"<{type(value).__name__} object>"


def _lost() -> NoReturn:
    """The channel is broken: flush what was printed and exit at once."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(CHANNEL_LOST)


if __name__ == "__main__":
    main(sys.argv[1:])
