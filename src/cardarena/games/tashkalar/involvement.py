"""The balance report's hooks (:mod:`cardarena.engine.involvement`): what Tash-Kalar declares, and what an action
involves, read from the states before and after it.

Declared (``catalogue``), for the card file and task file in use:

- ``card``: every being of every school and every legend (name = the card's id), ``flare``: every flare;
- ``effect``: each being's and legend's effect (name = the card's id), and each half of each flare
  (``<flare id>:upper`` / ``<flare id>:lower``);
- ``task``: every High Form task (High Form only);
- ``piece``: the three ranks of pieces (``common``, ``heroic``, ``legendary``), which are what gets destroyed: a
  piece on the board remembers no card;
- ``rule``: the rules worth watching (:data:`RULES`, those of the mode in use).

Nothing here runs while a game is played: the rules keep no log, so every event is derived from ``before`` and
``after``. The board diff (:func:`_board_events`) first applies the action's own piece changes (the summoned piece
and what it replaced, a placed common, a recalled piece) and then reads what is left as the effect's doing: a
piece of the same owner and rank that left one square and appeared on another *moved*; a piece left with no such
match was *destroyed*; a square whose piece changed owner in place without a mover was *converted* (the old piece
is destroyed by the convert, as the rules do it); a rank change in place is an *upgrade* or a *downgrade*; a piece
appearing from nowhere was *placed* by the effect. Ambiguous diffs (a piece destroyed and an identical one placed
elsewhere by the same choice) read as a move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ...engine import Action, Declared, Involvement, Rng, Setup
from .board import ONBOARD, bits
from .cards.data import LEGENDARY, RANK_NAMES
from .constants import (
    CLAIM,
    EFFECT,
    MAIN,
    MELEE_SETUP,
    OVER,
    PICK,
    PICK_LEGEND,
    RECALL_PLACE,
    SETUP,
    SUMMON_RECALL,
    Kind,
)
from .rules import modes
from .rules.flares import flare_halves

if TYPE_CHECKING:
    from .game import TashKalarGame
    from .state import TashKalarState

Mode = Callable[["TashKalarGame"], bool]


def _always(g: TashKalarGame) -> bool:
    return True


def _scoring(g: TashKalarGame) -> bool:
    return g.mode != "highform"


#: The rules worth watching: name -> (label citing the rulebook's section, whether the game's mode has it).
RULES: dict[str, tuple[str, Mode]] = {
    "place": ("可能なアクション: place a common piece (an action)", _always),
    "recall": ("可能なアクション: out of pieces, take one of yours back (to place it or to summon)", _always),
    "summon-replace": ("クリーチャーの召喚: the summoned piece replaces a piece on its square, destroying it", _always),
    "legend-summon": ("クリーチャーの召喚: a legendary being summoned", _always),
    "improvised-summon": (
        "乱戦, クリーチャーの召喚: an improvised summon using an enemy piece (once per colour)",
        lambda g: g.mode == "melee",
    ),
    "discard": ("可能なアクション: the discard action (one school card to the discard pile)", _always),
    "put-under": ("可能なアクション: after discarding, cards put under their decks", _always),
    "flare": ("焰カードの発動: a flare invoked", _always),
    "destroy": ("キーワード 破壊: a piece destroyed (by an effect, a move onto it or a summon)", _always),
    "upgrade": ("キーワード アップグレード: a piece upgraded by an effect", _always),
    "downgrade": ("キーワード: a piece downgraded by an effect", _always),
    "convert": ("キーワード: an enemy piece replaced by one of yours (convert)", _always),
    "move": ("キーワード 移動: a piece moved or leapt by an effect", _always),
    "effect-place": ("an effect placed a piece", _always),
    "extra-turn": ("an effect's extra turn taken", _always),
    "take": ("an effect took a card from a discard pile into the hand", _always),
    "reshuffle": ("ゲームの手順: the legend or flare discard pile shuffled into a new deck", _always),
    "score-destroyed": ("対戦/乱戦: points for destroyed enemy pieces at the end of the turn", _scoring),
    "legend-point": ("対戦/乱戦: 1 point for summoning a legendary being", _scoring),
    "flare-point": ("対戦/乱戦: a flare gives the opponents (melee: the chosen one) 1 point", _scoring),
    "odd-commons": (
        "乱戦: 2-3 odd destroyed commons of different colours: 1 point in one of those colours",
        lambda g: g.mode == "melee",
    ),
    "task": ("クラシック: a task claimed at the end of the turn", lambda g: g.mode == "highform"),
    "handover": ("チーム戦: the turn handed over to the teammate", lambda g: bool(g.options["teams"])),
    "deck-exhausted": ("ゲームの終了: a seat drew the last (upright) card of its school deck", _always),
    "final-round": ("ゲームの終了: the end triggered; the round is played out", _always),
    "resign": ("ゲームの終了: a seat (its team) resigned", lambda g: g.resign),
    "tie-break": ("ゲームの終了: tied on points, the ranking decided by upgraded pieces, then pieces", _always),
}

PIECES = {1: "common", 2: "heroic", 3: "legendary"}


# -- what is declared ------------------------------------------------------------------------------------------


def catalogue(g: TashKalarGame) -> list[Declared]:
    """Every card, effect, flare half, task, piece rank and rule of this game's card file, task file and mode."""
    out: list[Declared] = []
    cs = g.cards
    for school in cs.schools.values():
        for c in school.cards:
            card = cs.cards[c]
            out.append(Declared("card", card.id, f"{card.name} ({school.name}, {RANK_NAMES[card.rank]})"))
    for c in cs.legends:
        out.append(Declared("card", cs.cards[c].id, f"{cs.cards[c].name} (legend)"))
    for c in cs.flares:
        card = cs.cards[c]
        out.append(Declared("flare", card.id, f"{card.name} (flare: upper {card.upper}, lower {card.lower})"))
    for school in cs.schools.values():
        for c in (*school.cards,):
            out.append(Declared("effect", cs.cards[c].id, f"effect of {cs.cards[c].name}"))
    for c in cs.legends:
        out.append(Declared("effect", cs.cards[c].id, f"effect of {cs.cards[c].name} (legend)"))
    for c in cs.flares:
        card = cs.cards[c]
        out.append(Declared("effect", f"{card.id}:upper", f"{card.name}: upper half (upgraded pieces)"))
        out.append(Declared("effect", f"{card.id}:lower", f"{card.name}: lower half (pieces)"))
    if g.tasks is not None:
        for t in g.tasks.tasks:
            kind = "advanced" if t.advanced else "simple"
            out.append(Declared("task", t.id, f"{t.name} ({t.type}, {kind}, {t.points} points)"))
    for rank, name in PIECES.items():
        out.append(Declared("piece", name, f"a {name} piece (rank {rank})"))
    out.extend(Declared("rule", name, label) for name, (label, has) in RULES.items() if has(g))
    return out


