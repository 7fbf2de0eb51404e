"""Similarity: pairs of submissions whose code is alike, the starter code left out.

The comparison is copydetect's (an optional extra: ``pip install 'mineshafted[similarity]'``),
which fingerprints each file as MOSS does (winnowing: its tokens normalised, so renamed
variables and moved whitespace still match; k-grams hashed, a minimum kept per window) and
counts the fingerprints two files share. Fingerprints of the starter code (``--starter``)
are boilerplate: shared by everyone, counted for no one.

For a pair, each side's share is the part of its own tokens found in the other; a pair is
reported when either share reaches :data:`THRESHOLD`, and each student's most similar peer
is the one holding the largest share of their code.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GradingError

__all__ = ["NOISE", "THRESHOLD", "WINDOW", "Pair", "SimilarityUnavailable", "compare"]

logger = logging.getLogger(__name__)

NOISE = 25
"""Matches shorter than this many characters of normalised code are ignored (copydetect's
``noise_t``): the k of its k-grams."""

WINDOW = 6
"""The winnowing window (copydetect's ``guarantee_t`` of 30 less ``noise_t``, plus one): a
match of 30 characters is always found."""

THRESHOLD = 0.33
"""The share from which a pair is reported (copydetect's own display threshold)."""


class SimilarityUnavailable(GradingError):
    """copydetect is not installed."""


@dataclass(frozen=True)
class Pair:
    """Two students whose code is alike."""

    first: str
    second: str
    first_share: float
    """The part of ``first``'s code found in ``second``'s (0 to 1)."""
    second_share: float
    tokens: int
    """Tokens the two have in common."""

    @property
    def share(self) -> float:
        """The larger of the two shares."""
        return max(self.first_share, self.second_share)


def compare(
    sources: Mapping[str, bytes],
    starter: bytes | None = None,
    *,
    threshold: float = THRESHOLD,
) -> tuple[list[Pair], dict[str, tuple[str, float]]]:
    """Compare every two submissions.

    Parameters
    ----------
    sources:
        Each student's code.
    starter:
        The starter code every student was given, left out of every comparison.

    Returns
    -------
    tuple
        The pairs at or above ``threshold``, most similar first; and each student's most
        similar peer with the share of their code found in it (students with no peer, or
        with nothing in common with anyone, are left out).

    Raises
    ------
    SimilarityUnavailable
        copydetect is not installed.

    Notes
    -----
    O(n²) comparisons of fingerprint sets for n students (each O(fingerprints)); a file
    that cannot be tokenised is left out, with a warning.
    """
    try:
        from copydetect import (  # type: ignore[import-untyped,import-not-found,unused-ignore]
            CodeFingerprint,
            compare_files,
        )
    except ImportError:
        raise SimilarityUnavailable(
            "--similarity needs copydetect: pip install 'mineshafted[similarity]'"
        ) from None
    boilerplate: list[Any] = []
    if starter is not None:
        boilerplate = list(_fingerprint(CodeFingerprint, "starter", starter, []).hashes)
    prints: dict[str, Any] = {}
    for name, code in sources.items():
        try:
            prints[name] = _fingerprint(CodeFingerprint, name, code, boilerplate)
        except Exception as error:  # copydetect's tokenizer on any text
            logger.warning("%s: left out of the similarity check: %s", name, error)
    names = sorted(prints)
    pairs: list[Pair] = []
    best: dict[str, tuple[str, float]] = {}
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            tokens, (share_1, share_2), _ = compare_files(prints[first], prints[second])
            share_1, share_2 = float(share_1), float(share_2)
            for me, peer, share in ((first, second, share_1), (second, first, share_2)):
                if share > best.get(me, ("", 0.0))[1]:
                    best[me] = (peer, share)
            if max(share_1, share_2) >= threshold:
                pairs.append(Pair(first, second, share_1, share_2, int(tokens)))
    pairs.sort(key=lambda pair: (-pair.share, pair.first, pair.second))
    return pairs, best


def _fingerprint(kind: Any, name: str, code: bytes, boilerplate: list[Any]) -> Any:
    text = code.decode("utf-8", "replace")
    return kind(f"{name}.py", NOISE, WINDOW, boilerplate=boilerplate, fp=io.StringIO(text))
