"""Write the pair rules of mineshafted/rules/data/champion.s4 in every orientation.

S4 does not turn patterns, so each pair rule is written once per rotation and mirror image.
The hand-written head of the file (up to the PAIRS marker) is kept as it is:

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

# (name, the knowledge, left-hand side, condition, right-hand side): A is the centre, B beside
# it; row 1 holds the unknowns on the far side, rows 2-3 the wall.
PAIRS = [
    (
        "pair-1-2",
        "b = a + 1 along a wall: the square only B touches is a mine, the one only A touches "
        "is safe",
        ("*****", "*????", "*-ab-", "*----", "*****"),
        "(= b (+ a 1))",
        ("-----", "-X--M", "-----", "-----", "-----"),
    ),
    (
        "pair-end-equal",
        "a = b where A's unknowns are all B's too: B's other unknown is safe",
        ("*****", "*-???", "*-ab-", "*----", "*****"),
        "(= a b)",
        ("-----", "----X", "-----", "-----", "-----"),
    ),
    (
        "pair-end-more",
        "b = a + 1 where A's unknowns are all B's too: B's other unknown is a mine",
        ("*****", "*-???", "*-ab-", "*----", "*****"),
        "(= b (+ a 1))",
        ("-----", "----M", "-----", "-----", "-----"),
    ),
]


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
    for name, knowledge, lhs, condition, rhs in PAIRS:
        edge_lhs = (*lhs[:3], "*||||", "*||||")
        for wall, left in (("a wall of shown numbers", lhs), ("the board's edge", edge_lhs)):
            tag = "edge" if "edge" in wall else "wall"
            parts.append(f"\n; {name}: {knowledge}; against {wall}.\n")
            for number, (a, b) in enumerate(orientations(left, rhs), 1):
                parts.append(
                    f"{{{name}-{tag}-{number}\n"
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
