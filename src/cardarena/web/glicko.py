"""Glicko-2, as Glickman's "Example of the Glicko-2 system" (2013) gives it: one rating period's update of a
player's rating, rating deviation and volatility from the games of that period.

Written here rather than taken from the ``glicko2`` package (2.1.0): its step 5 (the volatility's function ``f``)
reads the player's rating squared (mu^2) where the paper reads the deviation squared (phi^2). On the worked example
it still rounds to the paper's figures (its new volatility is 0.0599934 where the paper's formula gives 0.0599960;
the paper prints 0.05999), but its volatilities are off for every player, the more so the further from 1500.
``tests/web/test_ratings.py`` checks this one against the worked example and against a reference written apart
(the paper's ``f`` solved by bisection), and that the package's ratings and deviations differ from these by its
slip alone (under a hundredth of a point in a period; volatilities up to 0.2% apart).

Ratings are on the Glicko scale (1500, deviations in rating points); the update works on the Glicko-2 scale
(``mu = (r - 1500) / 173.7178``), as the paper's steps 1 to 8 do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glicko-2's scale factor: 400 / ln(10), the Glicko (and Elo) scale's points per unit of the Glicko-2 scale.
SCALE = 400 / math.log(10)
CENTRE = 1500.0
#: the system constant: how much the volatility may change in one period (Glickman: 0.3 to 1.2; 0.5 here)
TAU = 0.5
#: where the volatility's iteration stops (the paper's epsilon)
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: the rating, its deviation and its volatility."""

    rating: float = CENTRE
    rd: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True)
class Outcome:
    """One game of a rating period: the opponent's rating (as it was before the period) and the score (1 a win,
    1/2 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, outcomes: Sequence[Outcome], *, tau: float = TAU) -> Rating:
    """The player's rating after a rating period with ``outcomes`` (the paper's steps 2 to 8). A period without
    games only widens the deviation (step 6 alone)."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not outcomes:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    games = [((o.opponent.rating - CENTRE) / SCALE, o.opponent.rd / SCALE, o.score) for o in outcomes]
    # step 3: the estimated variance of the rating from the games alone
    v = 1 / sum(_g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j)) for mu_j, phi_j, _ in games)
    # step 4: the estimated improvement
    improvement = sum(_g(phi_j) * (score - _e(mu, mu_j, phi_j)) for mu_j, phi_j, score in games)
    delta = v * improvement
    # step 5: the new volatility (the Illinois algorithm on f)
    sigma_new = _volatility(phi, sigma, delta, v, tau)
    # steps 6 and 7: the new deviation and rating
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # step 8: back to the Glicko scale
    return Rating(mu_new * SCALE + CENTRE, phi_new * SCALE, sigma_new)


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
