"""A good player's rules of thumb (``Game.heuristic_action``) and a cheap evaluation (``Game.evaluate``), from a
seat's observation only: the board, the scores, the seat's own hand and the public piles. Never the true state.

Rules of thumb: summon rather than place (a legend first, a summon that destroys an enemy piece on its square
better still); place where a piece brings a being of the hand closest to its pattern; in an effect, destroy,
downgrade, convert and move onto the enemy's best pieces, upgrade your own; invoke a flare only when it pays (both
halves, or in High Form where it gives the opponent nothing); claim the richest task; in melee score in your
lowest colour; never resign.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ...engine import Action, Rng
from .board import AREAS, CENTRAL, NAME_SQ, SQUARES
from .cards.model import LEGENDARY, Card
from .constants import Kind

if TYPE_CHECKING:
    from .cards.model import CardSet
    from .game import TashKalarGame

#: what a piece is worth on the board, by rank (common, heroic, legendary)
WORTH = (0.0, 1.0, 2.5, 5.0)
ON_BOARD = frozenset(SQUARES)
#: points scored by destroying a piece of that rank (deathmatch, melee)
DESTROY_POINTS = (0.0, 0.5, 1.0, 2.0)


def colour_of(obs: dict[str, Any], seat: int) -> int:
    colours = obs.get("colour_of_seat")
    return int(colours[seat]) if colours else seat


def _board(obs: dict[str, Any]) -> dict[int, tuple[int, int]]:
    return {NAME_SQ[sq]: (owner, rank) for sq, (owner, rank) in obs["board"].items()}


# -- evaluate ----------------------------------------------------------------------------------------------------


def evaluate(obs: dict[str, Any], seat: int) -> float:
    """How well ``seat`` stands, in [-1, 1]: points ahead of the best opponent (with this turn's destroyed pieces
    counted for the turn's colour) and the pieces on the board, weighted by rank."""
    if obs.get("result") is not None:
        return float(obs["result"][seat])
    me = colour_of(obs, seat)
    board = _board(obs)
    colours = sorted({owner for owner, _ in board.values()} | {me} | set(range(len(obs["score"]))))
    material = dict.fromkeys(colours, 0.0)
    for owner, rank in board.values():
        material[owner] = material.get(owner, 0.0) + WORTH[rank]
    if "colour_scores" in obs:  # melee: a player's score is their lowest colour
        rows = obs["colour_scores"]
        points = {c: min(v for o, v in enumerate(rows[c]) if o != c) for c in range(len(rows))}
        scale = 4.0
    elif "points" in obs:  # High Form: tasks and legendary pieces on the board
        points = dict(enumerate(obs["points"]))
        scale = 3.0
    else:
        points = dict(enumerate(obs["score"]))
        dc, dh, dl = obs["destroyed_this_turn"]
        turn_colour = colour_of(obs, obs.get("turn_seat", obs["player"]))
        points[turn_colour] = points.get(turn_colour, 0) + 2 * dl + dh + dc / 2
        scale = 5.0
    others = [c for c in points if c != me]
    best = max(others, key=lambda c: points[c] + 0.15 * material.get(c, 0.0))
    edge = points[me] - points[best] + 0.15 * (material.get(me, 0.0) - material.get(best, 0.0))
    return math.tanh(edge / scale)


# -- heuristic_action --------------------------------------------------------------------------------------------


def _progress_map(cards: CardSet, obs: dict[str, Any], seat: int) -> tuple[dict[int, float], dict[str, float]]:
    """For each empty square, how much one more common of ``seat`` there brings a being of the hand towards its
    pattern (the best fraction of a placement's squares that would then hold a fitting piece, more when it makes
    the pattern whole); and for each card of the hand, the best such progress (0: out of reach of two commons)."""
    me = colour_of(obs, seat)
    board = _board(obs)
    own = {sq: rank for sq, (owner, rank) in board.items() if owner == me}
    hand = [cards.by_id[c] for c in (*obs["hand"]["beings"], *obs["hand"]["legends"])]
    best: dict[int, float] = {}
    per_card: dict[str, float] = {}
    for card in hand:
        per_card.setdefault(card.id, 0.0)
        for o in card.orients:
            reqs = o.reqs
            n = len(reqs) + (1 if o.summon_req else 0)
            for anchor in SQUARES:
                missing: list[int] = []
                ok = 0
                for shift, r in reqs:
                    sq = anchor + shift
                    if own.get(sq, 0) >= r:
                        ok += 1
                    elif r == 1 and sq not in board and sq in ON_BOARD:
                        missing.append(sq)
                    else:
                        missing = []
                        ok = -99
                        break
                if ok < 0 or not 1 <= len(missing) <= 2:
                    continue
                frac = (ok + 1) / n + (0.5 if len(missing) == 1 else 0.0) + 0.1 * card.rank
                per_card[card.id] = max(per_card[card.id], frac)
                for sq in missing:
                    if frac > best.get(sq, 0.0):
                        best[sq] = frac
    return best, per_card


def _square_bonus(sq: int) -> float:
    return 0.15 * (CENTRAL >> sq & 1) + 0.1 * ((AREAS["red"] | AREAS["green"]) >> sq & 1)


def _flare_pays(card: Card, obs: dict[str, Any], seat: int, against: int | None) -> float:
    me = colour_of(obs, seat)
    board = _board(obs)
    ups: dict[int, int] = {}
    pcs: dict[int, int] = {}
    for owner, rank in board.values():
        pcs[owner] = pcs.get(owner, 0) + 1
        ups[owner] = ups.get(owner, 0) + (rank >= 2)
    up = low = False
    for o in (against,) if against is not None else set(pcs) - {me}:
        if o is None or o == me:
            continue
        up = up or ups.get(o, 0) - ups.get(me, 0) >= card.upper
        low = low or pcs.get(o, 0) - pcs.get(me, 0) >= card.lower
    gain = 1.5 * up + 1.5 * low
    cost = 0.0 if "points" in obs else 1.0  # High Form: the opponent scores nothing
    return gain - cost - 0.4


def _effect_choice_value(action: Action, obs: dict[str, Any], seat: int, board: dict[int, tuple[int, int]]) -> float:
    """An effect's choice: hurt the enemy's best pieces, help your own, and stop (``skip``) rather than hurt
    yourself."""
    me = colour_of(obs, seat)
    step = (obs.get("effect") or {}).get("step", "")
    helps = any(w in step for w in ("Upgrade", "upgrade", "Place", "place"))
    kind = action[0]
    if kind == Kind.CHOOSE:
        piece = board.get(action[1])
        if piece is None:
            return 0.2 + _square_bonus(action[1])
        owner, rank = piece
        if helps:
            return (1.0 + WORTH[rank]) if owner == me else -1.0 - WORTH[rank]
        return (1.0 + WORTH[rank] + DESTROY_POINTS[rank]) if owner != me else -1.0 - WORTH[rank]
    if kind == Kind.MOVE:
        victim = board.get(action[2])
        value = _square_bonus(action[2])
        if victim is not None:
            owner, rank = victim
            value += (1.0 + WORTH[rank] + DESTROY_POINTS[rank]) if owner != me else -1.0 - WORTH[rank]
        mover = board.get(action[1])
        if mover is not None and mover[0] != me:
            value = -value  # moving an enemy piece: the reverse
        return value
    if kind == Kind.SKIP:
        return 0.0
    if kind == Kind.OPTION:
        return 0.1 / action[1]
    return 0.05


def heuristic_action(game: TashKalarGame, obs: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    cards = game.cards
    phase = obs["phase"]
    board = _board(obs)
    me = colour_of(obs, seat)
    scored: list[tuple[float, int, Action]] = []
    progress: tuple[dict[int, float], dict[str, float]] | None = None
    for i, a in enumerate(legal):
        kind = a[0]
        value = 0.0
        if kind == Kind.RESIGN:
            value = -100.0
        elif kind == Kind.SUMMON:
            card = cards.by_id[a[1]]
            value = 4.0 + 1.5 * card.rank + (2.0 if card.rank == LEGENDARY else 0.0)
            victim = board.get(a[2])
            if victim is not None:
                owner, rank = victim
                value += 1.0 + DESTROY_POINTS[rank] if owner != me else -0.5 * WORTH[rank]
            if len(a) == 5:
                value -= 0.5  # an improvised summon uses up a colour
        elif kind == Kind.PLACE and phase in ("main", "recall-place"):
            if progress is None:
                progress = _progress_map(cards, obs, seat)
            value = 1.0 + progress[0].get(a[1], 0.0) + _square_bonus(a[1])
        elif kind == Kind.FLARE:
            value = _flare_pays(cards.by_id[a[1]], obs, seat, a[2] if len(a) == 3 else None)
        elif kind == Kind.DISCARD:
            # a being out of reach of the pieces you can place: discard it to draw another at the end of the turn
            if progress is None:
                progress = _progress_map(cards, obs, seat)
            reach = progress[1].get(a[1], 0.0)
            supply = obs["supply_two_sided"][me]
            value = (2.2 if reach == 0.0 else 1.0 - reach) + (1.0 if supply <= 2 else 0.0)
        elif kind == Kind.END:
            value = -1.0
        elif kind == Kind.CLAIM:
            value = 10.0 + (game.tasks.by_id[a[1]].points if game.tasks is not None else 0)
        elif kind == Kind.SCORE:
            rows = obs.get("colour_scores")
            value = -rows[seat][a[1]] if rows else 0.0
        elif kind == Kind.BOTTOM:
            value = -1.0
        elif kind == Kind.TAKE:
            value = 1.0 + cards.by_id[a[1]].rank
        elif phase == "effect":
            value = _effect_choice_value(a, obs, seat, board)
        scored.append((value + rng.random() * 1e-3, -i, a))
    return max(scored)[2]
