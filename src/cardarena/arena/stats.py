"""The statistics of a tournament, with kept libraries for the mathematics (scipy, statsmodels).

- :func:`paired_interval`: a 95% Student-t interval on the mean of paired observations (a *deal*'s mean score
  over its seat orders: the games of a deal share their luck, so the deal is the independent unit);
- Wilson's interval for a proportion is :func:`cardarena.arena.strength.wilson` (used for the first seat);
- :func:`bradley_terry`: ratings of every entrant from the pairings' scores, a Bradley–Terry fit (a binomial GLM
  with a logit link, statsmodels), on the Elo scale, with standard errors;
- :class:`Sprt`: Wald's sequential probability ratio test on the deal scores, for ``--until-significant``.

Every function is a pure function of its arguments, so the output depends on the stored results alone.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

ELO_PER_LOGIT = 400 / math.log(10)  # a rating difference of 400 means 10:1 odds
Z95 = 1.959963984540054


def paired_interval(values: Sequence[float]) -> tuple[float, float]:
    """A 95% interval for the mean of ``values`` (each in [0, 1]): Student's t (scipy) on the values with two
    pseudo-values added, a 0 and a 1, clipped to [0, 1].

    The two pseudo-values do for a mean of scores what Agresti–Coull's "plus four" does for a proportion: a pairing
    that went the same way in every deal has a sample variance of 0, and a plain t-interval would claim certainty
    from a handful of deals; with them the interval keeps an honest width, and with many deals they change
    nothing. Fewer than two values give all of [0, 1].

    >>> lo, hi = paired_interval([0.5, 1.0, 0.5, 1.0, 0.5, 1.0])
    >>> round(lo, 3), round(hi, 3)
    (0.376, 0.999)
    >>> [round(x, 3) for x in paired_interval([0.0] * 50)]  # 50 deals lost: not [0, 0]
    [0.0, 0.058]
    """
    from scipy import stats

    if len(values) < 2:
        return 0.0, 1.0
    padded = [*values, 0.0, 1.0]
    n = len(padded)
    mean = sum(padded) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in padded) / (n - 1))
    half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


@dataclass(frozen=True)
class Rating:
    """An entrant's Bradley–Terry rating on the Elo scale (the entrants' mean is 0) and its standard error."""

    elo: float
    se: float

    @property
    def ci95(self) -> tuple[float, float]:
        return self.elo - Z95 * self.se, self.elo + Z95 * self.se


def bradley_terry(
    count: int, pairings: Sequence[tuple[int, int, float, int]], *, anchor: int | None = None
) -> list[Rating] | None:
    """Ratings of ``count`` entrants from ``(a, b, score of a, games)`` per pairing (draws as half a win).

    Model: ``P(a beats b) = 1 / (1 + exp(-(β_a - β_b)))``, fitted as a binomial GLM (statsmodels) on the score
    proportions weighted by the games. One virtual draw is added to every pairing, a weak prior that keeps a
    rating finite when an entrant wins every game (a plain fit would send it to infinity). The ratings are
    centred (their mean is 0) with standard errors by the delta method, then scaled to Elo points. ``None``
    when there is nothing to fit (fewer than two entrants, or an entrant without games).

    With ``anchor`` (an entrant's number) the scale is anchored there instead: that entrant is 0 exactly (its
    standard error 0), and every other rating is its difference from the anchor, with the standard error of that
    difference (the ladder's ``random = 0``).

    >>> r = bradley_terry(2, [(0, 1, 75.0, 100)])
    >>> round(r[0].elo - r[1].elo)  # 75% is about 191 Elo; the prior pulls it in a little
    189
    >>> a = bradley_terry(2, [(0, 1, 75.0, 100)], anchor=1)
    >>> round(a[1].elo), round(a[1].se), round(a[0].elo), round(a[0].se) == round(2 * r[0].se)
    (0, 0, 189, True)
    """
    import numpy as np
    import statsmodels.api as sm

    played = [p for p in pairings if p[3] > 0]
    seen = {p[0] for p in played} | {p[1] for p in played}
    if count < 2 or len(seen) < count:
        return None
    x = np.zeros((len(played), count - 1))  # entrant 0 is the reference, β_0 = 0
    for row, (a, b, _, _) in enumerate(played):
        if a:
            x[row, a - 1] += 1.0
        if b:
            x[row, b - 1] -= 1.0
    games = np.array([g + 1.0 for *_, g in played])
    proportion = np.array([(s + 0.5) / (g + 1.0) for _, _, s, g in played])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a small tournament may warn about its fit; the errors say how sure it is
        fit = sm.GLM(proportion, x, family=sm.families.Binomial(), var_weights=games).fit()
    beta = np.concatenate([[0.0], np.asarray(fit.params)])
    cov = np.zeros((count, count))
    cov[1:, 1:] = np.asarray(fit.cov_params())
    centre = np.eye(count) - np.full((count, count), 1.0 / count)
    if anchor is not None:
        centre = np.eye(count)
        centre[:, anchor] -= 1.0  # beta_i - beta_anchor
    beta = centre @ beta
    cov = centre @ cov @ centre.T
    return [
        Rating(float(beta[i] * ELO_PER_LOGIT), float(math.sqrt(max(cov[i, i], 0.0)) * ELO_PER_LOGIT))
        for i in range(count)
    ]


@dataclass(frozen=True)
class SprtResult:
    """Where a pairing's sequential test stopped: after ``deals`` deals, ``decision`` ``"a"`` or ``"b"`` (that
    entrant is the stronger), or ``None`` (not decided within the deals played)."""

    deals: int
    decision: str | None
    llr: float


SPRT_ALPHA = 0.05  # the chance of calling the weaker entrant the stronger
SPRT_MIN_DEALS = 8  # deals before the first test, so that the variance is estimated from something
SPRT_MIN_VARIANCE = 0.01  # a floor on the variance of a deal's score (a run of identical deals has none)


class Sprt:
    """Wald's SPRT on A's deal scores, fed one deal at a time (:meth:`push`): H_b ``μ = 0.5 - delta`` against
    H_a ``μ = 0.5 + delta``, with normal likelihoods whose variance is the sample variance of the deals so far
    (floored at ``SPRT_MIN_VARIANCE``). With a common variance σ² the log-likelihood ratio of n deals of sum S is
    ``(μ_a - μ_b)(S - n(μ_a + μ_b)/2) / σ²``, kept from running sums, so a push costs the same at any length. It
    stops at the first deal where the ratio leaves ``(log(α/(1-α)), log((1-α)/α))`` (α = β).
    """

    def __init__(self, delta: float, *, alpha: float = SPRT_ALPHA) -> None:
        self.delta = delta
        self.bound = math.log((1 - alpha) / alpha)
        self.deals = 0  # deals pushed, those of errors only included
        self.n = 0
        self.total = 0.0
        self.squares = 0.0
        self.llr = 0.0
        self.decision: str | None = None

    def push(self, score: float | None) -> str | None:
        """Add the next deal's score (``None``: a deal whose games all failed, skipped); the decision, if any."""
        self.deals += 1
        if self.decision is not None or score is None:
            return self.decision
        self.n += 1
        self.total += score
        self.squares += score * score
        if self.n < SPRT_MIN_DEALS:
            return None
        mean = self.total / self.n
        variance = max(SPRT_MIN_VARIANCE, (self.squares - self.n * mean * mean) / (self.n - 1))
        self.llr = 2 * self.delta * (self.total - self.n * 0.5) / variance
        if self.llr >= self.bound:
            self.decision = "a"
        elif self.llr <= -self.bound:
            self.decision = "b"
        return self.decision


def sprt(deal_scores: Sequence[float | None], delta: float, *, alpha: float = SPRT_ALPHA) -> SprtResult:
    """:class:`Sprt` over a whole sequence of deal scores, in order. The stopping point depends only on the scores
    in order, so it is the same whatever order the games finished in.

    >>> sprt([1.0] * 20, 0.05).decision, sprt([0.0, 0.5] * 40, 0.05).decision, sprt([0.5] * 10, 0.05).decision
    ('a', 'b', None)
    """
    test = Sprt(delta, alpha=alpha)
    for score in deal_scores:
        if test.push(score) is not None:
            break
    return SprtResult(test.deals, test.decision, round(test.llr, 4))
