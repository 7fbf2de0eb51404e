"""Requests: the models of the API's request bodies, which are the checks.

FastAPI validates each body by its model (a worker validates the bodies it reads itself,
:mod:`.bodies`), and a refusal names the field the way the command line does: a model's own
check raises its message whole (``rows, cols: 200x201 is more than 40,000 cells``), and
Pydantic's standard errors are worded by :func:`.refusals.validation_error`. Re-exported by
:mod:`.schema`, which documents the whole API. Needs the ``web`` extra (pydantic).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..solver import Technique
from .limits import MAX_GAME_CELLS, MAX_SEED
from .refusals import json_type, shown
from .watching import RULES, players

__all__ = [
    "CellIn",
    "ExplainIn",
    "GameIn",
    "Grid",
    "LearnIn",
    "LoadIn",
    "Model",
    "Pair",
    "PositionIn",
    "StepIn",
    "TakeOverIn",
    "WatchIn",
    "check_board",
    "check_cell",
    "techniques",
]

Grid = list[list[int | None]]
"""A partial grid as JSON: a clue, -1 for a known mine, ``null`` for an unknown cell."""
Pair = list[int]
"""A cell as JSON: ``[row, column]``."""


class Model(BaseModel):
    """The base of every request and answer model: a field it does not list is refused."""

    model_config = ConfigDict(extra="forbid")


def techniques() -> list[str]:
    """The ratings a no-guess board can be made for: every technique that solves boards.

    Examples
    --------
    >>> techniques()
    ['count', 'subset', 'ac3', 'complete', 'total']
    """
    return [t.value for t in Technique.solving()]


def _between(low: int, high: int) -> AfterValidator:
    """A check that an integer is in ``low..high``, saying so in the refusal."""

    def check(value: int) -> int:
        if not low <= value <= high:
            raise PydanticCustomError(
                "range",
                "{value} is not in {low}..{high}",
                {"value": value, "low": low, "high": f"{high:,}"},
            )
        return value

    return AfterValidator(check)


def _pair(value: object) -> object:
    """A cell ``[row, column]``: two integers (the board's bounds are checked where the
    board is known)."""
    if not isinstance(value, list) or len(value) != 2 or not all(type(n) is int for n in value):
        raise PydanticCustomError(
            "cell", "{value} is not a cell [row, column]", {"value": shown(value)}
        )
    return value


Cell = Annotated[Pair, BeforeValidator(_pair)]
"""``[row, column]``, two integers."""


Side = Annotated[int, Strict(), _between(1, 1000), Field(ge=1, le=1000)]
"""A board's rows or columns: 1 to 1,000 (strict: ``"9"`` and ``9.0`` are not integers)."""
SeedNumber = Annotated[int, Strict(), _between(0, MAX_SEED), Field(ge=0, le=MAX_SEED)]
"""A seed: 0 to 2**53 - 1, what a page's numbers hold exactly."""
Steps = Annotated[int, Strict(), _between(1, 1000), Field(ge=1, le=1000)]
"""How many steps to take at once."""
StepNumber = Annotated[int, Strict(), _between(0, 10**6), Field(ge=0, le=10**6)]
"""A step of a watched game, counted from 0 (none played)."""


