"""ビルド: the build scenes, the only decisions of the game; and the reveal that starts the battle.

Blind: each seat in turn adds 0-8 cards, top first, then ``done`` (the eighth card finishes a build by itself).
Open: each seat shows 4 open cards (listed in card-list order, since their order does not matter), then builds 8
cards holding its 4 open ones. League: both builds come from files, so there is no decision at all.

Legality has one source: each condition is a check returning ``None`` (allowed) or the reason, and
:func:`legal_actions` lists the candidates those same checks allow (:func:`first_showable` and
:func:`must_place` are shared by both).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardarena.engine import Action, Rng

from ..actions import DONE
from ..cards import CardDef
from ..constants import ADD, BUILD_PHASE, MAX_CARDS, OPEN, OPEN_CARDS, OVER, SHOW, SHOW_PHASE, Phase
from .battle import Battle
from .board import Outcome

if TYPE_CHECKING:
    from ..state import LaplaplaceState


# -- turn order ------------------------------------------------------------------------------------------------
def phase(state: LaplaplaceState) -> Phase:
    """``show`` (open cards), ``build`` (adding cards), or ``over``."""
    if state.outcome is not None:
        return OVER
    if state.game.scene is OPEN and len(state.shown[1]) < OPEN_CARDS:
        return SHOW_PHASE
    return BUILD_PHASE


def current_player(state: LaplaplaceState) -> int | None:
    """Seat 0 shows its 4 open cards, then seat 1; seat 0 builds, then seat 1."""
    if state.outcome is not None:
        return None
    if state.game.scene is OPEN and len(state.shown[1]) < OPEN_CARDS:
        return 0 if len(state.shown[0]) < OPEN_CARDS else 1
    return 0 if not state.done[0] else 1


# -- the checks ------------------------------------------------------------------------------------------------
def first_showable(state: LaplaplaceState, seat: int) -> int:
    """The first card (card-list index) ``seat`` may show next: open cards are listed in card-list order."""
    shown = state.shown[seat]
    return shown[-1] if shown else 0


def open_remaining(state: LaplaplaceState, seat: int) -> list[int]:
    """Open cards of ``seat`` not yet placed in its build (each must be placed)."""
    rest = list(state.shown[seat])
    for i in state.builds[seat]:
        if i in rest:
            rest.remove(i)
    return rest


def must_place(state: LaplaplaceState, seat: int) -> list[int] | None:
    """The open cards the next place must take from (open scene, once the places left are all needed for them),
    or ``None`` when any card may be added."""
    if state.game.scene is not OPEN:
        return None
    remaining = open_remaining(state, seat)
    if MAX_CARDS - len(state.builds[seat]) > len(remaining):
        return None
    return remaining


def check_show(state: LaplaplaceState, seat: int, card: int) -> str | None:
    if phase(state) is not SHOW_PHASE:
        return "open cards are shown only at the start of the open scene"
    if card < first_showable(state, seat):
        return "open cards are listed in card-list order (their order does not matter)"
    return None


def check_add(state: LaplaplaceState, seat: int, card: int) -> str | None:
    if phase(state) is SHOW_PHASE:
        return "first show 4 open cards"
    need = must_place(state, seat)
    if need is not None and card not in need:
        return "the remaining places must hold your open cards"
    return None


def check_done(state: LaplaplaceState) -> str | None:
    if state.game.scene is OPEN:
        return "in the open scene a build has exactly 4 open and 4 added cards"
    return None


# -- the rules' three entry points -------------------------------------------------------------------------------
def legal_actions(state: LaplaplaceState) -> list[Action]:
    """The candidates the checks allow, in index order (whole groups are taken or skipped at once)."""
    codec = state.game.codec
    seat = current_player(state)
    assert seat is not None
    if phase(state) is SHOW_PHASE:
        return codec.show_legal[first_showable(state, seat)]
    need = must_place(state, seat)
    if need is not None:
        return [codec.add[i] for i in sorted(set(need))]
    if check_done(state) is None:
        return codec.blind_legal
    return codec.add


def why_not(state: LaplaplaceState, action: Action) -> str | None:
    """``None`` if ``action`` is legal, else the first failing check (the same checks as :func:`legal_actions`)."""
    if state.outcome is not None:
        return "the battle is over"
    seat = current_player(state)
    assert seat is not None
    if action == DONE:
        return check_done(state)
    card = state.game.codec.card_index.get(action)
    if card is None:
        return "not an action of this card list"
    if action[0] == SHOW:
        return check_show(state, seat, card)
    return check_add(state, seat, card)


def apply(state: LaplaplaceState, action: Action) -> None:
    """Carry out a legal action; once both builds are complete, the battle is fought at once."""
    seat = current_player(state)
    assert seat is not None
    kind = action[0]
    if kind == SHOW:
        state.shown[seat].append(state.game.codec.card_index[action])
        return
    if kind == ADD:
        state.builds[seat].append(state.game.codec.card_index[action])
        if len(state.builds[seat]) == MAX_CARDS:
            state.done[seat] = True
    else:
        state.done[seat] = True
    fight_when_ready(state)


# -- the battle --------------------------------------------------------------------------------------------------
def battle_builds(state: LaplaplaceState) -> list[list[CardDef]]:
    cards = state.game.table.cards
    return [[cards[i] for i in state.builds[0]], [cards[i] for i in state.builds[1]]]


def fight(state: LaplaplaceState, rng: Rng, log: list[str] | None) -> Outcome:
    """The battle of the state's two builds from ``rng`` (the whole battle: it has no decisions)."""
    return Battle(battle_builds(state), rng, log=log, identical=state.game.identical).run()


def fight_logged(state: LaplaplaceState, rng: Rng) -> tuple[Outcome, list[str], list[str]]:
    """:func:`fight` with its log and its summary (the key lines: reveal, one line per turn, result)."""
    log: list[str] = []
    battle = Battle(battle_builds(state), rng, log=log, identical=state.game.identical)
    outcome = battle.run()
    return outcome, log, battle.summary or []


def fight_when_ready(state: LaplaplaceState) -> None:
    """Once both builds are complete, reveal them and run the whole battle."""
    if not (state.done[0] and state.done[1]) or state.outcome is not None:
        return
    state.battle_rng = state.rng.state
    state.outcome = fight(state, state.rng, None)
