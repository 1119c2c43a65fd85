"""The statistics of the package, written once: the Wilson score interval of a share (surveys, evaluations,
chances) and the sign test of paired outcomes (the review's marked moves). Pure arithmetic: it imports nothing of
the package, and every room may use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from patiencelab.core.errors import InvalidArgumentError, PatienceError
from patiencelab.core.limits import check_number, check_whole

__all__ = ["MAX_SIGN_PAIRS", "Z95", "Interval", "sign_test", "wilson"]

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Interval:
    """A share with its 95% interval, all as fractions of 1."""

    share: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{100 * self.share:.1f}% ({100 * self.low:.1f}-{100 * self.high:.1f}%)"


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
