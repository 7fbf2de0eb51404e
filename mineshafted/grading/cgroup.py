"""A board's control group: the memory and the number of all its processes, bounded together.

An address-space limit (``RLIMIT_AS``) holds one process, and a submission that forks holds
as many of them as it can start; the kernel does not hold root to ``RLIMIT_NPROC`` at all.
Where the grader can make one, each board therefore runs in a Linux control group of its
own, which the child joins before it runs anything (:mod:`.process`), so that everything the
submission starts is in it too:

- memory: ``memory.max`` (cgroup v2) or ``memory.limit_in_bytes`` (v1), with no swap beyond
  it where the kernel accounts swap (``memory.swap.max`` 0; ``memory.memsw.limit_in_bytes``):
  past it the kernel's out-of-memory killer ends one of the board's processes;
- tasks: ``pids.max``: past it ``fork`` fails (``EAGAIN``) whoever the user, root included.

Each group is made below the grader's own cgroup, so whatever bounds the grader bounds its
boards too, and is named ``mineshafted-grade-<grader's pid>-<random>``; after its board,
every process still in it is killed and it is removed. Groups left by a grader that was
killed are removed by the next one (once per process). Kept at about 450 lines: the plan and
the group read the same mount table and folders, in two hierarchies.

Glossary
--------
place
    Where a board's groups are made for a controller: the grader's own cgroup in the
    hierarchy that offers it (cgroup v2 where its ``cgroup.subtree_control`` passes the
    controller on, or can be made to; else the v1 hierarchy of that controller).
plan
    The place of each controller, and why there is none for the others (:func:`group_plan`).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import itertools
import logging
import os
import re
import secrets
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .errors import GradingError
from .leftovers import left_by_gone_graders

__all__ = [
    "CONTROLLERS",
    "GROUP_PREFIX",
    "BoardGroup",
    "Place",
    "Plan",
    "group_plan",
    "plan_from",
    "unenforced",
]

logger = logging.getLogger(__name__)

CONTROLLERS = ("memory", "pids")
"""The controllers a board's group uses."""

GROUP_PREFIX = "mineshafted-grade-"
"""How a board's group is named: then the grader's process id, a dash and a random part."""

_PATIENCE = 1.0
"""Seconds at most spent killing what is left in a group and trying to remove it."""

_PAUSES = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02)
"""Seconds between those tries, the last repeated: a killed process is usually gone within a
millisecond or two, but the kernel may take longer to end a big one."""


@dataclass(frozen=True)
class Place:
    """Where the groups are made for some controllers: a folder of one hierarchy."""

    folder: Path
    """The grader's own cgroup in that hierarchy; each board's group is made inside it."""
    version: int
    """1 or 2."""
    controllers: tuple[str, ...]
    """The controllers of :data:`CONTROLLERS` this place bounds."""


@dataclass(frozen=True)
class Plan:
    """Where this grader makes its boards' groups, controller by controller.

    Examples
    --------
    >>> Plan().missing_text()
    ''
    >>> Plan(missing={"pids": "no pids controller"}).missing_text()
    'pids: no pids controller'
    """

    places: tuple[Place, ...] = ()
    missing: Mapping[str, str] = field(default_factory=dict)
    """Each controller no place bounds, and why."""

    def missing_text(self) -> str:
        """The controllers not bounded, with why, in one phrase."""
        return "; ".join(f"{name}: {why}" for name, why in self.missing.items())


