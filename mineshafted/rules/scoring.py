"""PatternEval: many boards played by one ruleset, scored, summed up in the original's words."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .interpreter import Finish, Play

__all__ = ["Evaluation", "board_json", "rule_usage", "summary_line"]


@dataclass
class Evaluation:
    """Every board's result, in order, and the totals."""

    plays: list[tuple[str, Play]] = field(default_factory=list)
    """Each board's name and result."""

    @property
    def score(self) -> float:
        """The sum of the boards' scores."""
        return sum(p.score for _, p in self.plays)

    def count(self, finish: Finish) -> int:
        """How many boards ended so."""
        return sum(p.finish is finish for _, p in self.plays)

    @property
    def average_guesses(self) -> float:
        """Guesses per board (0 with no boards)."""
        return sum(p.guesses for _, p in self.plays) / len(self.plays) if self.plays else 0.0

    @property
    def average_milliseconds(self) -> float:
        """Milliseconds per board (0 with no boards)."""
        seconds = sum(p.seconds for _, p in self.plays)
        return seconds * 1000 / len(self.plays) if self.plays else 0.0

    def to_json(self) -> dict[str, Any]:
        """Per-board results and the totals, JSON-ready."""
        return {
            "boards": [board_json(name, p) for name, p in self.plays],
            "score": round(self.score, 6),
            "won": self.count(Finish.WON),
            "lost": self.count(Finish.LOST),
            "timeouts": self.count(Finish.TIMEOUT),
            "average_guesses": self.average_guesses,
            "average_ms": round(self.average_milliseconds, 3),
            "rule_usage": dict(rule_usage(p for _, p in self.plays)),
            "summary": summary_line(self),
        }


def board_json(name: str, play: Play) -> dict[str, Any]:
    """One board's result, JSON-ready."""
    return {
        "name": name,
        "finish": play.finish.value,
        "score": round(play.score, 6),
        "clicked": play.clicked,
        "guesses": play.guesses,
        "remaining": play.remaining,
        "ms": round(play.seconds * 1000, 3),
        "lost_to": play.lost_to,
        "fired": dict(play.fired),
        "stuck": [[rule, cell] for rule, cell in play.stuck],
    }


def rule_usage(plays: Iterable[Play]) -> Counter[str]:
    """How many times each rule fired, over all ``plays``."""
    total: Counter[str] = Counter()
    for play in plays:
        total.update(play.fired)
    return total


def summary_line(evaluation: Evaluation) -> str:
    """The original's summary: score, wins-losses-timeouts, average guesses and milliseconds.

    The average guesses are cut (not rounded) to six decimals, as the original printed them.

    Examples
    --------
    >>> from mineshafted.rules.interpreter import Play, Finish
    >>> plays = [Play(Finish.WON, 225, g, 0, 0.388, 30.0) for g in (12, 13, 13)]
    >>> summary_line(Evaluation([("b", p) for p in plays]))
    '639.9612 pts, 3-0-0; Avg Guesses: 12.666666 Avg Time: 388.0'
    """
    guesses = math.floor(evaluation.average_guesses * 1_000_000 + 1e-9) / 1_000_000
    return (
        f"{evaluation.score:.4f} pts, {evaluation.count(Finish.WON)}-"
        f"{evaluation.count(Finish.LOST)}-{evaluation.count(Finish.TIMEOUT)}; "
        f"Avg Guesses: {guesses:.6f} Avg Time: {evaluation.average_milliseconds:.1f}"
    )