class _In(Model):
    """A request body: a JSON object of the model's fields and no others."""

    @model_validator(mode="before")
    @classmethod
    def _object(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise PydanticCustomError(
                "object", "the body is {kind}, not an object", {"kind": json_type(data)}
            )
        for name in data:
            if name not in cls.model_fields:
                raise PydanticCustomError(
                    "unknown",
                    "{name}: unknown field (the fields are {fields})",
                    {"name": str(name)[:40], "fields": ", ".join(cls.model_fields) or "none"},
                )
        return data


def check_board(body: GameIn | WatchIn) -> None:
    """A live or watched board's settings together, once its rows, columns and mines are
    given: its size, its mines beside the first reveal, a technique only for a no-guess board.

    Raises
    ------
    PydanticCustomError
        The refusal, naming the fields.
    """
    rows, cols, mines, technique = body.rows, body.cols, body.mines, body.technique
    assert rows is not None and cols is not None and mines is not None  # a watch checks them
    if rows * cols > MAX_GAME_CELLS:
        raise PydanticCustomError(
            "size",
            "rows, cols: {rows}x{cols} is more than {cap} cells",
            {"rows": rows, "cols": cols, "cap": f"{MAX_GAME_CELLS:,}"},
        )
    no_guess = body.board == "no-guess"
    zone = 1 if body.first == "safe" and not no_guess else min(rows, 3) * min(cols, 3)
    if not 0 <= mines <= rows * cols - zone:
        raise PydanticCustomError(
            "mines",
            "mines: {mines} is not in 0..{high}",
            {"mines": mines, "high": f"{rows * cols - zone:,}"},
        )
    if technique is not None:
        if not no_guess:
            raise PydanticCustomError(
                "technique", "technique: only a no-guess board is made for a technique"
            )
        if technique not in techniques():
            raise PydanticCustomError(
                "technique",
                "technique: {name} is not one of {offered}",
                {"name": repr(technique[:40]), "offered": ", ".join(techniques())},
            )


class PositionIn(_In):
    """A position, as ``mineshafted probabilities`` reads it (read by that command's reader:
    see the module)."""

    board: Grid = Field(
        description="Rows of cells: an int 0-8 is a revealed clue, -1 a known mine, null an "
        "unknown cell. At most 1,000,000 cells.",
        examples=[[[0, 1, None], [0, 1, None]]],
    )
    mines: int = Field(description="The board's mine total, known mines included.", ge=0)


class ExplainIn(PositionIn):
    """A position and the cell to explain."""

    cell: Cell = Field(description="[row, column] of an unknown cell the position decides.")


class LoadIn(_In):
    """A text pasted or read from a file by the page."""

    text: Annotated[str, Strict()] = Field(
        description="A position file, a puzzle file, a game record (JSON Lines), or a text "
        "grid: one row a line, digits for clues, '.' for 0, '?' unknown, '*' or 'F' a known "
        "mine."
    )
    mines: int | None = Field(
        None, description="The mine total for a text grid (which carries none)."
    )

    @model_validator(mode="after")
    def _mines(self) -> LoadIn:
        if self.mines is not None and self.mines < 0:
            raise PydanticCustomError(
                "mines", "mines: {mines} is not an integer 0 or more", {"mines": self.mines}
            )
        return self


class GameIn(_In):
    """A new live game."""

    rows: Side = Field(description="1 to 1,000; rows x columns at most 40,000.")
    cols: Side = Field(description="1 to 1,000.")
    mines: Annotated[int, Strict()] = Field(description="0 up to what fits beside the first move.")
    first: Literal["safe", "opening"] = Field(
        "safe", description="The first reveal is never a mine (safe) or always a 0 (opening)."
    )
    board: Literal["random", "no-guess"] = Field(
        "random",
        description="A random board, or one made at the first reveal that logic alone "
        "finishes from there.",
    )
    seed: SeedNumber | None = Field(
        None,
        description="0 to 2**53 - 1: the same seed and first reveal make the same board. "
        "Random when null.",
    )
    technique: Annotated[str, Strict()] | None = Field(
        None,
        description="For a no-guess board: its rating, the weakest technique that solves it "
        "(count, subset, ac3, complete or total; see GET /api/config). Any board the "
        "complete deduction solves when null.",
    )

    @model_validator(mode="after")
    def _together(self) -> GameIn:
        check_board(self)
        return self


class CellIn(_In):
    """A cell of a live game."""

    cell: Cell = Field(description="[row, column].")


class WatchIn(_In):
    """A board and a player to watch."""

    player: Annotated[str, Strict()] = Field(
        description="'policy:best', a registered agent's name, or 'rules' (see GET /api/config)."
    )
    rules: Annotated[str, Strict()] | None = Field(
        None, description="The S4 rule file's text, for 'rules'."
    )
    game: Annotated[str, Strict()] | None = Field(
        None, description="The id of a finished live game: its board and first reveal."
    )
    rows: Side | None = Field(None, description="The board, when no game is given.")
    cols: Side | None = None
    mines: Annotated[int, Strict()] | None = None
    seed: SeedNumber | None = None
    first: Literal["safe", "opening"] = "safe"
    board: Literal["random", "no-guess"] = "random"
    technique: Annotated[str, Strict()] | None = None
    start: Cell | None = Field(None, description="The first reveal, [row, column]; [0, 0].")

    @model_validator(mode="after")
    def _together(self) -> WatchIn:
        if self.player not in players():
            raise PydanticCustomError(
                "player",
                "player: {name} is not one of {offered}",
                {"name": repr(self.player[:40]), "offered": ", ".join(players())},
            )
        if self.player == RULES and not self.rules:
            raise PydanticCustomError("rules", "rules: missing: the S4 rule file's text")
        if self.game is not None:
            return self
        for name in ("rows", "cols", "mines"):
            if getattr(self, name) is None:
                raise PydanticCustomError("absent", "{name}: missing", {"name": name})
        check_board(self)
        assert self.rows is not None and self.cols is not None
        if self.start is not None:
            check_cell(self.start, self.rows, self.cols, name="start")
        return self


def check_cell(cell: Pair, rows: int, cols: int, *, name: str = "cell") -> tuple[int, int]:
    """``cell`` as ``(row, column)``, once it is known to be on a ``rows`` x ``cols`` board.

    Raises
    ------
    PydanticCustomError
        The cell is off the board.
    """
    row, col = cell
    if not (0 <= row < rows and 0 <= col < cols):
        raise PydanticCustomError(
            "off",
            "{name}: [{row}, {col}] is off the {rows}x{cols} board (rows 0..{last_row}, "
            "columns 0..{last_col})",
            {
                "name": name,
                "row": row,
                "col": col,
                "rows": rows,
                "cols": cols,
                "last_row": rows - 1,
                "last_col": cols - 1,
            },
        )
    return row, col


class StepIn(_In):
    """How many steps to take."""

    count: Steps = Field(1, description="1 to 1,000.")


class TakeOverIn(_In):
    """The step of a watched game to take over from."""

    step: StepNumber = Field(
        description="How many of the watched game's steps are played before the page takes "
        "over (at most the steps it has been sent)."
    )


class LearnIn(_In):
    """What the Learn tab traces: a shipped puzzle (from its start, or ``start``) or a
    position (its clues revealed; one round)."""

    puzzle: Annotated[str, Strict()] | None = Field(
        None, description="A shipped puzzle's name, as GET /api/learn/puzzles lists it."
    )
    start: Cell | None = Field(None, description="The first move, [row, column] (a puzzle's).")
    board: Grid | None = Field(
        None, description="A position: clues 0-8, -1 a known mine, null unknown."
    )
    mines: Annotated[int, Strict()] | None = Field(
        None, description="The position's mine total, 0 or more (shown only)."
    )
    technique: Literal["count", "subset", "ac3"] = Field(
        "ac3", description="The rung traced: ac3, subset or count."
    )

    @model_validator(mode="after")
    def _one(self) -> LearnIn:
        if (self.puzzle is None) == (self.board is None):
            raise PydanticCustomError(
                "one", "puzzle, board: give one: a shipped puzzle's name or a position"
            )
        if self.puzzle is not None and self.mines is not None:
            raise PydanticCustomError("mines", "mines: only for a position")
        if self.mines is not None and self.mines < 0:
            raise PydanticCustomError(
                "mines", "mines: {mines} is not an integer 0 or more", {"mines": self.mines}
            )
        if self.board is not None and self.start is not None:
            raise PydanticCustomError(
                "start", "start: a position has no first move: its clues are revealed"
            )
        return self
