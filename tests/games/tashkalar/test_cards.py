"""Every shipped card: summoned (or invoked) in a position made from its own pattern, then fully resolved.

Also the conservation of pieces: every piece is on the board, in its owner's supply, or set aside this turn.
"""

from __future__ import annotations

import pytest

import cardarena
from cardarena.engine import Rng
from cardarena.games.tashkalar.board import SQ_NAME, square
from cardarena.games.tashkalar.cards import LEGENDARY
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.rules.flares import flare_halves
from cardarena.games.tashkalar.rules.pieces import aside
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import position, set_item

GAME = cardarena.load("tashkalar")
CARDS = GAME.cards
ENEMIES = "c3:x g3:x c7:X g7:X e8:x b5:x h5:X e2:#"


def conserved(st: TashKalarState) -> None:
    rules = CARDS.rules
    for p in (0, 1):
        base = p << 2
        two = (st.bb[base | 1] | st.bb[base | 2]).bit_count()
        leg = st.bb[base | 3].bit_count()
        assert st.supply_two[p] + aside(st)[2 * p] + two == rules.deathmatch_two_sided_base - 2
        assert st.supply_leg[p] + aside(st)[2 * p + 1] + leg == rules.legendary_pieces
    for sq in range(144):
        c = st.board[sq]
        if c:
            assert st.bb[c] >> sq & 1


def pattern_position(card_id: str) -> tuple[TashKalarState, str]:
    """Your pieces on the card's r0 pattern around e5, enemies around, the card in hand."""
    card = CARDS.by_id[card_id]
    o = card.orients[0]
    e5 = square(4, 4)
    own = []
    letter = {1: "o", 2: "O", 3: "@"}
    for shift, rank in o.reqs:
        own.append(f"{SQ_NAME[e5 + shift]}:{letter[rank]}")
    if o.summon_req:
        own.append(f"e5:{letter[o.summon_req]}")
    taken = {w.split(":")[0] for w in own}
    enemies = " ".join(w for w in ENEMIES.split() if w.split(":")[0] not in taken)
    if card.kind == "legend":
        st = position(GAME, " ".join(own) + " " + enemies, legends=(card_id,), supply_two=(10, 14), supply_leg=(2, 2))
    else:
        st = position(GAME, " ".join(own) + " " + enemies, hand=(card_id,), supply_two=(10, 14), supply_leg=(2, 2))
    fix_supplies(st)
    return st, f"summon {card_id} at e5 {o.name}"


def fix_supplies(st: TashKalarState) -> None:
    for p in (0, 1):
        base = p << 2
        set_item(st, "supply_two", p, 16 - (st.bb[base | 1] | st.bb[base | 2]).bit_count())
        set_item(st, "supply_leg", p, 3 - st.bb[base | 3].bit_count())


def resolve(st: TashKalarState, rng: Rng) -> int:
    n = 0
    while st.phase == Phase.EFFECT or (st.phase != Phase.MAIN and st.current_player == 0 and n < 50):
        legal = st.playout_actions()
        st.apply(legal[rng.randbelow(len(legal))])
        conserved(st)
        n += 1
        if n > 60:
            raise AssertionError("an effect did not end")
    return n


@pytest.mark.parametrize("card_id", [c.id for c in CARDS.cards if c.kind != "flare"])
def test_every_being_and_legend_summons_and_resolves(card_id: str) -> None:
    for k in range(4):
        st, summon = pattern_position(card_id)
        conserved(st)
        assert summon in [str(a) for a in st.legal_actions()]
        st.apply_text(summon)
        card = CARDS.by_id[card_id]
        if card.rank == LEGENDARY:
            assert st.score[0] == 1
        resolve(st, Rng(k))
        pile = st.disc_l if card.kind == "legend" else st.disc_s[0]
        assert card.index in pile


@pytest.mark.parametrize("card_id", [CARDS.cards[c].id for c in CARDS.flares])
def test_every_flare_resolves_both_halves(card_id: str) -> None:
    card = CARDS.by_id[card_id]
    for k in range(4):
        # the opponent is far ahead in pieces and in upgraded pieces: both halves apply
        st = position(GAME, "a5:o a4:o e3:o " + ENEMIES + " d7:X e7:X f7:X f8:X d8:X", flares=(card_id,))
        fix_supplies(st)
        assert flare_halves(st, 0, card) == (True, True)
        st.apply_text(f"flare {card_id}")
        assert st.score == [0, 1]
        resolve(st, Rng(k))
        assert card.index in st.disc_f


def test_pieces_are_conserved_in_random_games() -> None:
    for seed in range(12):
        st = GAME.new_initial_state(seed)
        rng = Rng(seed)
        while not st.is_terminal():
            legal = st.playout_actions()
            st.apply(legal[rng.randbelow(len(legal))])
            assert isinstance(st, TashKalarState)
            conserved(st)
