"""Text from outside made safe to print: cut to a cap, every unprintable character made visible.

A file's name, a rule's name, a submission's exception: whatever did not come from the
package itself may hold an escape sequence that clears the terminal or paints a fake line, a
right-to-left override that reorders what follows, or a lone surrogate (from undecodable bytes)
that no terminal encoding can write. Every place that prints such text passes it through
:func:`visible` first.

Glossary
--------
cut
    A string shortened to its cap, ending in a note of how long it was.
visible
    A string in which every character Python does not count as printable (``str.isprintable``:
    the C0 and C1 controls and DEL, the bidirectional marks, overrides and isolates and every
    other format character, the line and paragraph separators, spaces other than the plain
    one, surrogates, private-use and unassigned code points) is written as the escape Python's
    ``repr`` writes (``\\n``, ``\\x1b``, ``\\u202e``, ``\\udc9b``). Printing it cannot break its
    line, move the cursor, clear the screen, set a title, reorder what follows, or fail to
    encode as UTF-8.
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
    """``text`` with every unprintable character but those in ``keep`` written as an escape.

    The escape is the one Python's ``repr`` writes (``\\t``, ``\\n`` and ``\\r``, else
    ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``); every printable character, backslashes
    included, is left as it is. The result encodes as UTF-8, whatever ``text`` holds, and
    holds no character that drives a terminal or reorders text, but those in ``keep``.

    Examples
    --------
    >>> visible("a\\x1b[2Jb\\x9b\\u202e")
    'a\\\\x1b[2Jb\\\\x9b\\\\u202e'
    >>> visible("one\\ntwo\\r", keep="\\n")
    'one\\ntwo\\\\r'
    >>> visible("\\udcc2\\udc9b é")  # surrogate-escaped bytes: never written as raw bytes
    '\\\\udcc2\\\\udc9b é'

    Notes
    -----
    O(len(text)), in C: a translation table per ``keep`` learns each character the first
    time it sees it (up to :data:`_LEARNED` of them). Its plain equivalent::

        "".join(c if c.isprintable() or c in keep else _escape(c) for c in text)
    """
    table = _TABLES.get(keep)
    if table is None:
        table = _TABLES[keep] = _Table(keep)
    return text.translate(table)


def _escape(char: str) -> str:
    """The escape Python's ``repr`` writes for one unprintable character.

    Examples
    --------
    >>> print(_escape("\\t"), _escape("\\x00"), _escape("\\u2028"), _escape("\\U000e0001"))
    \\t \\x00 \\u2028 \\U000e0001
    """
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}

_LEARNED = 65536
"""Characters a table remembers at most: past that it still answers, without remembering (a
long-lived process shown every code point keeps a bounded table)."""


class _Table(dict[int, str]):
    """What each character becomes, for one ``keep``: learned the first time it is looked up."""

    def __init__(self, keep: str) -> None:
        super().__init__()
        self.keep = keep

    def __missing__(self, code: int) -> str:
        char = chr(code)
        shown = char if char.isprintable() or char in self.keep else _escape(char)
        if len(self) < _LEARNED:
            self[code] = shown
        return shown


_TABLES: dict[str, _Table] = {}
"""The translation table for each ``keep``."""
