"""Proving rules sound: can a rule's action ever click a mine or mark a safe square?

Glossary
--------
model
    The rule's window and the ring of squares around it, each a mine or not, on one way the
    board's edges can lie (``|`` squares are over the edge); every number shown in the window
    equals the mines around it, a marked square is a mine (a wrong mark has already lost),
    and the pattern's variables and conditions hold.
counterexample
    A model in which the rule's action clicks a mine or marks a safe square.

The board-wide totals (``total-mines-remaining``, ``total-non-mines-remaining``) are left
unknown: a condition that rests on them is evaluated in three-valued logic, and a bad model
found only by letting an unknown condition pass makes the rule "not proven", not "unsound".
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .conditions import INDETERMINATE, Indeterminate, evaluate_partly
from .deadline import OutOfTime
from .syntax import DefaultAction, Rule, Ruleset, SystemVariable, symbols

__all__ = ["DEFAULT_CHECK_LIMIT", "Finding", "Verdict", "check_rule", "check_rules"]

DEFAULT_CHECK_LIMIT: Final = 10.0
"""Seconds allowed per rule by default: the search is exponential in the free squares."""


class Verdict(StrEnum):
    """What the checker concluded about a rule."""

    SOUND = "sound"
    UNSOUND = "unsound"
    NOT_PROVEN = "not proven"


@dataclass(frozen=True)
class Finding:
    """A rule's verdict, why, and for an unsound rule the counterexample drawn."""

    rule: str
    verdict: Verdict
    reason: str
    board: str | None = None
    """The counterexample: what the rule sees beside the truth (``*`` mine, ``|`` edge)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "rule": self.rule,
            "verdict": self.verdict.value,
            "reason": self.reason,
            "counterexample": self.board,
        }


def check_rules(ruleset: Ruleset, *, time_limit: float | None = None) -> list[Finding]:
    """Each rule's finding, in file order (see :func:`check_rule`; ``time_limit`` per rule)."""
    return [check_rule(rule, time_limit=time_limit) for rule in ruleset.rules]