def entry_data(g: TashKalarGame) -> dict[tuple[str, str], str]:
    """The data of every card and task of the files in use as the files write them (``cards.model.model_text``),
    keyed like the catalogue: ``("card", id)`` for a being or legend (name, rank, pattern, effect steps),
    ``("flare", id)`` (name, the two thresholds, the two effects), ``("task", id)`` in High Form (name, type,
    level, points, conditions). The ``effect`` entries (a card's effect, a flare's half) are what the card makes
    of its effect, so a change shows once, on its card; pieces and rules have no data."""
    cs = g.cards
    out = {("card", cs.cards[c].id): cs.data[cs.cards[c].id] for s in cs.schools.values() for c in s.cards}
    out |= {("card", cs.cards[c].id): cs.data[cs.cards[c].id] for c in cs.legends}
    out |= {("flare", cs.cards[c].id): cs.data[cs.cards[c].id] for c in cs.flares}
    if g.tasks is not None:
        out |= {("task", t.id): t.data for t in g.tasks.tasks}
    return out


def schools_setup(g: TashKalarGame, seed: int) -> Setup:
    """Each seat's school for one game of the balance report: a seat whose option names a school keeps it, any
    other gets one drawn uniformly from the card file's schools, independently per seat, so the same school may
    sit in two seats (a mirror) and over many games every seat plays every school about equally often (the
    seed is all a game gets, so the balance is that of a fair draw, not an exact rotation)."""
    rng = Rng(seed)
    ids = list(g.cards.schools)
    chosen = []
    for seat in range(g.num_players):
        want = g.options[f"school{seat}"]
        chosen.append(ids[rng.randbelow(len(ids))] if want == "random" else want)
    return Setup(
        options=tuple((f"school{seat}", school) for seat, school in enumerate(chosen)),
        seats=tuple(g.cards.schools[school].name for school in chosen),
        kind="school",
    )


