"""Patterns: a rule's left-hand side laid out for one board width, and matched on the rules' view.

Glossary
--------
view
    What the rules see, one value per square of the board padded on every side with
    :attr:`Square.OFF_BOARD` squares: a number shown (0-8) or a :class:`Square` code.
at
    A square's index in the padded view; the pattern's squares are offsets from it.
position
    The square a pattern is centred on (S4's word).

The rules keep the S4 original's words: a square is hidden until it is clicked (revealed) or
marked (flagged); S4 calls a hidden square "unknown" (``?`` in a pattern).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .conditions import holds
from .syntax import Rule, SystemVariable, symbols

__all__ = ["Fail", "Pattern", "Square", "match", "matches"]


class Square(IntEnum):
    """What the view holds at a square that shows no number (numbers are 0-8).

    Negative, so that ``value >= 0`` means "a number", and none is
    :data:`~mineshafted.board.MINE`: a revealed mine never enters the view (it loses the game).
    """

    OFF_BOARD = -4
    """Over the edge of the board: what ``|`` matches."""
    MARKED = -3
    """Marked as a mine: what ``M`` matches."""
    HIDDEN = -2
    """Neither clicked nor marked: what ``?`` matches (S4's "unknown square")."""


Fail = tuple[int, str]
"""Why a pattern failed: the offset at fault and the character there (for debug level 6)."""


class Pattern:
    """A rule laid out for one board width: offsets into the padded view, in check order.

    Parameters
    ----------
    rule : Rule
        The rule whose left-hand side (and right-hand side's actions) to lay out.
    stride : int
        The padded view's row length: the board's columns plus twice the padding.

    Notes
    -----
    ``O(n^2)`` for an ``n`` x ``n`` pattern, once per rule and board width.
    """

    __slots__ = (
        "actions",
        "checks",
        "first",
        "relevant",
        "rule",
        "stars",
        "stride",
        "uses_totals",
    )

    def __init__(self, rule: Rule, stride: int) -> None:
        k = rule.radius
        self.rule = rule
        self.stride = stride
        self.uses_totals = rule.uses_totals
        cells = [
            ((i - k) * stride + (j - k), rule.lhs[i][j])
            for i in range(rule.size)
            for j in range(rule.size)
        ]
        # The most telling squares first, so most failures cost one look.
        telling = sorted(
            ((off, ch) for off, ch in cells if ch != "*"), key=lambda c: _TELLING.get(c[1], 1)
        )
        self.checks: list[tuple[int, str, int | None]] = [
            (off, ch, _EXACT.get(ch)) for off, ch in telling
        ]
        """Each square to check: its offset, its character, the one value it accepts (if so)."""
        self.stars = [off for off, ch in cells if ch == "*"]
        names = {name for c in rule.conditions for name in symbols(c)}
        counted = bool(names & {SystemVariable.MATCHED_UNKNOWNS, SystemVariable.MATCHED_MINES})
        self.relevant = [off for off, _, _ in self.checks] + (self.stars if counted else [])
        """The offsets whose squares can change whether the rule matches."""
        off, ch = telling[0] if telling else (0, "*")
        self.first = (off, _ACCEPTS[ch])
        """The first square looked at, and the values it accepts: a quick way to reject."""
        self.actions: list[tuple[int, str]] = []
        if rule.rhs is not None:
            self.actions = [
                ((i - k) * stride + (j - k), rule.rhs[i][j])
                for i in range(rule.size)
                for j in range(rule.size)
                if rule.rhs[i][j] in "MX"
            ]

    def why(self, view: list[int], at: int, fail: Fail) -> str:
        """Why the pattern failed at ``at``: the square of the pattern, what it wants and found.

        Examples
        --------
        >>> from mineshafted.rules.parser import parse_rules
        >>> rule = parse_rules("{r 1-- --- --- => no-action-pattern no-default-action}").rules[0]
        >>> pattern = Pattern(rule, 3)
        >>> view = [Square.HIDDEN] * 9
        >>> pattern.why(view, 4, match(pattern, view, 4))
        'square (0, 0) of the pattern wants a 1, found unknown'
        """
        off, ch = fail
        v = view[at + off]
        seen = _SEEN.get(v, f"a {v}")
        wants = _WANTS.get(ch, f"a {ch}" if ch.isdigit() else f"the number of variable {ch}")
        k = self.rule.radius
        i, j = divmod(off + k * self.stride + k, self.stride)
        return f"square ({i}, {j}) of the pattern wants {wants}, found {seen}"


def match(pattern: Pattern, view: list[int], at: int) -> dict[str, int] | Fail:
    """The pattern's variables at ``at`` (a padded index), or why it does not match.

    Returns
    -------
    dict or Fail
        The variables and ``matched-unkns``/``matched-mines`` (the hidden and marked squares
        among the ``*``s); or the first square checked that refuses, with its character.

    Notes
    -----
    ``O(n^2)`` for an ``n`` x ``n`` pattern; most failures cost one look (see
    :attr:`Pattern.checks`).
    """
    env: dict[str, int] = {}
    for off, ch, exact in pattern.checks:
        v = view[at + off]
        if exact is not None:
            ok = v == exact
        elif ch == "-":
            ok = v >= 0
        else:
            ok = v >= 0 and env.setdefault(ch, v) == v
        if not ok:
            return off, ch
    unknowns = mines = 0
    for off in pattern.stars:
        v = view[at + off]
        if v == _HIDDEN:
            unknowns += 1
        elif v == _MARKED:
            mines += 1
    env[SystemVariable.MATCHED_UNKNOWNS] = unknowns
    env[SystemVariable.MATCHED_MINES] = mines
    return env


def matches(rule: Rule, seen: list[str], row: int, col: int) -> dict[str, int] | None:
    """Whether ``rule``'s left-hand side matches at ``(row, col)`` of a drawn board.

    Parameters
    ----------
    rule : Rule
        The rule; its conditions see the totals as unknown squares and no marks remaining.
    seen : list of str
        The board, a string per row: ``?`` unknown, ``M`` marked, a digit a number.
    row, col : int
        Where the pattern is centred.

    Returns
    -------
    dict or None
        The pattern's variables and ``matched-unkns``/``matched-mines``, or ``None``.

    Examples
    --------
    >>> from mineshafted.rules.parser import parse_rules
    >>> rule = parse_rules("{r ?-- -1- --- => M-- -1- --- no-default-action}").rules[0]
    >>> matches(rule, ["?11", "111", "000"], 1, 1) is not None
    True
    >>> matches(rule, ["?11", "111", "000"], 0, 1) is None
    True
    """
    k = rule.radius
    stride = len(seen[0]) + 2 * k
    view: list[int] = [Square.OFF_BOARD] * (stride * (len(seen) + 2 * k))
    unknowns = 0
    for r, line in enumerate(seen):
        for c, ch in enumerate(line):
            value = Square.HIDDEN if ch == "?" else Square.MARKED if ch == "M" else int(ch)
            unknowns += value == Square.HIDDEN
            view[(r + k) * stride + c + k] = value
    env = match(Pattern(rule, stride), view, (row + k) * stride + col + k)
    if isinstance(env, tuple):
        return None
    totals = {
        SystemVariable.MINES_REMAINING.value: 0,
        SystemVariable.SAFE_REMAINING.value: unknowns,
    }
    return env if holds(rule.conditions, {**env, **totals}) else None


_HIDDEN: Final = int(Square.HIDDEN)
_MARKED: Final = int(Square.MARKED)
"""Plain ints for :func:`match`'s inner loop: looking up an enum member costs more there."""

_TELLING: Final = {"|": 0, "M": 0, "?": 2, "-": 3, **{chr(c): 4 for c in range(97, 123)}}
"""How early to look at a pattern character: the edge, unknowns, marks and exact numbers
rule out most squares; ``-`` and variables match any number."""

_EXACT: Final[dict[str, int]] = {
    "|": int(Square.OFF_BOARD),
    "?": _HIDDEN,
    "M": _MARKED,
    **{str(n): n for n in range(10)},
}
"""The pattern characters that accept one value, and that value."""

_NUMBERS: Final = frozenset(range(9))
_ACCEPTS: Final = {
    **{ch: frozenset({value}) for ch, value in _EXACT.items()},
    "-": _NUMBERS,
    "*": frozenset({*Square, *_NUMBERS}),
    **{chr(c): _NUMBERS for c in range(97, 123)},
}
"""The values each pattern character accepts."""

_SEEN: Final[dict[int, str]] = {
    Square.OFF_BOARD: "over the edge",
    Square.HIDDEN: "unknown",
    Square.MARKED: "marked",
}
"""A square's code, as level 6 names it."""

_WANTS: Final = {"-": "a number", "?": "an unknown square", "M": "a marked mine", "|": "the edge"}
"""A pattern character, as level 6 names what it wants (digits and variables aside)."""
