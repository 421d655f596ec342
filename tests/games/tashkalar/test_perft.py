"""Perft-style counts of legal summons for fixed positions, checked against a slow independent matcher."""

from __future__ import annotations

import pytest

import cardarena
from cardarena.games.tashkalar.board import NAME_SQ, SQ_NAME, SQUARES, sq_x, sq_y, square
from cardarena.games.tashkalar.cards import Card
from cardarena.games.tashkalar.rules.summoning import legal_summons
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import position

GAME = cardarena.load("tashkalar")
CARDS = GAME.cards

POSITIONS = {
    "cluster": "c3:o d3:o e3:O d4:o e4:o f4:O d5:@ e6:o f6:o g6:O c5:x g5:x e7:X",
    "spread": "a5:o c3:O e1:o g3:o i5:O g7:o e9:O c7:o e5:@ d6:x f4:X",
}
# (total summons over every being and legend of the card file, per-card counts for a few cards)
EXPECTED = {
    "cluster": (485, {"tide-pupil": 30, "shore-crab": 18, "flame-duelist": 2, "furnace-adept": 1, "vane-keeper": 10}),
    "spread": (127, {"spore-cloud": 16, "pollen-wisp": 11, "current-guide": 8, "forge-master": 1, "eddy-warden": 48}),
}


def naive_summons(st: TashKalarState, card: Card) -> set[tuple[str, frozenset[tuple[int, int, str]]]]:
    """Every (summon square, placement) by brute force over the text of the pattern and the 8 symmetries."""
    rows = [r.split() for r in card.pattern]
    sr, sc = next((r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t in "@CHL")
    rank_of = {"c": 1, "h": 2, "l": 3, "C": 1, "H": 2, "L": 3}
    found = set()
    for k in range(8):
        cells = []
        for r, row in enumerate(rows):
            for c, tok in enumerate(row):
                if tok == "." or (r, c) == (sr, sc):
                    continue
                dx, dy = c - sc, sr - r
                if k >= 4:
                    dx = -dx
                for _ in range(k % 4):
                    dx, dy = dy, -dx
                cells.append((dx, dy, tok))
        for s in SQUARES:
            x, y = sq_x(s), sq_y(s)
            here = st.board[s]
            if here and here & 3 > card.rank:
                continue
            need = rows[sr][sc]
            if need != "@" and not (here and here >> 2 == 0 and here & 3 >= rank_of[need]):
                continue
            ok = True
            for dx, dy, tok in cells:
                if tok == "*":
                    continue
                tok = tok[0]  # c* h* l*: a marked square that needs your piece
                tx, ty = x + dx, y + dy
                name = f"{'abcdefghi'[tx]}{ty + 1}" if 0 <= tx < 9 and 0 <= ty < 9 else None
                if name not in NAME_SQ:
                    ok = False
                    break
                piece = st.board[square(tx, ty)]
                if not piece or piece >> 2 != 0 or piece & 3 < rank_of[tok]:
                    ok = False
                    break
            if ok:
                found.add((SQ_NAME[s], frozenset(cells)))
    return found


def engine_summons(st: TashKalarState, card: Card) -> list[tuple[int, int, int]]:
    st.edit(
        hand_b=[[card.index] if card.kind == "being" else [], *st.hand_b[1:]],
        hand_l=[[card.index] if card.kind == "legend" else [], *st.hand_l[1:]],
    )
    return legal_summons(st)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_summon_counts_match_the_slow_matcher_and_the_recorded_perft(name: str) -> None:
    st = position(GAME, POSITIONS[name])
    total = 0
    per_card = {}
    for card in CARDS.cards:
        if card.kind == "flare":
            continue
        fast = engine_summons(st, card)
        slow = naive_summons(st, card)
        assert len(fast) == len(slow), card.id
        assert {SQ_NAME[sq] for _, sq, _ in fast} == {s for s, _ in slow}, card.id
        total += len(fast)
        per_card[card.id] = len(fast)
    expected_total, expected_cards = EXPECTED[name]
    assert total == expected_total
    for cid, n in expected_cards.items():
        assert per_card[cid] == n, cid


def test_perft_two_plies_of_a_fixed_position() -> None:
    """All decisions after one decision from a fixed position with a fixed hand (effects included)."""
    st = position(
        GAME,
        POSITIONS["cluster"],
        hand=("flame-duelist", "tide-pupil", "shore-crab"),
        legends=("sun-titan", "world-tree"),
        flares=("ambush",),
    )
    first = st.legal_actions()
    second = 0
    for action in first:
        child = st.clone()
        child.apply(action)
        second += len(child.legal_actions())
    assert (len(first), second) == PERFT2


# 110 decisions, then 8935 before issue 11: + 9 (after each of the 3 discards, 2 legends and a flare may go under
# their decks, point 13) + 110 ("resign", on by default in the duel, at the first ply and after each of the 110
# first decisions; the resigned game has none), point 14.
PERFT2 = (111, 9054)
