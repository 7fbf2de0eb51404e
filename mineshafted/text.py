"""Text from outside made safe to print: cut to a cap, control characters made visible.

A file's name, a rule's name, a submission's exception: whatever did not come from the
package itself may hold an escape sequence that clears the terminal or paints a fake line.
Every place that prints such text passes it through :func:`visible` first.

Glossary
--------
cut
    A string shortened to its cap, ending in a note of how long it was.
visible
    A string whose control characters (C0, DEL, C1, and the bidirectional marks and
    overrides) are written as Python escapes (``\\n``, ``\\x1b``, ``\\u202e``), so that
    printing it cannot break its line, move the cursor, clear the screen, set a title or
    reorder what follows.
"""

from __future__ import annotations

__all__ = ["cut", "visible"]


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

    The escape is the one Python's ``repr`` writes (``\\t``, ``\\n`` and ``\\r``, else
    ``\\xNN`` or ``\\uNNNN``); every other character, backslashes included, is left as it is.

    Examples
    --------
    >>> visible("a\\x1b[2Jb\\x9b\\u202e")
    'a\\\\x1b[2Jb\\\\x9b\\\\u202e'
    >>> visible("one\\ntwo\\r", keep="\\n")
    'one\\ntwo\\\\r'

    Notes
    -----
    O(len(text)); one translation table per ``keep``, made on first use.
    """
    table = _TABLES.get(keep)
    if table is None:
        table = {code: escape for code, escape in _ESCAPES.items() if chr(code) not in keep}
        _TABLES[keep] = table
    return text.translate(table)


_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F]
_CONTROLS += [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
"""The control characters: C0, DEL and C1, the Arabic letter mark, the left-to-right and
right-to-left marks, and the bidirectional embeddings, overrides and isolates."""

_SHORT = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}

_ESCAPES = {
    code: _SHORT.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    for code in _CONTROLS
}
"""Each control character and the escape that stands for it."""

_TABLES: dict[str, dict[int, str]] = {}
"""The translation table for each ``keep``."""
