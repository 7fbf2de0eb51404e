"""The users boards run as outside a sandbox when the grader is root: a fresh one per board.

A child of root can do anything: ``kill(-1, SIGKILL)`` ends every process on the machine.
So where there is no sandbox and the grader is root, each board's child becomes a user of its
own (``child.py --user``) before it reads the submission: an unused numeric user and group id,
with no supplementary group and no way back to root. It can then signal only its own
processes (``kill(-1, ...)`` ends its board and nothing else, not even the board beside it),
read only what every user may read, and write only where every user may write; and the
kernel holds it to ``RLIMIT_NPROC``, counted for its board alone. After the board every
process of that user is killed, whatever it did to its environment.

Glossary
--------
board user
    The user (and group) id one board runs as: unused by any process, any account or group,
    and any other board of this grader, while the board lasts.
"""

from __future__ import annotations

import functools
import grp
import json
import os
import pwd
import random
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

from .errors import GradingError

__all__ = ["BOARD_USERS", "board_user", "processes_of", "release", "unprivileged_problem"]

BOARD_USERS = range(2_000_000_000, 2_100_000_000)
"""The ids boards run as where the system maps them (outside any user namespace it does):
far above the accounts and the ranges container tools hand out."""

_SPARE = 4096
"""Inside a user namespace that does not map :data:`BOARD_USERS`: how many of the highest ids
it maps are used instead."""

_RESERVED = frozenset({65534, 65535, 4294967295})
"""Ids never used: ``nobody``, and the ids that mean "no id"."""

_TRIES = 100

_CHILD = Path(__file__).with_name("child.py")
"""The grading child's script (``process.CHILD``), which the probe runs: named here, not
imported from ``process.py``, which imports this module."""

_lock = threading.Lock()
_in_use: set[int] = set()


def board_user() -> int:
    """A fresh user id for one board, held until :func:`release`.

    Raises
    ------
    GradingError
        No unused id can be found.

    Notes
    -----
    O(processes on the system): one pass over ``/proc`` for the ids in use.
    """
    pool = _pool()
    running = _running_ids()
    with _lock:
        for _ in range(_TRIES):
            user = random.SystemRandom().choice(pool)
            if user in _in_use or user in running or user in _RESERVED or _named(user):
                continue
            _in_use.add(user)
            return user
    raise GradingError("no unused user id is left to run a board as")


def release(user: int) -> None:
    """Let ``user`` be handed out again (its processes are gone)."""
    with _lock:
        _in_use.discard(user)


def processes_of(user: int) -> list[int]:
    """The ids of the live processes whose real, effective or saved user is ``user`` (a
    zombie is already dead: only its parent can remove it)."""
    found = []
    for pid in _pids():
        if user in _user_ids(pid):
            found.append(pid)
    return found


@functools.cache
def unprivileged_problem() -> str | None:
    """Why a board cannot run as a board user here, or ``None`` when it can.

    Runs ``child.py --probe`` once per process (about 40 ms): the child must become an unused
    id, in its own session, with no group, unable to signal this process.
    """
    user = board_user()
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-B", str(_CHILD), "--probe", str(user)],
            capture_output=True,
            timeout=30,
            check=False,
            start_new_session=True,
            cwd="/",
            env={"PATH": os.defpath, "LANG": "C.UTF-8"},
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"the probe does not run: {error}"
    finally:
        release(user)
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    if done.returncode != 0:
        return said[-1] if said else f"the probe exited with status {done.returncode}"
    try:
        who = json.loads(done.stdout)
    except ValueError:
        return "the probe said something unreadable"
    expected = {
        "uid": [user] * 3,
        "gid": [user] * 3,
        "groups": [],
        "signals_parent": False,
        "capabilities": [0],
    }
    if any(who.get(name) != value for name, value in expected.items()):
        return f"the probe did not become user {user} alone: {who}"
    if who.get("sid") != who.get("pid"):
        return "the probe did not run in a session of its own"
    return None


def _pool() -> range:
    """The ids to choose from: :data:`BOARD_USERS`, or the highest ids the namespace maps."""
    mapped = _common(_mapped("uid_map"), _mapped("gid_map"))
    if any(r.start <= BOARD_USERS.start and BOARD_USERS.stop <= r.stop for r in mapped):
        return BOARD_USERS
    usable = [range(max(r.start, 1000), r.stop) for r in mapped if r.stop > 1000]
    if not usable:
        raise GradingError("no unprivileged user id is mapped here to run a board as")
    widest = max(usable, key=len)
    return range(max(widest.start, widest.stop - _SPARE), widest.stop)


def _mapped(name: str) -> list[range]:
    """The ids this process's user namespace maps (all of them where it cannot tell)."""
    try:
        lines = Path("/proc/self", name).read_text().splitlines()
    except OSError:
        return [range(0, 2**32 - 1)]
    ranges = []
    for line in lines:
        inside, _, count = (int(field) for field in line.split())
        ranges.append(range(inside, inside + count))
    return ranges


def _common(first: Iterable[range], second: Iterable[range]) -> list[range]:
    """The ids in both lists of ranges."""
    both = []
    for a in first:
        for b in second:
            start, stop = max(a.start, b.start), min(a.stop, b.stop)
            if start < stop:
                both.append(range(start, stop))
    return both


def _named(user: int) -> bool:
    """Whether ``user`` is an account's id or ``user`` a group's."""
    try:
        pwd.getpwuid(user)
        return True
    except KeyError:
        pass
    try:
        grp.getgrgid(user)
        return True
    except KeyError:
        return False


def _running_ids() -> set[int]:
    """Every user id some process runs with."""
    ids: set[int] = set()
    for pid in _pids():
        ids.update(_user_ids(pid))
    return ids


def _pids() -> list[int]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    return [int(name) for name in names if name.isdigit()]


def _user_ids(pid: int) -> tuple[int, ...]:
    """A live process's real, effective, saved and file-system user ids (none once it is gone,
    or a zombie)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("State:") and line.split()[1] in ("Z", "X"):
                    return ()
                if line.startswith("Uid:"):
                    return tuple(int(field) for field in line.split()[1:])
    except (OSError, ValueError):
        pass
    return ()
