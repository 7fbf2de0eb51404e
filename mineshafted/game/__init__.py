"""The hidden board and the rules of play: the Mine Shafted managers, the game, its records."""

from __future__ import annotations

from .engine import Game, View
from .manager import BoardManager, GameManager
from .rebuilding import rebuild, views_of
from .record import (
    Event,
    Flag,
    GameRecord,
    MineHit,
    Outcome,
    RecordHeader,
    Reveal,
    Unflag,
    read_record,
    write_record,
)
from .rules import LEVELS, AfterMine, FirstMove, GameStatus, Level, Rules

__all__ = [
    "LEVELS",
    "AfterMine",
    "BoardManager",
    "Event",
    "FirstMove",
    "Flag",
    "Game",
    "GameManager",
    "GameRecord",
    "GameStatus",
    "Level",
    "MineHit",
    "Outcome",
    "RecordHeader",
    "Reveal",
    "Rules",
    "Unflag",
    "View",
    "read_record",
    "rebuild",
    "views_of",
    "write_record",
]