@functools.cache
def group_plan() -> Plan:
    """Where this grader makes its boards' groups: found once per process, and tried.

    Each place is tried by making a group there, setting its limits and removing it; a place
    where that fails is dropped, with the error as why. Groups left by graders that are gone
    are removed on the way.

    Notes
    -----
    Reads ``/proc/self/cgroup`` and ``/proc/self/mountinfo``; O(groups left behind).
    """
    try:
        cgroups = Path("/proc/self/cgroup").read_text()
        mounts = Path("/proc/self/mountinfo").read_text()
    except OSError as error:
        why = f"no cgroups here ({error.strerror})"
        return Plan(missing=dict.fromkeys(CONTROLLERS, why))
    plan = plan_from(cgroups, mounts)
    places, missing = [], dict(plan.missing)
    for place in plan.places:
        _remove_stale_groups(place.folder)
        problem = _try(place)
        if problem is None:
            places.append(place)
        else:
            missing.update(dict.fromkeys(place.controllers, problem))
    return Plan(tuple(places), {name: missing[name] for name in CONTROLLERS if name in missing})


def plan_from(cgroups: str, mounts: str) -> Plan:
    """The places the grader's cgroups offer, from ``/proc/self/cgroup`` and ``mountinfo``.

    Parameters
    ----------
    cgroups:
        The text of ``/proc/self/cgroup``: ``id:controllers:path`` lines (``0::path`` for v2).
    mounts:
        The text of ``/proc/self/mountinfo``: where each hierarchy is mounted.

    Notes
    -----
    A v2 place is kept for the controllers its ``cgroup.subtree_control`` passes on, after
    asking it to pass on those it offers (``cgroup.controllers``) but does not: the kernel
    allows that only to a cgroup without processes of its own, such as the root. v1 places
    fill in the controllers v2 does not bound. No group is made here (see :func:`group_plan`).
    """
    paths: dict[str, str] = {}
    for line in cgroups.splitlines():
        number, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        if number == "0" and not names:
            paths["cgroup2"] = path
        for name in names.split(","):
            paths[name] = path
    places: list[Place] = []
    missing: dict[str, str] = {}
    left = list(CONTROLLERS)
    v2 = _v2_folder(mounts, paths.get("cgroup2"))
    if v2 is not None:
        passed, missing = _passed_on(v2)
        if passed:
            places.append(Place(v2, 2, tuple(passed)))
        left = [name for name in left if name not in passed]
    for name in list(left):
        folder = _v1_folder(mounts, name, paths.get(name))
        if folder is not None:
            places.append(Place(folder, 1, (name,)))
            left.remove(name)
            missing.pop(name, None)
    for name in left:
        missing.setdefault(name, f"no cgroup v2 or v1 hierarchy offers the {name} controller")
    return Plan(tuple(places), {name: missing[name] for name in CONTROLLERS if name in missing})


def unenforced(
    plan: Plan | None = None, *, root: bool | None = None, own_user: bool = False
) -> list[str]:
    """What a board's limits do not hold here for want of a group, one warning each.

    Parameters
    ----------
    plan:
        Where groups are made; by default :func:`group_plan`.
    root:
        Whether the grader runs as root; by default, whether it does.
    own_user:
        Whether each board runs as a user of its own (:mod:`.users`): the kernel then holds
        it to ``RLIMIT_NPROC`` for its board alone, so its processes are bounded without a
        group.

    Examples
    --------
    >>> (warning,) = unenforced(Plan(missing={"pids": "none here"}), root=True)
    >>> print(warning.replace("; ", ";\\n"))
    the number of a board's processes is not bounded (the kernel does not hold root to RLIMIT_NPROC;
    no cgroup for pids: none here)
    """
    plan = plan if plan is not None else group_plan()
    if root is None:
        root = getattr(os, "geteuid", lambda: -1)() == 0
    warnings = []
    if "memory" in plan.missing:
        warnings.append(
            "the memory of a board's processes together is not bounded, only each "
            f"process's address space (no cgroup for memory: {plan.missing['memory']})"
        )
    if "pids" in plan.missing and not own_user:
        held = (
            "is not bounded (the kernel does not hold root to RLIMIT_NPROC"
            if root
            else "is bounded only with all of the user's processes (RLIMIT_NPROC counts them all"
        )
        warnings.append(
            f"the number of a board's processes {held}; no cgroup for pids: {plan.missing['pids']})"
        )
    return warnings


