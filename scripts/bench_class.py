"""Benchmark a class run: ``grade class`` on a generated class, with the sandbox on.

Generates a class of N students (by default 300) whose submissions are a mix of what a course
gets: correct ones (a self-contained AC-3-strength solver, each copy with its own comment),
partial ones (single-clue deductions only: wrong boards from the middle tiers up), ones that
crash (at import, or in ``sweep_mines`` from 5 mines up), ones that hang (on the 16x30 boards:
one spins, one sleeps), hostile ones (print megabytes, fork until refused, ``kill(-1,
SIGKILL)``, allocate 2 GiB, close every descriptor, fill ``/tmp``), files that are not Python
and two students of one name. Then runs ``mineshafted grade class`` on it as a user would (a
subprocess, ``--sandbox bwrap``: the hostile submissions run only inside the sandbox; the
script refuses to run without it), and reports the wall time against the target (300 x 32
boards in 5 minutes), the machine's load before and after, and per kind of submission the
outcomes and the median time a student took.

``--hang-every N`` puts N students in the class whose sweep hangs on every board (instead of
the two that hang on the 16x30 boards only). ``--targets`` runs the two bounded-class targets
at the grader's default limits (no ``--timeout``, the default ``--jobs``, ``--max-timeouts``
at its default): 45 students, one hanging on every board, in at most 150 s; 300 students,
five hanging on every board, in at most 300 s. ``--grade-args`` passes more options to
``grade class`` (``--grade-args=--max-timeouts=0`` runs every board, as before the budget).

``--compare N`` also grades N correct students one by one both ways, alternately: a fresh
sandbox and interpreter per board (``grade`` as before) and a zygote per student (the class
run's way), and reports both medians and their ratio.

    python scripts/bench_class.py                          # 300 students, --jobs 2
    python scripts/bench_class.py --students 30 --compare 5
    python scripts/bench_class.py --targets                # the two bounded-class targets
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

TARGET = 300.0
"""Seconds allowed for 300 students x 32 boards."""

TARGETS = ((45, 1, 150.0), (300, 5, 300.0))
"""The bounded-class targets at default limits: (students, of them hanging on every board,
seconds allowed)."""

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "class"

SOLVER = (EXAMPLES / "ann.py").read_text()
"""A correct, self-contained solver (examples/class/ann.py): single clues, subsets, then each
frontier component's placements (AC-3 strength on the graded boards); about 0.3 s of CPU for
32 boards in one process."""

PARTIAL = (EXAMPLES / "bob" / "lab.py").read_text()
"""Single clues only (examples/class/bob/lab.py): it solves about 19 of the 32 boards."""

TOP = "    rows, cols = bm.size\n"
"""The line each variant of the solver adds its behaviour after."""


def after_top(code: str) -> str:
    """The solver with ``code`` run first in ``sweep_mines``."""
    return SOLVER.replace(TOP, TOP + code, 1)


KINDS: dict[str, str] = {
    "correct": SOLVER,
    "partial": PARTIAL,
    "crash at import": "def sweep_mines(bm:\n    return None\n",
    "crash in sweep": after_top("    if rows >= 8:\n        raise ValueError(rows)\n"),
    "hang (spin)": after_top("    while (rows, cols) == (16, 30):\n        pass\n"),
    "hang (sleep)": "import time\n"
    + after_top("    if (rows, cols) == (16, 30):\n        time.sleep(3600)\n"),
    "hang (every board)": "import time\n" + after_top("    time.sleep(3600)\n"),
    "prints megabytes": after_top("    print('x' * 5_000_000)\n"),
    "forks": (
        "import os, time\n"
        "def sweep_mines(bm):\n"
        "    while True:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(60)\n"
    ),
    "kills all": (
        "import os, signal\n"
        "def sweep_mines(bm):\n"
        "    if os.getpid() != 1:  # not the first process of a namespace of its own\n"
        "        raise RuntimeError('not alone in a PID namespace: refusing')\n"
        "    os.kill(-1, signal.SIGKILL)\n"
        "    return []\n"
    ),
    "allocates 2 GiB": "def sweep_mines(bm):\n    return [bytearray(2 * 1024**3)]\n",
    "closes descriptors": "import os\ndef sweep_mines(bm):\n    os.closerange(0, 1024)\n",
    "fills /tmp": (
        "def sweep_mines(bm):\n"
        "    with open('/tmp/fill', 'wb') as f:\n"
        "        while True:\n"
        "            f.write(b'x' * 1024 * 1024)\n"
    ),
}

SHARES = {
    "correct": 0.65,
    "partial": 0.15,
    "crash at import": 0.04,
    "crash in sweep": 0.06,
}
"""The share of each kind but the correct, which are the rest once two hanging students, three
of each hostile kind, three files that are not Python and two files of one name are added."""


def make_class(folder: Path, students: int, hang_every: int = 0) -> dict[str, str]:
    """Write a class of ``students`` into ``folder``; each student's kind, by name.

    With ``hang_every``, that many students hang on every board, and none on the 16x30 boards
    only."""
    kinds: dict[str, str] = {}
    fixed = ["hang (every board)"] * hang_every if hang_every else ["hang (spin)", "hang (sleep)"]
    fixed += [k for k in KINDS if k not in SHARES and not k.startswith("hang")] * 3
    plan = [
        kind
        for kind, share in SHARES.items()
        if kind != "correct"
        for _ in range(round(students * share))
    ]
    plan += fixed
    plan = ["correct"] * max(0, students - 5 - len(plan)) + plan
    for number, kind in enumerate(plan):
        name = f"s{number:03d}"
        (folder / f"{name}.py").write_text(f"# {name}: {kind}\n" + KINDS[kind])
        kinds[name] = kind
    for number in range(3):
        (folder / f"notpython{number}.ipynb").write_text("{}")
        kinds[f"notpython{number}"] = "not Python"
    (folder / "Twin.py").write_text(SOLVER)
    (folder / "twin.py").write_text(SOLVER)
    kinds["Twin"] = "two of one name"
    return kinds


def run_class(
    folder: Path, out: Path, jobs: int | None, timeout: float | None, extra: list[str]
) -> tuple[float, dict[str, Any]]:
    command = [sys.executable, "-m", "mineshafted", "grade", "class", str(folder)]
    command += ["--out", str(out), "--sandbox", "bwrap", "--format", "json", *extra]
    command += ["--jobs", str(jobs)] if jobs is not None else []
    command += ["--timeout", str(timeout)] if timeout is not None else []
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"grade class failed ({done.returncode}): {done.stderr.strip()}")
    return wall, json.loads(done.stdout)


def compare(count: int, folder: Path, timeout: float) -> None:
    from mineshafted.grading import BoardKey, Sandbox, grade

    boards = BoardKey.new().board_set().boards()
    paths = sorted(folder.glob("s*.py"))[:count]
    fresh: list[float] = []
    forked: list[float] = []
    for path in paths:
        for zygote, times in ((False, fresh), (True, forked)):
            began = time.perf_counter()
            grade(path, boards, jobs=2, sandbox=Sandbox.BWRAP, zygote=zygote, timeout=timeout)
            times.append(time.perf_counter() - began)
    old, new = statistics.median(fresh), statistics.median(forked)
    print(f"one correct student, 32 boards, alternately ({count} each):")
    print(f"  a sandbox and an interpreter per board, --jobs 2: median {old:.2f} s")
    print(f"  a zygote per student, boards one at a time:       median {new:.2f} s")
    print(f"  ratio {old / new:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per board")
    parser.add_argument("--hang-every", type=int, default=0, metavar="N")
    parser.add_argument("--targets", action="store_true", help="run the bounded-class targets")
    parser.add_argument("--grade-args", default="", help="more options for grade class")
    parser.add_argument("--compare", type=int, default=0, metavar="N")
    parser.add_argument("--keep", type=Path, default=None, help="keep the class and run here")
    options = parser.parse_args()
    from mineshafted.grading.sandbox import bwrap_problem

    problem = bwrap_problem()
    if problem is not None:
        raise SystemExit(f"the class holds hostile submissions: they run only in bwrap ({problem})")
    extra = options.grade_args.split()
    if options.targets:
        for students, hanging, allowed in TARGETS:
            print(f"target: {students} students, {hanging} hanging on every board, default limits")
            bench(students, hanging, None, None, extra, options.keep, 0, allowed)
        return
    bench(
        options.students,
        options.hang_every,
        options.jobs,
        options.timeout,
        extra,
        options.keep,
        options.compare,
        TARGET * options.students / 300,
    )


def bench(
    students: int,
    hang_every: int,
    jobs: int | None,
    timeout: float | None,
    extra: list[str],
    keep: Path | None,
    compared: int,
    allowed: float,
) -> None:
    """Make a class, grade it, and print the figures."""
    with tempfile.TemporaryDirectory() as scratch:
        base = (keep or Path(scratch)) / f"{students}-{hang_every}"
        folder = base / "class"
        folder.mkdir(parents=True)
        kinds = make_class(folder, students, hang_every)
        if compared:
            compare(compared, folder, timeout or 30.0)
        load_before = os.getloadavg()
        wall, data = run_class(folder, base / "run", jobs, timeout, extra)
        load_after = os.getloadavg()
    rows = len(data["students"])
    shown_jobs = f"--jobs {jobs}" if jobs is not None else "default --jobs"
    shown_timeout = f"--timeout {timeout:g}" if timeout is not None else "default --timeout"
    print(
        f"{students} students ({rows} rows), 32 boards each, {shown_jobs}, {shown_timeout}, "
        f"{' '.join(extra) or 'default --max-timeouts'}, bwrap, {os.cpu_count()} cores"
    )
    print(
        f"load average before {load_before[0]:.1f} {load_before[1]:.1f} {load_before[2]:.1f}; "
        f"after {load_after[0]:.1f} {load_after[1]:.1f} {load_after[2]:.1f}"
    )
    verdict = "met" if wall <= allowed else "MISSED"
    each = wall / students
    print(f"wall: {wall:.1f} s ({each:.2f} s a student; target {allowed:.0f} s: {verdict})")
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for student in data["students"]:
        by_kind.setdefault(kinds.get(student["student"], "?"), []).append(student)
    print(f"{'kind':<20} {'n':>4} {'score':>6} {'median s':>9}  outcomes")
    for kind in KINDS | {"not Python": "", "two of one name": ""}:
        found = by_kind.get(kind, [])
        if not found:
            continue
        outcomes = Counter(b["outcome"] for s in found for b in s["boards"])
        notes = Counter(n.split(":")[0] for s in found for n in s["notes"])
        score = statistics.median(s["score"] for s in found)
        seconds = statistics.median(s["seconds"] for s in found)
        said = ", ".join(f"{k} {v}" for k, v in outcomes.most_common()) or ", ".join(notes)
        print(f"{kind:<20} {len(found):>4} {score:>6g} {seconds:>9.2f}  {said}")


if __name__ == "__main__":
    main()
