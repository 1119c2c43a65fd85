"""The statistics of the package, written once: the Wilson score interval of a share (surveys, evaluations,
chances), the one way a share is written with its interval (:func:`share_text`), and the sign test of paired
outcomes (the review's marked moves). Arithmetic and the catalogue's words only, so every room may use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from patiencelab.core.errors import InvalidArgumentError, PatienceError
from patiencelab.core.i18n import check_language, message
from patiencelab.core.limits import check_number, check_switch, check_whole

__all__ = ["MAX_SIGN_PAIRS", "WIDE", "Z95", "Interval", "share_text", "sign_test", "wilson"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: A 95% interval wider than this (20 points of 100) is always said with the share it bounds: a chance told to a
#: player without its interval is one whose interval is at most this wide.
WIDE = 0.20


@dataclass(frozen=True, slots=True)
class Interval:
    """A share with its 95% interval, all as fractions of 1."""

    share: float
    low: float
    high: float

    def __str__(self) -> str:
        return share_text(self.share, self.low, self.high)


def share_text(
    share: float | None, low: float, high: float, *, lang: str = "en", digits: int = 1, always: bool = True
) -> str:
    """A share with its 95% interval in the words of ``lang``, the one way the package writes one (evaluations,
    comparisons, chances, reviews): ``35.0% (30.1-40.2%)``, to ``digits`` decimals. With ``always=False`` the
    interval is said only where it is wider than :data:`WIDE` (``85%``); a share of ``None`` (nothing measured)
    is "not known", with no number.
    """
    check_language(lang)
    check_whole(digits, "digits", low=0, high=6)
    check_switch(always, "always")
    for value, name in ((low, "low"), (high, "high"), *(() if share is None else ((share, "share"),))):
        check_number(value, name)
    if share is None:
        return message("review.chance-unknown", lang)

    def number(x: float) -> str:
        return f"{100 * x:.{digits}f}"

    if not always and high - low <= WIDE + 1e-9:
        return message("review.percent", lang, value=number(share))
    return message("review.percent-interval", lang, value=number(share), low=number(low), high=number(high))


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``successes`` out of ``n`` (``n == 0`` gives the whole range 0-1)."""
    check_whole(successes, "successes", low=0)
    check_whole(n, "n", low=0)
    if check_number(z, "z") == 0:
        raise InvalidArgumentError("z must be a number above 0, not 0")
    if not 0 <= successes <= n:
        raise PatienceError(f"need 0 <= successes <= n, not {successes} of {n}")
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high)


#: The most discordant pairs :func:`sign_test` takes (its sum grows with the square of them).
MAX_SIGN_PAIRS = 10_000


def sign_test(wins: int, losses: int) -> float:
    """The one-sided p-value of ``wins`` of ``wins + losses`` discordant pairs going one way (sign test)."""
    n = check_whole(wins, "wins", low=0) + check_whole(losses, "losses", low=0)
    if n > MAX_SIGN_PAIRS:
        raise InvalidArgumentError(f"the sign test takes at most {MAX_SIGN_PAIRS:,} pairs, not {n:,}")
    if n == 0:
        return 1.0
    tail: int = sum(math.comb(n, j) for j in range(wins, n + 1))
    return tail / (1 << n)  # exact division of whole numbers: no overflow past 1,023 pairs
