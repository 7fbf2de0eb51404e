"""Text that came from a submission, made safe to report: cut to a cap, controls made visible.

Glossary
--------
cut
    A string shortened to its cap, ending in a note of how long it was.
visible
    A string whose control characters (C0, DEL, C1, and the bidirectional overrides) are
    written as escapes (``\\x1b``), so that printing it cannot move the cursor, clear the
    screen, set a title or reorder what follows.
"""

from __future__ import annotations

__all__ = ["KIND_CAP", "MESSAGE_CAP", "REPR_CAP", "cut", "visible"]

KIND_CAP = 100
"""Characters of an exception's or a value's type name kept."""

MESSAGE_CAP = 500
"""Characters of an exception's message kept (the child cuts it there too)."""

REPR_CAP = 200
"""Characters of an unreadable value's repr kept (the child cuts it there too)."""


def cut(text: str, cap: int) -> str:
    """``text`` if it has at most ``cap`` characters, else its first ``cap`` and a note.

    Examples
    --------
    >>> cut("abc", 5), cut("abcdefgh", 5)
    ('abc', 'abcde... (8 characters)')

    Notes
    -----
    O(cap): the rest of ``text`` is not copied.
    """
    if len(text) <= cap:
        return text
    return f"{text[:cap]}... ({len(text)} characters)"


def visible(text: str, *, keep: str = "") -> str:
    """``text`` with every control character but those in ``keep`` written as an escape.

    Examples
    --------
    >>> visible("a\\x1b[2Jb\\x9b\\u202e")
    'a\\\\x1b[2Jb\\\\x9b\\\\u202e'
    >>> visible("one\\ntwo\\r", keep="\\n")
    'one\\ntwo\\\\x0d'

    Notes
    -----
    O(len(text)).
    """
    return text.translate(_KEEP.get(keep) or _table(keep))


def _table(keep: str) -> dict[int, str]:
    table = {code: escape for code, escape in _ESCAPES.items() if chr(code) not in keep}
    _KEEP[keep] = table
    return table


_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F]
_CONTROLS += [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ESCAPES = {code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" for code in _CONTROLS}
"""Each control character and the escape that stands for it."""

_KEEP: dict[str, dict[int, str]] = {}
"""The translation table for each ``keep``, made once."""
