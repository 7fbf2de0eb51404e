"""Text that came from a submission, made safe to report: cut to a cap.

Glossary
--------
cut
    A string shortened to its cap, ending in a note of how long it was.
"""

from __future__ import annotations

__all__ = ["KIND_CAP", "MESSAGE_CAP", "REPR_CAP", "cut"]

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
