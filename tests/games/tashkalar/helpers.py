"""Building positions for scenario tests: small card sets made in the test, pieces written as ``e5:o``.

Piece letters are those of the board picture: seat 0 ``o`` common, ``O`` heroic, ``@`` legendary; seat 1 ``x``,
``X``, ``#``.
"""

from __future__ import annotations

from typing import Any

from cardarena.games.tashkalar.actions import Codec
from cardarena.games.tashkalar.board import NAME_SQ, SQ_NAME, bits
from cardarena.games.tashkalar.cards import build_cards
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.game import TashKalarGame
from cardarena.games.tashkalar.rules.pieces import all_pieces, put
from cardarena.games.tashkalar.state import TashKalarState

CHARS = {
    "o": (0, 1),
    "O": (0, 2),
    "@": (0, 3),
    "x": (1, 1),
    "X": (1, 2),
    "#": (1, 3),
    "v": (2, 1),
    "V": (2, 2),
    "%": (2, 3),
    "s": (3, 1),
    "S": (3, 2),
    "$": (3, 3),
}
LETTER = {v: k for k, v in CHARS.items()}


def being(cid: str, pattern: str, effect: list[dict[str, Any]], rank: str = "heroic") -> dict[str, Any]:
    return {"id": cid, "name": cid.replace("-", " ").title(), "rank": rank, "pattern": pattern, "effect": effect}


def flare(cid: str, upper: int, lower: int, up: list[dict[str, Any]], low: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": cid, "name": cid.title(), "upper": upper, "lower": lower, "upper_effect": up, "lower_effect": low}


FILLER = [being(f"filler-{i}", "c @", [{"do": "gain_action"}], "common") for i in range(4)]
FILLER_FLARE = flare("filler-flare", 6, 6, [{"do": "gain_action"}], [{"do": "gain_action"}])
FILLER_LEGEND = being("filler-legend", "h h @", [{"do": "gain_action"}], "legendary")


def make_game(
    *beings: dict[str, Any],
    legends: tuple[dict[str, Any], ...] = (),
    flares: tuple[dict[str, Any], ...] = (),
    **options: Any,
) -> TashKalarGame:
    """A game over a card set made of ``beings`` (school "lab"), ``legends`` and ``flares`` plus fillers."""
    raw = {
        "school": [
            {"id": "lab", "name": "Lab", "being": [*beings, *FILLER]},
            {"id": "lab2", "name": "Lab two", "being": [dict(b, id=f"{b['id']}-b") for b in FILLER]},
        ],
        "legend": [*legends, FILLER_LEGEND],
        "flare": [*flares, FILLER_FLARE],
    }
    # scenario positions list their legal actions exactly: resignation (on by default) only where a test asks
    options.setdefault("resign", False)
    g = TashKalarGame(school0="random", school1="random", **options)
    g.cards = build_cards(raw, file="<test cards>")
    g.codec = Codec(g.cards)
    g.options["school0"] = "lab"
    g.options["school1"] = "lab2"
    return g


def position(
    game: TashKalarGame,
    pieces: str = "",
    *,
    player: int = 0,
    hand: tuple[str, ...] = (),
    legends: tuple[str, ...] = (),
    flares: tuple[str, ...] = (),
    actions: int = 2,
    supply_two: tuple[int, ...] | None = None,
    supply_leg: tuple[int, ...] | None = None,
    turn: int = 5,
) -> TashKalarState:
    """A main-phase position of ``player`` with exactly ``pieces`` on the board and the given hand."""
    st = game.new_initial_state(0)
    st.edit(board=[0] * 144, bb=[0] * 16, supply_two=[16] * game.n_col, supply_leg=[3] * game.n_col)
    for tok in pieces.split():
        name, ch = tok.split(":")
        owner, rank = CHARS[ch]
        assert not st.board[NAME_SQ[name]], f"{name} is given twice"
        put(st, NAME_SQ[name], owner, rank)
    if supply_two is not None:
        st.edit(supply_two=list(supply_two))
    if supply_leg is not None:
        st.edit(supply_leg=list(supply_leg))
    idx = game.cards.by_id
    held = [idx[c].index for c in hand]
    school = game.cards.schools[st.school[player]].cards

    def seat_only(rows: list[list[int]], mine: list[int]) -> list[list[int]]:
        return [mine if p == player else row for p, row in enumerate(rows)]

    st.edit(
        hand_b=seat_only(st.hand_b, held),
        deck_s=seat_only(st.deck_s, [c for c in school if c not in held]),
        hand_l=seat_only(st.hand_l, [idx[c].index for c in legends]),
        hand_f=seat_only(st.hand_f, [idx[c].index for c in flares]),
        phase=Phase.MAIN,
        player=player,
        active=player,
        side=game.colour_of[player],
        handed=False,
        actions=actions,
        turn_no=turn,
    )
    return st


def board(st: TashKalarState) -> str:
    """The pieces as ``square:letter`` words, in square order."""
    return " ".join(f"{SQ_NAME[s]}:{LETTER[(st.board[s] >> 2, st.board[s] & 3)]}" for s in bits(all_pieces(st.bb)))


def legal(st: TashKalarState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def play(st: TashKalarState, *texts: str) -> TashKalarState:
    for t in texts:
        st.apply_text(t)
    return st


def set_item(st: TashKalarState, field: str, index: int, value: Any) -> None:
    """Set one seat's (or colour's) entry of a declared field through ``State.edit``."""
    rows = list(getattr(st, field))
    rows[index] = value
    st.edit(**{field: rows})
