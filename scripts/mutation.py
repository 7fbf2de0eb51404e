"""Mutation testing of the solver, grader, probability, agents, rules: mutmut, then the scores.

mutmut 3 (configured in ``pyproject.toml``'s ``[tool.mutmut]`` table) copies the package into
``mutants/``, makes every mutant of the modules in ``only_mutate``, and runs, for each mutant,
only the tests that reach its function. This script runs it (optionally for some modules only)
and prints a markdown table from the results it leaves in ``mutants/``: per module the mutants,
how many were killed or timed out, how many survived (or no test reached), and the score.

    pip install mutmut                                       # not a dev dependency: too slow for CI
    python scripts/mutation.py                               # every configured module
    python scripts/mutation.py solver.knowledge grading.rubric   # just these (prefix: mineshafted.)
    python scripts/mutation.py 'solver.search.x_backbone*'       # some functions (mutmut's names)
    python scripts/mutation.py agents.kb rules.parser --children 1   # one test process at a time
    python scripts/mutation.py --table                       # print the last results, run nothing
    python scripts/mutation.py --survivors                   # test again only what survived
    mutmut results; mutmut show NAME                         # the survivors and their diffs

Results are cached in ``mutants/`` (delete it to start over). It takes tens of minutes on two
cores; run it before resolving an issue that changes these modules.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

MUTANTS = Path("mutants")
"""Where mutmut keeps the mutated copy and one ``.meta`` file of results per source file."""

KILLED = frozenset({1, 3, 37})
"""mutmut's exit codes of a killed mutant: a test failed, pytest crashed, or mypy caught it."""
TIMEOUT = frozenset({-24, 24, 36, 152, 255})
"""mutmut's exit codes of a mutant that timed out (it counts as killed)."""
UNCOUNTED = frozenset({34})
"""Skipped mutants: not part of the score."""


@dataclass(frozen=True)
class Score:
    """One module's mutants by outcome."""

    module: str
    mutants: int
    killed: int
    survived: int

    @property
    def percent(self) -> float:
        """Killed or timed out, in percent of the mutants counted (100 when there are none)."""
        return 100.0 * self.killed / self.mutants if self.mutants else 100.0


def score(module: str, exit_codes: Mapping[str, int | None]) -> Score:
    """Count one module's mutants from mutmut's ``exit_code_by_key``.

    A mutant not yet checked (``None``) or skipped is left out; one that survived, reached no
    test or is suspicious counts against the score.

    >>> score("m", {"a": 1, "b": 0, "c": 36, "d": None, "e": 5, "f": 34})
    Score(module='m', mutants=4, killed=2, survived=2)
    """
    counted = [c for c in exit_codes.values() if c is not None and c not in UNCOUNTED]
    killed = sum(c in KILLED or c in TIMEOUT for c in counted)
    return Score(module, len(counted), killed, len(counted) - killed)


def scores(root: Path = MUTANTS) -> list[Score]:
    """The score of every module with checked mutants under ``root``, in path order."""
    result = []
    for meta in sorted(root.rglob("*.py.meta")):
        source = meta.relative_to(root).with_suffix("").with_suffix("")
        exit_codes = json.loads(meta.read_text())["exit_code_by_key"]
        counted = score(".".join(source.parts), exit_codes)
        if counted.mutants:
            result.append(counted)
    return result


def survivors(root: Path = MUTANTS) -> list[str]:
    """The names of the mutants that were checked and not killed (survived, no tests, ...)."""
    names = []
    for meta in sorted(root.rglob("*.py.meta")):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            if code is not None and code not in UNCOUNTED | KILLED | TIMEOUT:
                names.append(name)
    return names


def table(rows: Iterable[Score]) -> str:
    """The scores as a markdown table, with a total row.

    >>> print(table([Score("mineshafted.solver.arcs", 10, 9, 1)]))
    | module | mutants | killed or timed out | survived | score |
    |---|---:|---:|---:|---:|
    | solver.arcs | 10 | 9 | 1 | 90.0% |
    | **total** | 10 | 9 | 1 | 90.0% |
    """
    listed = list(rows)
    total = Score(
        "**total**",
        sum(r.mutants for r in listed),
        sum(r.killed for r in listed),
        sum(r.survived for r in listed),
    )
    lines = [
        "| module | mutants | killed or timed out | survived | score |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in [*listed, total]:
        name = r.module.removeprefix("mineshafted.")
        lines.append(f"| {name} | {r.mutants} | {r.killed} | {r.survived} | {r.percent:.1f}% |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run mutmut over the chosen modules (all configured when none), then print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "modules", nargs="*", help="modules to mutate, e.g. solver.sweep (default: all configured)"
    )
    parser.add_argument("--table", action="store_true", help="only print the last results")
    parser.add_argument(
        "--survivors", action="store_true", help="test again only the mutants not yet killed"
    )
    parser.add_argument("--children", type=int, default=2, help="parallel test processes")
    args = parser.parse_args(argv)
    if not args.table:
        names = [_pattern(m) for m in args.modules]
        if args.survivors:
            prefixes = tuple(n.removesuffix("*") for n in names) or ("",)
            names = [n for n in survivors() if n.startswith(prefixes)]
        if names or not args.survivors:
            # mutmut's own script, beside this interpreter: it warns against ``python -m mutmut``.
            mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or "mutmut"
            command = [mutmut, "run", f"--max-children={args.children}"]
            # A mutant that breaks the sandbox must fail the sandbox tests, not skip them.
            environment = {**os.environ, "MINESHAFTED_REQUIRE_SANDBOX": "1"}
            done = subprocess.run([*command, *names], check=False, env=environment)
            if done.returncode != 0:
                return done.returncode
    wanted = tuple(_module(m) for m in args.modules)
    rows = [s for s in scores() if not wanted or s.module in wanted]
    if not rows:
        print("no mutation results: run without --table first", file=sys.stderr)
        return 1
    print(table(rows))
    return 0


def _pattern(argument: str) -> str:
    """mutmut's pattern for a module (``solver.search``: all its mutants) or for some of its
    functions, given as mutmut names them (``solver.search.x_backbone*``).

    >>> _pattern("solver.search"), _pattern("mineshafted.solver.count.x_combine*")
    ('mineshafted.solver.search.*', 'mineshafted.solver.count.x_combine*')
    """
    name = f"mineshafted.{argument.removeprefix('mineshafted.')}"
    return name if "*" in name else f"{name}.*"


def _module(argument: str) -> str:
    """The module an argument of :func:`_pattern` names.

    >>> _module("solver.search.x_backbone*"), _module("grading.rubric")
    ('mineshafted.solver.search', 'mineshafted.grading.rubric')
    """
    name = f"mineshafted.{argument.removeprefix('mineshafted.')}"
    return name.rsplit(".", 1)[0] if "*" in name else name


if __name__ == "__main__":
    sys.exit(main())