def end_conditions(g: TashKalarGame) -> list[Declared]:
    """The ways a game of this mode ends (ゲームの終了), the turn cap and a draw."""
    rules = g.cards.rules
    if g.mode == "deathmatch":
        points = f"対戦: {rules.deathmatch_target} points reached (the round is played out)"
    elif g.mode == "highform":
        points = (
            f"クラシック: {rules.highform_target} points reached (tasks and legendary pieces; the round is played out)"
        )
    else:
        target = rules.melee_target_3 if g.num_players == 3 else rules.melee_target_4
        points = f"乱戦: {target} points in one colour reached (the round is played out)"
    out = [
        Declared("end", "points", points),
        Declared(
            "end", "deck-exhausted", "ゲームの終了: the last (upright) card of a school deck drawn (round played out)"
        ),
    ]
    if g.resign:
        out.append(Declared("end", "resignation", "ゲームの終了: a seat (its team) resigned"))
    out.append(Declared("end", "draw", "ゲームの終了: every colour tied for first after the tie-breaks"))
    out.append(Declared("end", "turn-cap", "the max_turns safety cap (a draw)"))
    return out


def end_condition(st: TashKalarState) -> str:
    """How the terminal ``st`` ended: resignation, the turn cap, a draw, else what triggered the last round."""
    if st.resigned >= 0:
        return "resignation"
    if st.capped:
        return "turn-cap"
    if all(r == 0 for r in st.returns()):
        return "draw"
    reasons = st.trigger.partition(": ")[2]
    if reasons:
        return "points" if " points" in reasons.split(" and ")[0] else "deck-exhausted"
    # an edited or hand-built terminal state has no trigger text: judge by the board and decks
    return "points" if modes.end_reasons(st) else "deck-exhausted"


# -- what is involved ------------------------------------------------------------------------------------------


def initial(st: TashKalarState) -> list[Involvement]:
    """Each seat's school (``in_school``), the shared legend and flare decks (``in_deck``), the opening hands
    (``drawn``) and, in High Form, the first three tasks (``offered``)."""
    g = st.game
    cs = g.cards.cards
    out: list[Involvement] = []
    for p in range(g.num_players):
        out.extend(Involvement(p, "card", cs[c].id, "in_school") for c in g.cards.schools[st.school[p]].cards)
        out.extend(Involvement(p, "card", cs[c].id, "in_deck") for c in g.cards.legends)
        out.extend(Involvement(p, "flare", cs[c].id, "in_deck") for c in g.cards.flares)
        out.extend(_hand(st, p, c, "drawn") for c in (*st.hand_b[p], *st.hand_l[p], *st.hand_f[p]))
    if g.tasks is not None:
        out.extend(Involvement(None, "task", g.tasks.tasks[t].id, "offered") for t in st.cur_t)
    return out


def _hand(st: TashKalarState, p: int, c: int, verb: str) -> Involvement:
    card = st.game.cards.cards[c]
    return Involvement(p, "flare" if card.kind == "flare" else "card", card.id, verb)


def _seats(st: TashKalarState, colour: int) -> list[int]:
    """The seats owning the pieces of ``colour`` (both teammates in team games)."""
    return [s for s, c in enumerate(st.game.colour_of) if c == colour]


def involvement(before: TashKalarState, action: Action, after: TashKalarState) -> list[Involvement]:
    """The action's own cards and every event it set off, derived from the two states (see the module's text)."""
    return list(_events(before, action, after))