def check_rule(
    rule: Rule,
    *,
    time_limit: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Finding:
    """Whether ``rule`` can click a mine or mark a safe square wherever its left side matches.

    Parameters
    ----------
    rule : Rule
        The rule to check.
    time_limit : float, optional
        Seconds the search may take (no limit by default); past them the rule is ``not
        proven``, with a reason saying so.
    clock : callable
        Seconds, for the time limit (tests pass a fake one).

    Returns
    -------
    Finding
        ``sound``; ``unsound`` with a counterexample; or ``not proven`` when the only bad
        models need a condition on the board-wide totals, which are left unknown.

    Examples
    --------
    >>> from mineshafted.rules.parser import parse_rules
    >>> rules = parse_rules('''
    ... {good ?-- -1- --- => M-- -1- --- no-default-action}
    ... {bad ??- -1- --- => M-- -1- --- no-default-action}''')
    >>> [check_rule(r).verdict.value for r in rules.rules]
    ['sound', 'unsound']

    Notes
    -----
    For each least way the board's edges can cross the window, a backtracking search over
    the squares of the window and of the ring that touch a shown number, pruned by the
    numbers' sums; conditions are checked (once per distinct set of values) at the leaves.
    Exponential in the number of free squares: a 3x3 rule of eight wildcards takes a
    fraction of a second.
    """
    targets = list(_targets(rule))
    if not targets:
        return Finding(rule.name, Verdict.SOUND, "its action touches no unknown square")
    deadline = None if time_limit is None else clock() + time_limit
    try:
        return _check(rule, targets, lambda: deadline is not None and clock() > deadline)
    except OutOfTime:
        return Finding(
            rule.name,
            Verdict.NOT_PROVEN,
            f"not finished within {time_limit:g} s (the time limit); the search is "
            "exponential in the wildcards",
        )


def _check(
    rule: Rule, targets: list[tuple[tuple[int, int], bool]], late: Callable[[], bool]
) -> Finding:
    """:func:`check_rule`'s search, which raises :class:`OutOfTime` once ``late()``."""
    loose: tuple[tuple[int, int], bool] | None = None
    for on in _edges(rule):
        found = _Search(rule, on, targets, late).run()
        if found is None:
            continue
        model, (square, click), certain = found
        if certain:
            return Finding(
                rule.name,
                Verdict.UNSOUND,
                f"{'clicks a mine' if click else 'marks a safe square'} at pattern square {square}",
                _draw(rule, on, model, square),
            )
        loose = loose or (square, click)
    if loose is not None:
        square, click = loose
        return Finding(
            rule.name,
            Verdict.NOT_PROVEN,
            f"it could {'click a mine' if click else 'mark a safe square'} at pattern square "
            f"{square} unless the board-wide totals rule it out, and they are left unknown",
        )
    return Finding(rule.name, Verdict.SOUND, "no board where it matches makes it go wrong")


def _targets(rule: Rule) -> Iterator[tuple[tuple[int, int], bool]]:
    """Each pattern square the action may touch while unknown, and whether it clicks."""
    n = rule.size
    seen: set[tuple[tuple[int, int], bool]] = set()
    for i, j in itertools.product(range(n), range(n)):
        ch = rule.lhs[i][j]
        if ch not in "?*":
            continue
        if rule.rhs is not None and rule.rhs[i][j] in "MX":
            seen.add(((i, j), rule.rhs[i][j] == "X"))
        if ch == "*" and rule.default is not DefaultAction.NONE:
            seen.add(((i, j), rule.default is DefaultAction.CLICK))
    yield from sorted(seen)


def _edges(rule: Rule) -> Iterator[Callable[[int, int], bool]]:
    """Each least way the board's edges can lie that agrees with the pattern's ``|`` squares.

    Yields a test of whether a square of the extended grid (the window and its ring, in
    window coordinates from -1 to n) is on the board. Only the least ways matter: a square
    put over the edge when it need not be acts like a safe square whose number is shown, so
    a model with it over the edge is a model with it safe.
    """
    n, k = rule.size, rule.radius
    fits: list[tuple[int, int, int, int]] = [
        (top, bottom, left, right)
        for top, bottom, left, right in itertools.product(range(k + 2), repeat=4)
        if all(
            rule.lhs[i][j] == "*"
            or (rule.lhs[i][j] == "|") != _on((top, bottom, left, right), n, i, j)
            for i, j in itertools.product(range(n), range(n))
        )
    ]
    for edge in fits:
        if not any(o != edge and all(a <= b for a, b in zip(o, edge, strict=True)) for o in fits):
            yield functools.partial(_on, edge, n)


def _on(edge: tuple[int, int, int, int], n: int, i: int, j: int) -> bool:
    """Whether square ``(i, j)`` lies on the board when ``edge`` squares are off each side."""
    top, bottom, left, right = edge
    return top - 1 <= i < n + 1 - bottom and left - 1 <= j < n + 1 - right


_Square = tuple[int, int]
_Kind = tuple[int, int, int, int]
"""A square's possible content: (mine, unknown, marked-by-wildcard, marked)."""
_SAFE: Final = (0, 0, 0, 0)
_MINE: Final = (1, 0, 0, 0)
_STAR_KINDS: Final = ((0, 0, 0, 0), (0, 1, 0, 0), (1, 1, 0, 0), (1, 0, 1, 1))
"""A wildcard's square: a shown number, unknown safe, unknown mine, or marked."""
_Model = dict[_Square, _Kind]


class _Search:
    """A depth-first search for a model in which one of the targets goes wrong."""

    def __init__(
        self,
        rule: Rule,
        on: Callable[[int, int], bool],
        targets: list[tuple[_Square, bool]],
        late: Callable[[], bool] = lambda: False,
    ) -> None:
        n = rule.size
        self.rule = rule
        self.late = late
        self.nodes = 0
        self.targets = [(sq, click) for sq, click in targets if on(*sq)]
        self.fixed: dict[_Square, int] = {}
        self.free: list[tuple[_Square, tuple[_Kind, ...]]] = []
        self.counted = [
            (a, b)
            for a, b in itertools.product(range(n), range(n))
            if rule.lhs[a][b].isdigit() or rule.lhs[a][b].islower()
        ]
        near = {p for a, b in self.counted for p in _around(a, b)}
        wanted = {sq for sq, _ in self.targets}
        names = {name for c in rule.conditions for name in symbols(c)}
        counts = bool(
            names & {SystemVariable.MATCHED_UNKNOWNS.value, SystemVariable.MATCHED_MINES.value}
        )
        for a, b in itertools.product(range(-1, n + 1), range(-1, n + 1)):
            inside = 0 <= a < n and 0 <= b < n
            if not on(a, b) or not (inside or (a, b) in near):
                continue
            ch = rule.lhs[a][b] if inside else "?"
            if ch == "-" or ch.isdigit() or ch.islower():
                self.fixed[a, b] = 0
            elif ch == "M":
                self.fixed[a, b] = 1
            elif ch == "*" and ((a, b) in wanted or counts):
                self.free.append(((a, b), _STAR_KINDS))
            elif ch == "*":
                # Only its mine counts (for a number beside it); or nothing at all.
                if (a, b) in near:
                    self.free.append(((a, b), ((0, 0, 0, 0), (1, 0, 0, 0))))
            else:
                unknown = 1 if inside else 0  # a ring square is not one the rule sees
                self.free.append(((a, b), ((0, unknown, 0, 0), (1, unknown, 0, 0))))
        # Each counted square: its neighbours that are modelled.
        self.neighbours = {
            c: [p for p in _around(*c) if p in self.fixed or p in dict(self.free)]
            for c in self.counted
        }
        # When the last of a counted square's free neighbours is set, its sum can be checked.
        position = {sq: index for index, (sq, _) in enumerate(self.free)}
        self.closes: dict[int, list[_Square]] = {}
        for c, around in self.neighbours.items():
            last = max((position[p] for p in around if p in position), default=-1)
            self.closes.setdefault(last, []).append(c)
        self.verdicts: dict[tuple[int, ...], bool | Indeterminate] = {}

    def run(self) -> tuple[_Model, tuple[_Square, bool], bool] | None:
        """A bad model, the target it goes wrong at, and whether it is certain."""
        if not self.targets:
            return None
        self.loose: tuple[_Model, tuple[_Square, bool]] | None = None
        model: _Model = {}
        letters: dict[str, int] = {}
        if not self._sums_hold(-1, model, letters):
            return None
        found = self._extend(0, model, letters)
        if found is not None:
            return found[0], found[1], True
        if self.loose is not None:
            return self.loose[0], self.loose[1], False
        return None

    def _extend(
        self, depth: int, model: _Model, letters: dict[str, int]
    ) -> tuple[_Model, tuple[_Square, bool]] | None:
        self.nodes += 1
        if self.nodes % 1024 == 0 and self.late():
            raise OutOfTime
        if depth == len(self.free):
            return self._leaf(model, letters)
        square, kinds = self.free[depth]
        for kind in kinds:
            model[square] = kind
            bound = dict(letters)
            if self._sums_hold(depth, model, bound):
                found = self._extend(depth + 1, model, bound)
                if found is not None:
                    return found
        del model[square]
        return None

    def _sums_hold(self, depth: int, model: _Model, letters: dict[str, int]) -> bool:
        """Check the counted squares whose neighbours are all set once ``depth`` is."""
        for c in self.closes.get(depth, ()):
            total = sum(
                self.fixed[p] if p in self.fixed else model[p][0] for p in self.neighbours[c]
            )
            ch = self.rule.lhs[c[0]][c[1]]
            if ch.isdigit():
                if total != int(ch):
                    return False
            elif letters.setdefault(ch, total) != total:
                return False
        return True

    def _leaf(
        self, model: _Model, letters: dict[str, int]
    ) -> tuple[_Model, tuple[_Square, bool]] | None:
        bad = next(
            (
                (sq, click)
                for sq, click in self.targets
                if model[sq][1] == 1 and model[sq][0] == (1 if click else 0)
            ),
            None,
        )
        if bad is None:
            return None
        unknowns = sum(k[1] for sq, k in model.items() if self.rule.lhs[sq[0]][sq[1]] == "*")
        marks = sum(k[2] for k in model.values())
        key = (*(letters[ch] for ch in sorted(letters)), unknowns, marks)
        verdict = self.verdicts.get(key)
        if verdict is None:
            verdict = self.verdicts[key] = self._conditions(letters, unknowns, marks)
        if verdict is True:
            return dict(model), bad
        if verdict is INDETERMINATE and self.loose is None:
            self.loose = (dict(model), bad)
        return None

    def _conditions(
        self, letters: dict[str, int], unknowns: int, marks: int
    ) -> bool | Indeterminate:
        """Whether the conditions hold, in three-valued logic (the totals unknown)."""
        env: dict[str, int | Indeterminate] = dict(letters)
        env[SystemVariable.MATCHED_UNKNOWNS] = unknowns
        env[SystemVariable.MATCHED_MINES] = marks
        env[SystemVariable.MINES_REMAINING] = INDETERMINATE
        env[SystemVariable.SAFE_REMAINING] = INDETERMINATE
        result: bool | Indeterminate = True
        for condition in self.rule.conditions:
            try:
                value = evaluate_partly(condition, env)
            except (ZeroDivisionError, OverflowError):
                return False
            if value is False:
                return False
            if value is INDETERMINATE:
                result = INDETERMINATE
        return result


def _around(i: int, j: int) -> list[tuple[int, int]]:
    return [(i + di, j + dj) for di in (-1, 0, 1) for dj in (-1, 0, 1) if di or dj]


def _draw(rule: Rule, on: Callable[[int, int], bool], model: _Model, square: _Square) -> str:
    """What the rule sees (left) beside the truth (right), the ring included."""
    n = rule.size

    def is_mine(i: int, j: int) -> bool:
        if not on(i, j):
            return False
        inside = 0 <= i < n and 0 <= j < n
        if inside and rule.lhs[i][j] == "M":
            return True
        return model.get((i, j), _SAFE)[0] == 1

    seen_rows, true_rows = [], []
    for i in range(-1, n + 1):
        seen, truth = [], []
        for j in range(-1, n + 1):
            if not on(i, j):
                seen.append("|")
                truth.append("|")
                continue
            truth.append("*" if is_mine(i, j) else ".")
            if not (0 <= i < n and 0 <= j < n):
                seen.append(".")
                continue
            ch = rule.lhs[i][j]
            star = ch == "*"
            kind = model.get((i, j), _SAFE)
            if ch == "M" or (star and kind[3] == 1):
                seen.append("M")
            elif ch == "?" or (star and kind[1] == 1):
                seen.append("?")
            else:
                seen.append(str(sum(is_mine(*p) for p in _around(i, j))))
        seen_rows.append("".join(seen))
        true_rows.append("".join(truth))
    width = n + 2
    lines = [f"{'seen':<{width}}   mines"]
    lines += [f"{s}   {t}" for s, t in zip(seen_rows, true_rows, strict=True)]
    lines.append(f"(the ring is . on the left; it goes wrong at pattern square {square})")
    return "\n".join(lines)
