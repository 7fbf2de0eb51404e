"""A child's output: the first bytes kept, every byte counted."""

from __future__ import annotations

__all__ = ["Capture"]


class Capture:
    """Capped output: keeps the first ``cap`` bytes written to it and counts them all.

    Examples
    --------
    >>> capture = Capture(4)
    >>> capture.keep(b"abc")
    >>> capture.keep(b"def")
    >>> capture.kept, capture.total
    (b'abcd', 6)

    Notes
    -----
    Keeping a chunk costs O(bytes kept from it): what is past the cap is only counted.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.total = 0
        self._kept = bytearray()

    def keep(self, chunk: bytes) -> None:
        """Count ``chunk`` and keep as much of it as fits under the cap."""
        self.total += len(chunk)
        room = self.cap - len(self._kept)
        if room > 0:
            self._kept += chunk[:room]

    @property
    def kept(self) -> bytes:
        """The bytes kept, at most ``cap`` of them."""
        return bytes(self._kept)

    def text(self) -> str:
        """The bytes kept, decoded as UTF-8 (undecodable bytes replaced)."""
        return self._kept.decode("utf-8", "replace")
