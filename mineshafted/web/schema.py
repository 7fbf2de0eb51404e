"""Schema: the JSON of every request and answer of the API, as the OpenAPI document shows it.

The request models are the checks: FastAPI validates each body by its model, and a refusal
names the field the way the command line does (:func:`.refusals.validation_message` turns
Pydantic's errors into one line). A position (``board`` and ``mines``) is the one body read
by the command's own reader instead (:func:`mineshafted.probability.parse_position`, in a
worker: it may be a million cells), so the API takes exactly the files ``mineshafted
probabilities`` takes and says what is wrong in the same words; its model documents it. The
tests validate real answers against the answer models (every model forbids fields it does
not list), so the document cannot drift from what the server says. Needs the ``web`` extra
(pydantic comes with FastAPI).
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
    "AnalysisOut",
    "CellIn",
    "ConfigOut",
    "ErrorOut",
    "ExplainIn",
    "ExplanationOut",
    "GameIn",
    "GameOut",
    "HintOut",
    "KnowledgeOut",
    "LoadIn",
    "LoadOut",
    "MoveOut",
    "PositionIn",
    "ReviewOut",
    "StepIn",
    "StepOut",
    "StepsOut",
    "TakeOverIn",
    "WatchIn",
    "WatchOut",
    "check_board",
    "check_cell",
    "techniques",
]

Grid = list[list[int | None]]
Pair = list[int]


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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _In(_Model):
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


def check_board(
    rows: int, cols: int, mines: int, first: str, board: str, technique: str | None
) -> None:
    """A live or watched board's settings together: its size, its mines beside the first
    move, a technique only for a no-guess board.

    Raises
    ------
    PydanticCustomError
        The refusal, naming the fields.
    """
    if rows * cols > MAX_GAME_CELLS:
        raise PydanticCustomError(
            "size",
            "rows, cols: {rows}x{cols} is more than {cap} cells",
            {"rows": rows, "cols": cols, "cap": f"{MAX_GAME_CELLS:,}"},
        )
    no_guess = board == "no-guess"
    zone = 1 if first == "safe" and not no_guess else min(rows, 3) * min(cols, 3)
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
        "safe", description="The first click is never a mine (safe) or always a 0 (opening)."
    )
    board: Literal["random", "no-guess"] = Field(
        "random",
        description="A random board, or one made at the first click that logic alone "
        "finishes from there.",
    )
    seed: SeedNumber | None = Field(
        None,
        description="0 to 2**53 - 1: the same seed and first click make the same board. "
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
        check_board(self.rows, self.cols, self.mines, self.first, self.board, self.technique)
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
        None, description="The id of a finished live game: its board and first click."
    )
    rows: Side | None = Field(None, description="The board, when no game is given.")
    cols: Side | None = None
    mines: Annotated[int, Strict()] | None = None
    seed: SeedNumber | None = None
    first: Literal["safe", "opening"] = "safe"
    board: Literal["random", "no-guess"] = "random"
    technique: Annotated[str, Strict()] | None = None
    start: Cell | None = Field(None, description="The first click, [row, column]; [0, 0].")

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
        assert self.rows is not None and self.cols is not None and self.mines is not None
        check_board(self.rows, self.cols, self.mines, self.first, self.board, self.technique)
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


class ErrorOut(_Model):
    """Any refusal: 400 not JSON, 404 no such game, 409 not now, 413 too large, 415 not
    JSON's content type, 422 malformed or undecided, 503 past the compute budget or busy."""

    error: str = Field(description="One line saying what is wrong and where.")


class AnalysisOut(_Model):
    """A position's exact odds, decided cells and best move."""

    probabilities: list[list[float | None]] = Field(
        description="As `mineshafted probabilities --json`: each unknown cell's exact chance "
        "of a mine, 1.0 for a known mine, null for a clue."
    )
    mines_left: int = Field(description="The total less the known mines.")
    placements: str = Field(
        description="How many placements of the mines left agree with every clue, in full "
        "(or in scientific form past 4300 digits)."
    )
    safe: list[Pair] = Field(description="Unknown cells with no mine in any placement.")
    mines: list[Pair] = Field(description="Unknown cells with a mine in every placement.")
    best: Pair | None = Field(
        description="A safe cell if there is one, else the best policy's guess; null when "
        "only mines are left."
    )
    best_probability: float | None = Field(description="The best move's chance of a mine.")
    best_by: Literal["safe", "policy", "safest"] | None = Field(
        None,
        description="How the best move was chosen: a safe cell; the best policy's guess (up "
        "to 40,000 unknown cells); or, above that, the safest cell.",
    )


class ExplanationOut(_Model):
    """Why a position decides a cell."""

    cell: Pair
    value: Literal["safe", "mine"]
    clues: list[Pair] = Field(
        description="Revealed clues whose constraints alone (with the total only when "
        "uses_total) force the cell, none of them superfluous; nearest first."
    )
    uses_total: bool = Field(description="Whether the mine total is needed too.")
    technique: Literal["count", "subset", "ac3", "complete", "total"] = Field(
        description="The weakest technique whose reasoning decides the cell from the position."
    )
    text: str = Field(description="The explanation in a sentence.")


class LoadOut(_Model):
    """The position a text holds."""

    kind: Literal["text", "position", "puzzle", "record"]
    board: Grid
    mines: int
    name: str | None


class SettingsOut(_Model):
    """A live game's settings."""

    rows: int
    cols: int
    mines: int
    seed: int | None = Field(
        description="The seed that draws the board: null while the game is on (it would "
        "show the board), the number once it is over."
    )
    first: Literal["safe", "opening"]
    board: Literal["random", "no-guess"]
    technique: str | None