def _events(b: TashKalarState, action: Action, a: TashKalarState) -> Iterator[Involvement]:
    g = b.game
    cs = g.cards
    kind = action[0]
    p = b.player
    ph = b.phase
    # -- the action itself
    effect_card = -1  # the being or legend whose effect this action started or went on with
    if kind == Kind.SUMMON:
        card = cs.by_id[action[1]]
        yield Involvement(p, "card", card.id, "summoned")
        if card.kind == "legend":
            yield Involvement(p, "rule", "legend-summon", "applied")
        if len(action) == 5:
            yield Involvement(p, "rule", "improvised-summon", "applied")
        if a.phase != SUMMON_RECALL:  # else the piece is placed (and the effect starts) once one is recalled
            effect_card = card.index
            if card.rank == LEGENDARY and g.mode == "deathmatch":
                yield Involvement(p, "rule", "legend-point", "applied")
    elif kind == Kind.FLARE:
        card = cs.by_id[action[1]]
        yield Involvement(p, "flare", card.id, "played")
        yield Involvement(p, "rule", "flare", "applied")
        up, low = flare_halves(b, p, card, action[2] if len(action) == 3 else -1)
        if up:
            yield Involvement(p, "effect", f"{card.id}:upper", "fired")
        if low:
            yield Involvement(p, "effect", f"{card.id}:lower", "fired")
        if g.mode != "highform":
            yield Involvement(p, "rule", "flare-point", "applied")
    elif kind == Kind.DISCARD and ph == MAIN:
        yield Involvement(p, "card", action[1], "discarded")
        yield Involvement(p, "rule", "discard", "applied")
    elif kind == Kind.BOTTOM:
        yield _hand(b, p, cs.by_id[action[1]].index, "returned")
        yield Involvement(p, "rule", "put-under", "applied")
    elif kind == Kind.RECALL and ph == MAIN:
        yield Involvement(p, "rule", "recall", "applied")
    elif kind == Kind.PLACE and ph == MAIN:
        yield Involvement(p, "rule", "place", "applied")
    elif kind == Kind.RESIGN:
        yield Involvement(p, "rule", "resign", "applied")
    elif kind == Kind.HANDOVER:
        yield Involvement(p, "rule", "handover", "applied")
    elif kind == Kind.CLAIM and g.tasks is not None:
        yield Involvement(p, "task", action[1], "completed")
        yield Involvement(p, "rule", "task", "applied")
    elif kind == Kind.TAKE:
        yield Involvement(p, "rule", "take", "applied")
    if ph == SUMMON_RECALL and kind == Kind.RECALL:
        yield Involvement(p, "rule", "recall", "applied")
        assert b.pending_summon is not None
        effect_card = b.pending_summon[0]
        if cs.cards[effect_card].rank == LEGENDARY and g.mode == "deathmatch":
            yield Involvement(p, "rule", "legend-point", "applied")
    elif (ph == EFFECT and kind != Kind.HANDOVER) or (ph == PICK and b.pick_then == PICK_LEGEND):
        effect_card = b.resolving
    if ph == PICK and kind == Kind.SCORE:
        yield Involvement(p, "rule", "legend-point" if b.pick_then == PICK_LEGEND else "odd-commons", "applied")
    # -- the board: the action's own pieces, then what the effect did
    did = False
    if ph not in (SETUP, MELEE_SETUP) and kind not in (Kind.RESIGN, Kind.HANDOVER):
        own, effect = _board_events(b, action, a)
        yield from own
        yield from effect
        did = bool(effect)
    # -- the effect's other doings, and the effect itself
    same_turn = a.turn_no == b.turn_no and a.phase != OVER
    new_turn = a.turn_no != b.turn_no
    gained_turns = a.extra_turns + (1 if a.in_extra and new_turn else 0) - b.extra_turns
    if a.in_extra and new_turn:
        yield Involvement(a.active, "rule", "extra-turn", "applied")
    if effect_card >= 0 and cs.cards[effect_card].kind != "flare":
        cost = 1 if kind == Kind.SUMMON else 0
        did = (
            did
            or kind == Kind.TAKE
            or gained_turns > 0
            or (same_turn and (a.actions > b.actions - cost or a.extra != b.extra))
        )
        if did:
            # the turn player summoned it (a teammate it was handed over to only resolves it)
            yield Involvement(b.active, "effect", cs.cards[effect_card].id, "fired")
    # -- cards into hands
    yield from _hands(b, a)
    # -- decks, tasks, scoring, the end
    for q in range(g.num_players):
        if a.deck_out[q] and not b.deck_out[q]:
            yield Involvement(q, "rule", "deck-exhausted", "applied")
    if kind != Kind.TAKE and (_reshuffled(b.disc_l, a.disc_l) or _reshuffled(b.disc_f, a.disc_f)):
        yield Involvement(None, "rule", "reshuffle", "applied")
    if g.tasks is not None:
        yield from (Involvement(None, "task", g.tasks.tasks[t].id, "offered") for t in a.cur_t if t not in b.cur_t)
        if a.phase == CLAIM and ph != CLAIM:
            for t in modes.claimable(a):
                yield Involvement(a.player, "task", g.tasks.tasks[t].id, "available")
    if _scored_destroyed(b, action, a):
        yield Involvement(b.active, "rule", "score-destroyed", "applied")
    if b.final_left < 0 <= a.final_left:
        yield Involvement(b.active, "rule", "final-round", "applied")
    if a.phase == OVER and b.phase != OVER and a.resigned < 0 and not a.capped:
        yield from _tie_break(a)


