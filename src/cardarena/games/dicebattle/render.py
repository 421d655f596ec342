"""Text for people: the picture of a position, action descriptions, what others see of an action, the card pool."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardarena.engine import Action

from .cards import CONDITIONS, OPERATIONS, SPECIALS
from .constants import CHOICE, DICE, KIND_MONSTER, ORDER, OVER, PENALTY, REVIVE, STOCK
from .rules.levels import spent, unit_level
from .rules.turns import in_battle
from .views import event_text, events, hidden_set

if TYPE_CHECKING:
    from .game import DiceBattleGame
    from .state import DiceBattleState, Side


def card_line(st: DiceBattleState, c: int) -> str:
    card = st.game.tables.cards[c]
    return card.summary()


def _zone(st: DiceBattleState, side: Side, hidden: bool) -> str:
    t = st.game.tables
    name = t.name
    if side.token:
        main = "dice token (Lv1)"
    elif hidden and side.main:
        main = f"{len(side.main)} face-down card(s)"
    elif side.main:
        # モンスター: the highest-level monster is the main unit; its level is the sum.
        unit = max(side.main, key=lambda c: t.level[c])
        total = sum(t.level[c] for c in side.main) if t.kind[unit] == KIND_MONSTER else t.level[unit]
        main = " + ".join(name(c) for c in side.main) + f" (main unit {name(unit)}, Lv{total})"
    else:
        main = "-"
    text = f"main: {main}"
    if side.circle:
        text += (
            f" | magic circle: {len(side.circle)} face-down"
            if hidden
            else (" | magic circle: " + ", ".join(name(c) for c in side.circle))
        )
    if side.grant >= 0:
        text += " | new grant: face down" if hidden else f" | new grant: {name(side.grant)}"
    if side.stock:
        text += " | stock: " + ", ".join(name(c) for c in side.stock)
    return text


def render(st: DiceBattleState, seat: int | None) -> str:
    t = st.game.tables
    cap = st.game.options["max_turns"]
    lines = [f"Dice Battle Monsters — round {st.round}/{cap}, first player: seat {st.first}"]
    battling = in_battle(st)
    for s, side in enumerate(st.sides):
        you = " (you)" if s == seat else ""
        marks = f"Miracle {'up' if side.miracle else 'used'}, Revival {'up' if side.revival else 'used'}"
        roll = f"die {side.roll}" if side.roll else "die -"
        lines.append(
            f"seat {s}{you}: stars {'★' * side.stars}{'☆' * max(0, 3 - side.stars)} | {roll} | {marks} | "
            f"hand {len(side.hand)}, deck {len(side.deck)}, graveyard {len(side.grave)}"
        )
        hidden = hidden_set(st, s) and seat != s
        lines.append("  " + _zone(st, side, hidden))
        if battling:
            lines.append(
                f"  battle level now: {unit_level(st, s)}" + (" (effects cancelled)" if side.cancelled else "")
            )
    if seat is not None:
        side = st.sides[seat]
        lines.append(f"your hand ({len(side.hand)}):")
        for c in sorted(side.hand, key=lambda c: (t.kind[c], t.level[c], c)):
            lines.append("  - " + card_line(st, c))
    if st.queue and battling:
        queue = ", ".join(f"{t.name(c)}{' grant' if z == STOCK else ''} (seat {o}, Lv{lv})" for lv, o, c, z in st.queue)
        lines.append(f"effects still to resolve: {queue}")
    if st.phase == REVIVE:
        used = ", ".join(t.name(c) for c in st.sides[st.actor].used)
        lines.append(f"cards seat {st.actor} used in the battle (now in the graveyard): {used}")
    lines.append("recent events:")
    lines.extend("  " + event_text(st, e) for e in events(st, 10))
    lines.append(_waiting_text(st, seat))
    return "\n".join(lines)


def _waiting_text(st: DiceBattleState, seat: int | None) -> str:
    if st.phase == OVER:
        if st.winner is None:
            return "Game over: a draw."
        return f"Game over: seat {st.winner} wins."
    who = "you" if st.actor == seat else f"seat {st.actor}"
    if st.phase == DICE:
        side = st.sides[st.actor]
        if st.actor != seat:
            # What is left of the die would tell the levels of the cards already set face down.
            return f"Waiting on {who}: set cards for die {side.roll}."
        room = side.roll - spent(st.game.tables, side)
        return f"Waiting on {who}: set cards for die {side.roll} ({room} left to use)."
    if st.phase == ORDER:
        return f"Waiting on {who}: choose which tied effect resolves first."
    if st.phase == CHOICE:
        assert st.current is not None
        return f"Waiting on {who}: use the choice effect of {st.game.tables.name(st.current[2])} or not."
    if st.phase == PENALTY:
        return (
            f"Waiting on {who}: seat {1 - st.actor}'s deck ran out and its graveyard became its deck; "
            f"draw 1 card as the penalty ('draw') or not ('decline')."
        )
    assert st.phase == REVIVE
    return f"Waiting on {who}: turn Revival face down to take back a card used in the battle, or pass."


_DESCRIBE = {
    "miracle": "turn Miracle face down and reroll the die",
    "done": "finish setting",
    "redraw": "nothing can be set: show the hand, shuffle it into the deck and draw as many",
    "token": "set the dice token (Lv1, no effect)",
    "pass": "keep Revival face up",
    "draw": "draw 1 card from the top of the deck: the penalty for the opponent's empty deck",
    "decline": "decline the penalty draw (draw nothing)",
}


def describe_action(st: DiceBattleState, action: Action) -> str:
    kind = action[0]
    if kind in _DESCRIBE:
        return _DESCRIBE[kind]
    c = st.game.tables.by_id[action[1]]
    line = card_line(st, c)
    if kind == "set":
        return f"set in the main zone: {line}"
    if kind == "magic":
        return f"set in the magic circle: {line}"
    if kind == "grant":
        return f"set as a grant (付与) in the stock zone: {line}"
    if kind == "use":
        return f"use the effect of {st.game.tables.name(c)}"
    if kind == "skip":
        return f"do not use the effect of {st.game.tables.name(c)}"
    if kind == "first":
        return f"resolve {st.game.tables.name(c)}'s effect next"
    return f"turn Revival face down and take back {st.game.tables.name(c)}"


def action_seen_by(st: DiceBattleState, action: Action, seat: int | None) -> str:
    """Cards set face down are not named to the other seats."""
    kind = action[0]
    if seat != st.actor and kind in ("set", "magic", "grant"):
        zone = {"set": "the main zone", "magic": "the magic circle", "grant": "the stock zone"}[kind]
        return f"sets a card face down in {zone}"
    return describe_action(st, action)


def pool_text(game: DiceBattleGame) -> str:
    """The card pool, the effect language and the starter decks, generated from the data files."""
    t = game.tables
    lines = ["## Card pool (data/cards.toml; assumed = true: the project's own cards)", ""]
    for c in t.cards:
        lines.append(f"- {c.summary()}")
    lines += ["", "## Effect language", "", "Conditions (`when`):"]
    lines += [f"- `{w}{' N' if n else ''}`: {txt.format(n='N') or 'always'}" for w, (n, txt) in CONDITIONS.items()]
    lines.append("Operations (`do`):")
    lines += [f"- `{w}{' N' if n else ''}`: {_op_doc(txt)}" for w, (n, txt) in OPERATIONS.items()]
    lines += ["Special rules (異例, `special`):"]
    lines += [f"- `{k}`: {v}" for k, v in SPECIALS.items()]
    lines += ["", "## Loaded decks", ""]
    for seat, deck in enumerate(game.decks):
        lines.append(f"- seat {seat}: {deck.name} ({deck.source}): {deck.plan}")
    return "\n".join(lines) + "\n"


def _op_doc(text: str) -> str:
    return text.replace("{n:+d}", "+N").replace("{n}", "N")
