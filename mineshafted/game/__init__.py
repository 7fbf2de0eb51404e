"""The hidden board and the rules of play: the Mine Shafted manager, the game engine, records."""

from __future__ import annotations

from .manager import BoardManager

__all__ = ["BoardManager"]