class _Counters(_Model):
    status: Literal["playing", "won", "lost"]
    flags: int
    mines_left: int = Field(description="The total less the flags (0 once won).")
    clicks: int = Field(0, description="Reveals, flags and chords the server took.")
    bbbv: int | None = Field(
        None,
        description="Once over: the board's 3BV, the fewest clicks that clear it (its "
        "openings, and its clues beside no opening).",
    )
    efficiency: float | None = Field(None, description="Once won: 3BV over clicks.")
    seconds: float = Field(description="Since the first reveal.")
    mines: list[Pair] | None = Field(None, description="Every mine, once the game is over.")
    wrong_flags: list[Pair] | None = Field(None, description="Flags on safe cells, once over.")
    hit: list[Pair] | None = Field(None, description="The mine revealed, once lost.")
    seed: int | None = Field(None, description="The board's seed, once the game is over.")
    rating: str | None = Field(
        None,
        description="A no-guess board's rating (the weakest technique that solves it), once "
        "it is made.",
    )


class GameOut(_Counters):
    """What the page shows of a live game."""

    id: str = Field(description="The game's id, for its endpoints.")
    settings: SettingsOut
    board: Grid = Field(description="Clues as revealed, -1 a revealed mine, null hidden.")
    flagged: list[Pair] = Field(description="The flagged cells.")
    origin: Literal["play", "watch"] = Field(
        "play",
        description="A game of Play, or one taken over from a watched game (whose board "
        "the watcher may have seen: not a secret).",
    )


class MoveOut(_Counters):
    """What an action changed."""

    revealed: list[list[int]] = Field(description="[row, column, value] of each cell revealed.")
    flagged: list[Pair] = Field(description="Every flagged cell after the action.")
    note: str | None = Field(None, description="Why a chord changed nothing.")


class HintOut(_Model):
    """The cell to reveal next."""

    cell: Pair
    safe: bool
    probability: float
    text: str
    explanation: ExplanationOut | None


class ConfigOut(_Model):
    """What the server offers."""

    players: list[str]
    techniques: list[str] = Field(description="The ratings a no-guess board can be made for.")
    levels: dict[str, list[int]] = Field(description="Name -> [rows, columns, mines].")
    limits: dict[str, int | float]


class WatchOut(_Model):
    """A watched game, ready to step through."""

    id: str
    rows: int
    cols: int
    mines: int
    player: str
    note: str
    total: int = Field(description="How many steps the game has.")
    step: int = Field(description="How many have been taken.")


class StepOut(_Model):
    """One step of a watched game."""

    kind: Literal["reveal", "flag", "unflag"]
    cell: Pair
    revealed: list[list[int]]
    reason: str | None
    text: str
    guess: bool
    probability: float | None
    odds: list[list[float]] | None = Field(
        description="[row, column, probability] of every unknown cell, at a guess of the "
        "best policy."
    )
    hit: bool
    status: Literal["playing", "won", "lost"]
    mines: list[Pair] | None = None


class StepsOut(_Model):
    """The next steps of a watched game."""

    steps: list[StepOut]
    step: int
    total: int
    done: bool
    status: Literal["playing", "won", "lost"]
    guesses: int | None = Field(None, description="Once done: how many guesses were made.")


class KnownCell(_Model):
    """What the policy knows of one unknown cell at a stall."""

    cell: Pair
    mine: float = Field(description="Its exact chance of a mine.")
    secondary: float = Field(
        description="Secondary safety: the chance it is safe, times how safe the best next "
        "guess is then (the best policy ranks its candidates by it)."
    )
    progress: float = Field(
        description="The chance it is safe and its clue decides at least one other cell."
    )
    dead: bool = Field(description="It can show only one clue: revealing it tells nothing.")


class EndgameOut(_Model):
    """The endgame search's answer: best play, exactly."""

    cell: Pair = Field(description="The reveal that wins most often.")
    wins: int = Field(description="Placements best play wins.")
    placements: int
    chance: float = Field(description="wins / placements: the exact chance of a win.")


class KnowledgeOut(_Model):
    """What the best policy knows at a position: each cell's outlook, the fifty-fifties, and
    the endgame's exact chance of a win."""

    stall: bool = Field(description="No unknown cell is certainly safe.")
    cells: list[KnownCell] = Field(description="Every unknown cell not decided, at a stall.")
    fifties: list[list[Pair]] = Field(
        description="Pairs of cells holding one mine between them that no cell can ever tell "
        "apart: a guess at even odds, some time."
    )
    endgame: EndgameOut | None = Field(
        description="When few placements are left and the exact search finishes."
    )
    best: Pair | None = Field(description="The best policy's choice.")


class ReviewMove(_Model):
    """One move of a finished game, judged from what the player could see then."""

    kind: Literal["reveal", "flag", "unflag"]
    cell: Pair
    revealed: list[list[int]]
    verdict: Literal["first", "certain", "best", "guess", "avoidable", "flag", "wrong flag"] = (
        Field(
            description="first (safe by the rules); certain (no placement had a mine there); "
            "best (a guess when no cell was safe, as safe as the safest cell); guess (riskier "
            "than the safest, with no safe cell); avoidable (a guess while a cell was "
            "certainly safe); flag or wrong flag."
        )
    )
    probability: float | None = Field(description="Its chance of a mine then (a reveal).")
    safest: float | None = Field(description="The lowest chance of a mine anywhere then.")
    safe: int = Field(description="How many cells were certainly safe then.")
    text: str


class ReviewOut(_Model):
    """A finished game, move by move."""

    moves: list[ReviewMove]
    guesses: list[float] = Field(description="The chance of a mine at each guess taken.")
    mines: int