class BoardGroup:
    """One board's control group: a folder in each place of the plan.

    Parameters
    ----------
    memory_bytes:
        The most memory all the board's processes may hold together.
    tasks:
        The most processes and threads the board may run at once.
    plan:
        Where to make it; by default :func:`group_plan`.

    Raises
    ------
    GradingError
        A folder cannot be made or a limit cannot be set (what was made is removed).

    Notes
    -----
    Use it as a context manager: leaving it kills every process still in the group and
    removes it.
    """

    def __init__(self, memory_bytes: int, tasks: int, plan: Plan | None = None) -> None:
        self.plan = plan if plan is not None else group_plan()
        name = f"{GROUP_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        self.folders: list[tuple[Place, Path]] = []
        self.oom_kills = 0
        """Processes of the board the out-of-memory killer ended (read when it closes)."""
        try:
            for place in self.plan.places:
                folder = place.folder / name
                folder.mkdir()
                self.folders.append((place, folder))
                _set_limits(place, folder, memory_bytes, tasks)
        except OSError as error:
            self.close()
            raise GradingError(f"cannot make a board's cgroup: {error}") from None

    @property
    def bounds(self) -> tuple[str, ...]:
        """The controllers this group bounds."""
        return tuple(name for place, _ in self.folders for name in place.controllers)

    def join(self, pid: int) -> None:
        """Move process ``pid`` into the group (in each place); what it starts stays there.

        Raises
        ------
        OSError
            The kernel refuses.
        """
        for _, folder in self.folders:
            (folder / "cgroup.procs").write_text(f"{pid}\n")

    def close(self) -> None:
        """Kill every process still in the group, note the memory kills, remove the group."""
        self.oom_kills = max([self.oom_kills, *(_oom_kills(f) for _, f in self.folders)])
        for _, folder in reversed(self.folders):
            if not _remove(folder):
                logger.warning("%s: processes still in it; left in place", folder)
        self.folders.clear()

    def __enter__(self) -> BoardGroup:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _v2_folder(mounts: str, path: str | None) -> Path | None:
    """The grader's own cgroup in the mounted v2 hierarchy, if there is one."""
    if path is None:
        return None
    for root, point, kind, _ in _mount_lines(mounts):
        if kind == "cgroup2":
            return _below(point, root, path)
    return None


def _v1_folder(mounts: str, controller: str, path: str | None) -> Path | None:
    """The grader's own cgroup in the mounted v1 hierarchy of ``controller``, if any."""
    if path is None:
        return None
    for root, point, kind, options in _mount_lines(mounts):
        if kind == "cgroup" and controller in options.split(","):
            return _below(point, root, path)
    return None


def _mount_lines(mounts: str) -> list[tuple[str, str, str, str]]:
    """Each mount's root, mount point, file system type and super options."""
    found = []
    for line in mounts.splitlines():
        head, _, tail = line.partition(" - ")
        fields, after = head.split(), tail.split()
        if len(fields) >= 5 and len(after) >= 3:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
            found.append((fields[3], point, after[0], after[2]))
    return found


def _below(point: str, root: str, path: str) -> Path | None:
    """The folder of cgroup ``path`` under a mount of the hierarchy's ``root`` at ``point``."""
    relative = os.path.relpath(path, root) if root != "/" else path.lstrip("/")
    if relative.startswith(".."):
        return None  # the grader's cgroup is outside what is mounted here
    return Path(point, relative) if relative not in ("", ".") else Path(point)


