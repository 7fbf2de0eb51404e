"""The hidden board and the rules of play: the Mine Shafted manager, the game engine, records."""

from __future__ import annotations

from .engine import Game, GameManager, View, positions, rebuild
from .manager import BoardManager
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
from .rules import CLASSIC, CS440, MINE_SHAFTED, AfterMine, FirstMove, GameStatus, Rules

__all__ = [
    "CLASSIC",
    "CS440",
    "MINE_SHAFTED",
    "AfterMine",
    "BoardManager",
    "Event",
    "FirstMove",
    "Flag",
    "Game",
    "GameManager",
    "GameRecord",
    "GameStatus",
    "MineHit",
    "Outcome",
    "RecordHeader",
    "Reveal",
    "Rules",
    "Unflag",
    "View",
    "positions",
    "read_record",
    "rebuild",
    "write_record",
]