def _board_events(b: TashKalarState, action: Action, a: TashKalarState) -> tuple[list[Involvement], list[Involvement]]:
    """The pieces the action changed: its own (the piece a summon replaced), then the effect's doings."""
    g = b.game
    p = b.player
    side = b.side
    board = list(b.board)
    kind = action[0]
    ph = b.phase
    own: list[Involvement] = []
    effect: list[Involvement] = []

    def destroyed(cell: int, out: list[Involvement]) -> None:
        out.extend(Involvement(s, "piece", PIECES[cell & 3], "destroyed") for s in _seats(b, cell >> 2))
        out.append(Involvement(p, "rule", "destroy", "applied"))

    if kind == Kind.SUMMON:
        sq = action[2]
        if board[sq]:
            destroyed(board[sq], own)
            own.append(Involvement(p, "rule", "summon-replace", "applied"))
            board[sq] = 0
        if a.phase != SUMMON_RECALL:
            rank = g.cards.by_id[action[1]].rank
            board[sq] = side << 2 | rank
            own.append(Involvement(p, "piece", PIECES[rank], "placed"))
    elif ph == SUMMON_RECALL and kind == Kind.RECALL:
        assert b.pending_summon is not None
        c, sq, _ = b.pending_summon
        board[action[1]] = 0
        board[sq] = side << 2 | g.cards.cards[c].rank
        own.append(Involvement(p, "piece", PIECES[g.cards.cards[c].rank], "placed"))
    elif ph in (MAIN, RECALL_PLACE) and kind == Kind.PLACE:
        board[action[1]] = side << 2 | 1
        own.append(Involvement(p, "piece", PIECES[1], "placed"))
    elif ph == MAIN and kind == Kind.RECALL:
        board[action[1]] = 0
    gone: list[int] = []  # the cells of pieces that left their square
    came: list[tuple[int, bool]] = []  # (cell, whether it replaced a piece of another owner) of pieces that came
    for sq in bits(ONBOARD):
        x, y = board[sq], a.board[sq]
        if x == y:
            continue
        if x and y and x >> 2 == y >> 2:
            effect.append(Involvement(p, "rule", "upgrade" if y & 3 > x & 3 else "downgrade", "applied"))
            continue
        if x:
            gone.append(x)
        if y:
            came.append((y, bool(x)))
    left = Counter(gone)
    for cell, replaced in came:
        if left[cell] > 0:
            left[cell] -= 1
            effect.append(Involvement(p, "rule", "move", "applied"))
        else:
            effect.append(Involvement(p, "rule", "convert" if replaced else "effect-place", "applied"))
    for cell, n in left.items():
        for _ in range(n):
            destroyed(cell, effect)
    return own, effect


def _hands(b: TashKalarState, a: TashKalarState) -> Iterator[Involvement]:
    """Cards new in a hand: ``drawn`` from a deck or a pile, ``available`` when another seat's hand gave them."""
    n = b.game.num_players
    new: list[Counter[int]] = []
    lost: Counter[int] = Counter()
    for q in range(n):
        was = Counter([*b.hand_b[q], *b.hand_l[q], *b.hand_f[q]])
        now = Counter([*a.hand_b[q], *a.hand_l[q], *a.hand_f[q]])
        new.append(now - was)
        lost += was - now
    for q in range(n):
        for c, k in new[q].items():
            passed = min(k, lost[c])
            lost[c] -= passed
            for i in range(k):
                yield _hand(a, q, c, "available" if i < passed else "drawn")


def _reshuffled(before: list[int], after: list[int]) -> bool:
    """A discard pile that lost its cards to its deck (cards are only ever added on top otherwise)."""
    return bool(before) and after[: len(before)] != before


def _scored_destroyed(b: TashKalarState, action: Action, a: TashKalarState) -> bool:
    """Whether the end of the turn in this action scored destroyed enemy pieces (deathmatch, melee)."""
    g = b.game
    if g.mode == "deathmatch":
        legend = 0
        if action[0] == Kind.SUMMON and a.phase != SUMMON_RECALL and g.cards.by_id[action[1]].rank == LEGENDARY:
            legend = 1
        elif b.phase == SUMMON_RECALL and b.pending_summon is not None:
            legend = int(g.cards.cards[b.pending_summon[0]].rank == LEGENDARY)
        return a.score[b.side] - b.score[b.side] > legend
    if g.mode == "melee":
        picked = 1 if b.phase == PICK else 0
        return sum(a.mscore[b.active]) - sum(b.mscore[b.active]) > picked
    return False


def _tie_break(st: TashKalarState) -> Iterator[Involvement]:
    """At the end: the leaders tied on points, so upgraded pieces (then pieces) ranked them."""
    n = st.game.num_players
    keys = [modes.ranking_key(st, s) for s in range(n)]
    best = max(keys)
    points = len(best) - 2  # the points part of the key (melee: one entry per enemy colour)
    tied = [s for s in range(n) if keys[s][:points] == best[:points]]
    if len({st.game.colour_of[s] for s in tied}) > 1:
        yield Involvement(None, "rule", "tie-break", "applied")
