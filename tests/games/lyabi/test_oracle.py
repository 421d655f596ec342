"""Perft-style cross-check: the legal main-phase, item-phase and set lists equal a naive, independent reading of
the rulebook's sentences on hundreds of positions from random games."""

from __future__ import annotations

from itertools import combinations

import cardarena
from cardarena.engine import Rng
from cardarena.games.lyabi.constants import STONE, Phase
from cardarena.games.lyabi.game import LyabiGame
from cardarena.games.lyabi.state import LyabiState


def sub_multisets(hand: list[str]) -> set[tuple[str, ...]]:
    out = set()
    for n in range(1, len(hand) + 1):
        for idx in combinations(range(len(hand)), n):
            out.add(tuple(sorted((hand[i] for i in idx), key=ORDER.index)))
    return out


ORDER: list[str] = []


def naive_main(st: LyabiState) -> set[str]:
    """メインフェイズ, read sentence by sentence."""
    g = st.game
    c = g.cards
    s = st.actor
    hand = [c.r_names[k] for k in st.hand[s]]
    cost = dict(zip(c.r_names, c.r_cost))
    supply = {c.r_names[k]: n for k, n in enumerate(st.supply)}
    out = {"pass"}
    if st.item[s] == STONE and st.main_used == 0:
        out.add("use stone")
    for pay in sub_multisets(hand):
        total = sum(cost[x] for x in pay)
        for target in c.r_names:  # (1) one ryabi of cost ≤ total
            if supply[target] and cost[target] <= total:
                out.add(f"buy {target} pay {' '.join(pay)}")
        field = st.field[s]
        for li, level in enumerate(c.levels):  # place: a circle of cost ≤ total, at most 2 on the field
            if st.piles[li] and c.level_cost[li] <= total:
                if len(field) < c.max_circles:
                    out.add(f"place {level} pay {' '.join(pay)}")
                elif g.options["circle_replace"]:
                    for k in field:
                        out.add(f"place {level} pay {' '.join(pay)} replace {c.c_names[k]}")
    for paid in set(hand):  # (2) exactly one card; up to two, each cheaper, never two of equal cost
        cheaper = [t for t in c.r_names if supply[t] and cost[t] < cost[paid]]
        for t in cheaper:
            out.add(f"split {paid} into {t}")
        for a, b in combinations(cheaper, 2):
            if cost[a] != cost[b]:
                out.add(f"split {paid} into {a} {b}")
    return out


def naive_item(st: LyabiState) -> set[str]:
    c = st.game.cards
    hand = [c.r_names[k] for k in st.hand[st.actor]]
    cost = dict(zip(c.r_names, c.r_cost))
    return {"pass"} | {f"item pay {' '.join(p)}" for p in sub_multisets(hand) if sum(cost[x] for x in p) >= 3}


def naive_sets(st: LyabiState) -> set[str]:
    c = st.game.cards
    hand = [c.r_names[k] for k in st.hand[st.actor]]
    colour = dict(zip(c.r_names, c.r_colour))
    pairs = {p for p in sub_multisets(hand) if len(p) == 2 and colour[p[0]] == colour[p[1]]}
    return {"set dummy"} | {f"set {x}" for x in hand} | {f"set {' '.join(p)}" for p in pairs}


def test_legal_lists_match_the_naive_reading() -> None:
    checked = {Phase.MAIN: 0, Phase.ITEM: 0, Phase.SET: 0}
    for replace in (False, True):
        game = cardarena.load("lyabi", circle_replace=replace)
        assert isinstance(game, LyabiGame)
        ORDER[:] = list(game.cards.r_names)
        for seed in range(40):
            st = game.new_initial_state(seed)
            rng = Rng(seed)
            while not st.is_terminal():
                legal = [str(a) for a in st.legal_actions()]
                assert len(set(legal)) == len(legal)
                naive = {Phase.MAIN: naive_main, Phase.ITEM: naive_item, Phase.SET: naive_sets}.get(st.phase)
                if naive is not None:
                    assert set(legal) == naive(st), (seed, st.phase, legal)
                    checked[st.phase] += 1
                st.apply(st.legal_actions()[rng.randbelow(len(legal))])
    assert min(checked.values()) > 500
