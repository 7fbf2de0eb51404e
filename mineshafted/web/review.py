"""Review: a finished game, move by move, each judged from what the player could see then.

Glossary
--------
verdict
    ``first`` (the first reveal: safe by the rules); ``certain`` (no placement had a mine
    there); ``best`` (a guess when no cell was certainly safe, as safe as the safest cell);
    ``guess`` (a riskier guess, with no cell certainly safe); ``avoidable`` (a guess while a
    cell was certainly safe); ``flag`` or ``wrong flag`` (a flag on a safe cell).
"""

from __future__ import annotations

from typing import Any

from ..game import GameRecord, Outcome, Reveal
from ..probability import view_odds

__all__ = ["review"]


def review(record: GameRecord) -> dict[str, Any]:
    """Every move of a finished game, with its verdict and its odds then.

    Returns
    -------
    dict
        ``moves`` (each with ``kind``, ``cell``, ``revealed``, ``verdict``, ``probability``,
        ``safest``, ``safe`` and ``text``), ``guesses`` (the chance of a mine at each guess)
        and ``mines``.

    Examples
    --------
    >>> from mineshafted.board import Board
    >>> from mineshafted.game import Game, Rules
    >>> game = Game.on(Board.from_grid([[0, 1, -1], [0, 1, 1]]), rules=Rules.MINE_SHAFTED)
    >>> _ = game.reveal(0), game.reveal(5)  # these rules open no region: (0, 1) was safe
    >>> [move["verdict"] for move in review(game.record)["moves"]]
    ['first', 'avoidable']

    Notes
    -----
    One count of the position (:func:`~mineshafted.probability.view_odds`) per reveal.
    """
    header = record.header
    rows, cols, total = header.rows, header.cols, header.mines
    grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    mines: set[int] = set()
    for event in record.events:
        if isinstance(event, Outcome):
            mines = set(event.mines)
    moves: list[dict[str, Any]] = []
    guesses: list[float] = []
    for event in record.events:
        if event.kind not in ("reveal", "flag", "unflag"):
            continue
        cell = event.cell  # type: ignore[union-attr]  # every such event has its cell
        row, col = divmod(cell, cols)
        move: dict[str, Any] = {
            "kind": event.kind,
            "cell": [row, col],
            "revealed": [],
            "probability": None,
            "safest": None,
            "safe": 0,
        }
        if isinstance(event, Reveal):
            move.update(_judged(grid, total, cell, first=not moves_revealed(moves)))
            move["revealed"] = [[c // cols, c % cols, v] for c, v in event.revealed]
            for c, v in event.revealed:
                grid[c // cols][c % cols] = v
            if move["verdict"] in ("best", "guess", "avoidable"):
                guesses.append(move["probability"])
        else:
            move["verdict"] = (
                "wrong flag" if event.kind == "flag" and cell not in mines else ("flag")
            )
        move["text"] = _text(move)
        moves.append(move)
    return {"moves": moves, "guesses": guesses, "mines": total}


def moves_revealed(moves: list[dict[str, Any]]) -> bool:
    """Whether any of ``moves`` is a reveal."""
    return any(move["kind"] == "reveal" for move in moves)


def _judged(grid: list[list[int | None]], total: int, cell: int, *, first: bool) -> dict[str, Any]:
    """A reveal's verdict and odds, from the grid before it."""
    if first:
        return {"verdict": "first", "probability": 0.0, "safest": 0.0, "safe": 0}
    result = view_odds(grid, total)
    placements = result.placements
    probability = result.mined[cell] / placements
    safest = min(result.mined.values()) / placements
    safe = len(result.safe)
    if probability == 0:
        verdict = "certain"
    elif safe:
        verdict = "avoidable"
    elif probability <= safest:
        verdict = "best"
    else:
        verdict = "guess"
    return {"verdict": verdict, "probability": probability, "safest": safest, "safe": safe}


def _text(move: dict[str, Any]) -> str:
    """The move and its verdict in a sentence."""
    row, col = move["cell"]
    where = f"row {row + 1}, column {col + 1}"
    verdict = move["verdict"]
    p = move["probability"]
    if verdict == "first":
        return f"Revealed {where}: the first reveal, safe by the rules."
    if verdict == "certain":
        return f"Revealed {where}: certain, no placement of the mines had one there."
    if verdict == "best":
        return f"Revealed {where}: a guess at {p:.1%}, as safe as any cell then."
    if verdict == "guess":
        return (
            f"Revealed {where}: a guess at {p:.1%}, when the safest cell was at "
            f"{move['safest']:.1%}."
        )
    if verdict == "avoidable":
        return (
            f"Revealed {where}: a guess at {p:.1%}, while {move['safe']} cell(s) were "
            "certainly safe."
        )
    if verdict == "wrong flag":
        return f"Flagged {where}: not a mine."
    return f"{'Flagged' if move['kind'] == 'flag' else 'Took the flag off'} {where}."
