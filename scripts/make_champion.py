"""Write the pair rules of mineshafted/rules/data/champion.s4 in every orientation.

A pair rule looks at two neighbouring numbers, A (the pattern's centre, variable ``a``) and B
(beside it, ``b``), with four unknown-or-known squares on the far side of both and a wall of
known squares (numbers or marked mines) on the near side. Whatever is around both counts for
both, so once the marks are taken off, the difference of the two numbers falls on the
squares only one of them touches:

- ``more``: B needs as many more mines than A as it has unknown squares of its own: those are
  mines, and A's own unknown squares are safe (the 1-2 pattern);
- ``equal``: A's unknown squares are all B's too and both need as many mines: B's own
  unknown squares are safe (the 1-1 pattern).

S4 does not turn patterns, so each rule is written in every rotation and mirror image. The
shapes below are the ones that fired most often on 24 training boards (30x30 at 20-25%,
seeds 50000-50023, not the contest set) out of every wall of numbers and marks, kept few so
the interpreter stays fast. The hand-written head of the file (up to the marker) is kept:

    python scripts/make_champion.py            # rewrite the pair rules
    python scripts/make_champion.py --check    # verify the file matches
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

CHAMPION = Path(__file__).resolve().parent.parent / "mineshafted" / "rules" / "data" / "champion.s4"
MARKER = "; ---- PAIRS (written by scripts/make_champion.py) ----\n"

Pattern = tuple[str, ...]

# (far side, A and B with the squares beside them, the wall behind; which rule), most
# useful first. The far side holds ``?`` and ``-``; the rest ``-`` and ``M``.
SHAPES = [
    ("????", "-ab-", "----", "more"),
    ("-???", "Mab-", "----", "equal"),
    ("????", "-abM", "----", "more"),
    ("????", "-ab-", "M---", "more"),
    ("????", "-ab-", "--M-", "more"),
    ("????", "-ab-", "-M--", "more"),
    ("????", "-ab-", "---M", "more"),
    ("????", "Mab-", "----", "more"),
    ("-???", "Mab-", "----", "more"),
    ("-???", "-ab-", "----", "equal"),
    ("-???", "-ab-", "----", "more"),
    ("-???", "Mab-", "---M", "equal"),
    ("-???", "MabM", "----", "equal"),
    ("-???", "Mab-", "M---", "equal"),
    ("????", "MabM", "----", "more"),
    ("-???", "-ab-", "M---", "equal"),
    ("????", "-abM", "---M", "more"),
    ("-???", "-abM", "----", "equal"),
    ("????", "Mab-", "M---", "more"),
    ("-???", "MabM", "---M", "equal"),
    ("????", "-abM", "--M-", "more"),
]

EDGE = "*||||"
"""The wall as the board's edge: the two rows below the pair are over it."""


def pair_rule(far: str, near: str, behind: str, kind: str) -> tuple[Pattern, str, Pattern]:
    """One pair rule's left side, condition and right side, before turning.

    >>> lhs, condition, rhs = pair_rule("????", "-ab-", "----", "more")
    >>> lhs[1:4], condition, rhs[1]
    (('*????', '*-ab-', '*----'), '(= (- b a) 1)', '-X--M')
    """
    a_sees, b_sees = (0, 1, 2), (1, 2, 3)
    mines_a = sum(row[i] == "M" for row in (far, near, behind) for i in a_sees)
    mines_b = sum(row[i] == "M" for row in (far, near, behind) for i in b_sees)
    a = f"(- a {mines_a})" if mines_a else "a"
    b = f"(- b {mines_b})" if mines_b else "b"
    unknown_a = {i for i in a_sees if far[i] == "?"}
    unknown_b = {i for i in b_sees if far[i] == "?"}
    own_a, own_b = unknown_a - unknown_b, unknown_b - unknown_a
    if kind == "more":
        condition = f"(= (- {b} {a}) {len(own_b)})"
        acts = {**dict.fromkeys(own_b, "M"), **dict.fromkeys(own_a, "X")}
    else:
        assert not own_a, "equal needs A's unknowns to be B's"
        condition = f"(= {a} {b})"
        acts = dict.fromkeys(own_b, "X")
    lhs = ("*****", f"*{far}", f"*{near}", f"*{behind}", "*****")
    row = "".join(acts.get(i, "-") for i in range(4))
    rhs = ("-----", f"-{row}", "-----", "-----", "-----")
    return lhs, condition, rhs


def turned(pattern: Pattern) -> Pattern:
    """``pattern`` turned a quarter clockwise.

    >>> turned(("ab", "cd"))
    ('ca', 'db')
    """
    n = len(pattern)
    return tuple("".join(pattern[n - 1 - j][i] for j in range(n)) for i in range(n))


def orientations(lhs: Pattern, rhs: Pattern) -> list[tuple[Pattern, Pattern]]:
    """The distinct rotations and mirror images of a rule's two patterns, together."""
    found: list[tuple[Pattern, Pattern]] = []
    for left, right in ((lhs, rhs), (tuple(r[::-1] for r in lhs), tuple(r[::-1] for r in rhs))):
        for _ in range(4):
            if (left, right) not in found:
                found.append((left, right))
            left, right = turned(left), turned(right)
    return found


def pairs_text() -> str:
    """The generated part of the file."""
    parts = [MARKER]
    for number, (far, near, behind, kind) in enumerate(SHAPES, 1):
        lhs, condition, rhs = pair_rule(far, near, behind, kind)
        walls = [("wall", lhs)]
        if "M" not in behind:
            walls.append(("edge", (*lhs[:3], EDGE, EDGE)))
        for tag, left in walls:
            wall = "the board's edge" if tag == "edge" else f"the wall {near}/{behind}"
            parts.append(f"\n; pair {number} ({kind}): far side {far}, against {wall}.\n")
            for turn, (a, b) in enumerate(orientations(left, rhs), 1):
                parts.append(
                    f"{{pair-{number}-{kind}-{tag}-{turn}\n"
                    + "\n".join(a)
                    + f"\n{condition}\n=>\n"
                    + "\n".join(b)
                    + "\nno-default-action\n}\n"
                )
    return "".join(parts)


def main() -> None:
    """Rewrite the generated part, or with ``--check`` compare it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    text = CHAMPION.read_text()
    head = text.split(MARKER)[0]
    wanted = head + pairs_text()
    if args.check:
        if text != wanted:
            sys.exit(f"{CHAMPION}: out of date")
        print("champion.s4 matches")
        return
    CHAMPION.write_text(wanted)
    print(f"wrote {CHAMPION}")


if __name__ == "__main__":
    main()