def _passed_on(folder: Path) -> tuple[list[str], dict[str, str]]:
    """The controllers a v2 cgroup passes on to its children, and why not each other one."""
    try:
        offered = (folder / "cgroup.controllers").read_text().split()
    except OSError as error:
        why = f"cgroup v2 at {folder} cannot be read ({error.strerror})"
        return [], dict.fromkeys(CONTROLLERS, why)
    shown = " ".join(offered) or "no controller"
    missing = {
        name: f"cgroup v2 here offers only {shown}" for name in CONTROLLERS if name not in offered
    }
    wanted = [name for name in CONTROLLERS if name in offered]
    if not wanted:
        return [], missing
    control = folder / "cgroup.subtree_control"
    try:
        passed = control.read_text().split()
        if not all(name in passed for name in wanted):
            control.write_text(" ".join(f"+{name}" for name in wanted))
            passed = [name.lstrip("+") for name in control.read_text().split()]
    except OSError as error:
        busy = ": it holds processes" if error.errno == errno.EBUSY else ""
        why = (
            f"cgroup v2 at {folder} does not pass {' and '.join(wanted)} on to its children "
            f"and cannot be made to ({error.strerror}{busy})"
        )
        return [], missing | dict.fromkeys(wanted, why)
    return [name for name in wanted if name in passed], missing


def _set_limits(place: Place, folder: Path, memory_bytes: int, tasks: int) -> None:
    """Write the group's limits into its folder in ``place``."""
    if "memory" in place.controllers:
        if place.version == 2:
            (folder / "memory.max").write_text(str(memory_bytes))
            _write_if_there(folder / "memory.swap.max", "0")
        else:
            (folder / "memory.limit_in_bytes").write_text(str(memory_bytes))
            _write_if_there(folder / "memory.memsw.limit_in_bytes", str(memory_bytes))
    if "pids" in place.controllers:
        (folder / "pids.max").write_text(str(tasks))


def _write_if_there(path: Path, value: str) -> None:
    """Write ``value`` to an interface file the kernel may not have (no swap accounting)."""
    if path.exists():
        path.write_text(value)


def _try(place: Place) -> str | None:
    """Make a group in ``place``, set limits and remove it; why that failed, or ``None``."""
    folder = place.folder / f"{GROUP_PREFIX}{os.getpid()}-probe-{secrets.token_hex(4)}"
    try:
        folder.mkdir()
    except OSError as error:
        return f"cannot make a cgroup in {place.folder}: {error.strerror}"
    try:
        _set_limits(place, folder, 64 * 1024 * 1024, 8)
    except OSError as error:
        return f"cannot set a limit in a cgroup in {place.folder}: {error.strerror}"
    finally:
        _remove(folder)
    return None


def _remove(folder: Path) -> bool:
    """Kill every process in the group at ``folder`` and remove it; whether it is gone.

    Notes
    -----
    A process killed is in the group until the kernel has ended it, so this tries again for
    up to :data:`_PATIENCE` seconds.
    """
    deadline = time.monotonic() + _PATIENCE
    for round_ in itertools.count():
        kill = folder / "cgroup.kill"  # v2 since Linux 5.14: every process at once
        try:
            if kill.exists():
                kill.write_text("1")
            for pid in _members(folder):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            folder.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError as error:
            if error.errno != errno.EBUSY or time.monotonic() > deadline:
                return False  # not a group still ending its processes, or too long
            time.sleep(_PAUSES[min(round_, len(_PAUSES) - 1)])
    return False  # pragma: no cover - the loop above ends only by returning


def _members(folder: Path) -> list[int]:
    """The processes in a group."""
    try:
        return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _oom_kills(folder: Path) -> int:
    """How many processes of the group the out-of-memory killer has ended (0 if unknown)."""
    for name in ("memory.events", "memory.oom_control"):
        with contextlib.suppress(OSError, ValueError):
            for line in (folder / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
    return 0


def _remove_stale_groups(folder: Path) -> None:
    """Remove the groups left in ``folder`` by graders that are no longer running."""
    for entry in left_by_gone_graders(folder, GROUP_PREFIX):
        if _remove(entry):
            logger.info("removed %s, left by a grader that is gone", entry)
