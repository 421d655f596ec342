"""Text for people: the picture of a position, action descriptions, what others see of an action, the card pool."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, CardText, Panel

from .cards import CONDITIONS, HUMAN, MAGIC, MONSTER, OPERATIONS, SPECIALS, Card, operation_doc
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


def _zone(st: DiceBattleState, side: Side, hidden: bool) -> list[str]:
    """The seat's set cards, zone by zone: face-down ones as backs with their count."""
    t = st.game.tables
    name = t.name
    if side.token:
        main = "dice token (Lv1)"
    elif hidden and side.main:
        main = f"{BACK * len(side.main)} {len(side.main)} face-down card(s)"
    elif side.main:
        # モンスター: the highest-level monster is the main unit; its level is the sum.
        unit = max(side.main, key=lambda c: t.level[c])
        total = sum(t.level[c] for c in side.main) if t.kind[unit] == KIND_MONSTER else t.level[unit]
        main = " + ".join(name(c) for c in side.main) + f" (main unit {name(unit)}, Lv{total})"
    else:
        main = "-"
    lines = [f"main: {main}"]
    if side.circle:
        if hidden:
            lines.append(f"magic circle: {BACK * len(side.circle)} {len(side.circle)} face-down")
        else:
            lines.append("magic circle: " + ", ".join(name(c) for c in side.circle))
    if side.grant >= 0:
        lines.append(f"new grant: {BACK} face down" if hidden else f"new grant: {name(side.grant)}")
    if side.stock:
        lines.append("stock: " + ", ".join(name(c) for c in side.stock))
    return lines


BACK = "[?]"
GRAVE_SHOWN = 6  # graveyard cards named on the board (the newest); the count says how many there are
EVENTS_SHOWN = 8


def board(st: DiceBattleState, seat: int | None) -> list[Panel]:
    """The table as ``seat`` sees it: the round, each seat's zones (the opponent's hand and face-down cards as
    backs), the seat's own hand, the battle's queue of effects, the newest events."""
    t = st.game.tables
    cap = st.game.options["max_turns"]
    panels = [
        Panel(
            f"Dice Battle Monsters — round {st.round}/{cap}",
            (f"first player this round: seat {st.first}", _waiting_text(st, seat)),
            key="round",
        )
    ]
    battling = in_battle(st)
    for s, side in enumerate(st.sides):
        you = " (you)" if s == seat else ""
        marks = f"Miracle {'up' if side.miracle else 'used'}, Revival {'up' if side.revival else 'used'}"
        roll = f"die {side.roll}" if side.roll else "die -"
        lines = [f"stars {'★' * side.stars}{'☆' * max(0, 3 - side.stars)} | {roll} | {marks}"]
        if s == seat:
            lines.append(f"hand {len(side.hand)} (below), deck {len(side.deck)}")
        else:
            known = f" — known in it: {', '.join(t.name(c) for c in side.known)}" if side.known else ""
            lines.append(f"hand {BACK * len(side.hand)} {len(side.hand)}{known}, deck {len(side.deck)}")
        grave = ", ".join(t.name(c) for c in side.grave[-GRAVE_SHOWN:])
        more = "..., " if len(side.grave) > GRAVE_SHOWN else ""
        lines.append(f"graveyard {len(side.grave)}" + (f": {more}{grave}" if grave else ""))
        lines += _zone(st, side, hidden_set(st, s) and seat != s)
        if battling:
            lines.append(f"battle level now: {unit_level(st, s)}" + (" (effects cancelled)" if side.cancelled else ""))
        panels.append(Panel(f"seat {s}{you}", tuple(lines), seat=s, key=f"seat {s}"))
    if seat is not None:
        side = st.sides[seat]
        hand = sorted(side.hand, key=lambda c: (t.kind[c], t.level[c], c))
        panels.append(
            Panel(f"your hand ({len(side.hand)})", tuple(card_line(st, c) for c in hand), seat=seat, key="hand")
        )
    table: list[str] = []
    if st.queue and battling:
        table.append(
            "effects still to resolve: "
            + ", ".join(f"{t.name(c)}{' grant' if z == STOCK else ''} (seat {o}, Lv{lv})" for lv, o, c, z in st.queue)
        )
    if st.phase == REVIVE:
        used = ", ".join(t.name(c) for c in st.sides[st.actor].used)
        table.append(f"cards seat {st.actor} used in the battle (now in the graveyard): {used}")
    if table:
        panels.append(Panel("battle", tuple(table), key="battle"))
    panels.append(Panel("recent events", tuple(event_text(st, e) for e in events(st, EVENTS_SHOWN)), key="events"))
    return panels


def render(st: DiceBattleState, seat: int | None) -> str:
    """The board as plain text: each panel's title, then its lines indented; the last line says what the game
    waits on."""
    waiting = _waiting_text(st, seat)
    lines: list[str] = []
    for panel in board(st, seat):
        lines.append(panel.title)
        lines.extend("  " + line for line in panel.lines if line != waiting)
    lines.append(waiting)
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


_SET_ZONE = {"set": "the main zone", "magic": "the magic circle", "grant": "the stock zone"}


def action_seen_by(st: DiceBattleState, action: Action, seat: int | None) -> str:
    """Cards set face down are not named to the other seats; the setter reads the card's name and where it went
    (its text is the card's own, for the log: the menu's ``describe_action`` gives the whole card line)."""
    kind = action[0]
    if kind in _SET_ZONE:
        if seat != st.actor:
            return f"sets a card face down in {_SET_ZONE[kind]}"
        name = st.game.tables.name(st.game.tables.by_id[action[1]])
        return f"set {name} as a grant in the stock zone" if kind == "grant" else f"set {name} in {_SET_ZONE[kind]}"
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
    lines += [f"- `{w}{' N' if n else ''}`: {operation_doc(w)}" for w, (n, txt) in OPERATIONS.items()]
    lines += ["Special rules (異例, `special`):"]
    lines += [f"- `{k}`: {v}" for k, v in SPECIALS.items()]
    lines += ["", "## Loaded decks", ""]
    for seat, deck in enumerate(game.decks):
        lines.append(f"- seat {seat}: {deck.name} ({deck.source}): {deck.plan}")
    return "\n".join(lines) + "\n"


# -- what each card says, for the browser's card viewer (Game.card_texts)
_KIND_NOTE = {
    HUMAN: "Human: a unit of its own in the main zone; magic may be set beside it.",
    MONSTER: "Monster: monsters set together make one unit, the highest one the main unit, their levels added up.",
    MAGIC: "Magic: set in the magic circle beside a human; its level uses the die but does not add to the unit.",
}
_TYPE_NOTE = {
    "choice": "Choice: when it resolves, its owner decides whether to use it or skip it.",
    "forced": "Forced: it takes effect by itself when it resolves, if its condition holds.",
}
_GRANT_TYPE = {
    "choice": "fires when its owner uses it (skipped, it waits on)",
    "forced": "fires the first time its condition holds, then goes to the graveyard",
    "permanent": "fires in every battle where its condition holds and stays for good",
}


def _counted(text: str) -> str:
    """``"draw 1"`` -> ``"draw 1 card"``; ``"discards 2 card(s)"`` -> ``"discards 2 cards"``."""
    text = re.sub(r"\b(draws?) (\d+)\b(?! card)", r"\1 \2 card(s)", text)
    text = text.replace("the top 1 card(s) of the opponent's deck go ", "the top card of the opponent's deck goes ")
    text = re.sub(r"\b1 ((?:[\w-]+ )*?)(\w+)\(s\)", r"1 \1\2", text)
    return re.sub(r"(\w+)\(s\)", r"\1s", text)


def card_text(card: Card) -> CardText:
    """What ``card`` says, in words, from the card file: its effect (``Forced: if …, …``), its grant (``Grant Lv1:
    choice: …``) and its special rule (異例); ``notes`` explain the words these use (the level, the kind, choice,
    forced, the grant) and give the card's own remark from the file."""
    text = [_counted(f"{card.effect.text[0].upper()}{card.effect.text[1:]}.")] if card.effect else ["No effect."]
    notes = [
        f"Level {card.level}: setting it uses {card.level} of the die; a unit fights at its level in the battle.",
        _KIND_NOTE[card.kind],
    ]
    if card.effect is not None:
        notes.append(_TYPE_NOTE[card.effect.type])
    if card.grant is not None:
        text.append(_counted(f"Grant Lv{card.grant_level}: {card.grant.text}."))
        notes.append(
            f"Grant Lv{card.grant_level}: the card may instead be set as a grant, using {card.grant_level} of the "
            f"die; it waits in the stock zone and {_GRANT_TYPE[card.grant.type]}."
        )
    if card.special is not None:
        text.append(f"Special rule: {SPECIALS[card.special]}.")
        notes.append("Special rule (異例): a rule of its own for playing this card.")
    if card.text:
        notes.append(f"Card note: {card.text}")
    return CardText(
        name=card.name,
        text=tuple(text),
        cost=str(card.level),
        kind=f"{card.kind}, level {card.level}",
        notes=tuple(notes),
    )


def card_texts(game: DiceBattleGame) -> dict[str, CardText]:
    """Every card of the pool in use by its id (the name observations and actions use), with its text."""
    return {c.id: card_text(c) for c in game.tables.cards}


# -- the terminal's menu and narration
_WHERE = {"set": "set in the main zone", "magic": "set in the magic circle", "grant": "set as a grant (stock zone)"}


def choice_label(st: DiceBattleState, action: Action) -> tuple[str, str]:
    """Dice phase: one group per card of the hand (its name), the zones it may go to as the details (none when it
    fits one zone only); ``miracle``, ``done``, ``redraw``, ``token`` alone. Other decisions name their card in
    the group (``use Ember Imp``, ``first Goblin``, ``revive Ogre``) or are a word (``pass``, ``draw``)."""
    kind = action[0]
    if len(action) == 1:
        return str(kind), ""
    name = st.game.tables.name(st.game.tables.by_id[action[1]])
    if kind not in _WHERE:
        return f"{kind} {name}", ""
    shared = sum(1 for a in st.legal_actions() if len(a) > 1 and a[1] == action[1])
    return name, (_WHERE[kind] if shared > 1 else "")


def new_events(before: DiceBattleState, after: DiceBattleState) -> list[tuple[Any, ...]]:
    """The public events ``after`` logged since ``before`` (its log extends ``before``'s), oldest first."""
    added = _length(after.log) - _length(before.log)
    return events(after, added) if added > 0 else []


def _length(log: tuple[Any, ...]) -> int:
    n = 0
    while log:
        n += 1
        log = log[1]
    return n


def narrate(before: DiceBattleState, action: Action, after: DiceBattleState, seat: int | None) -> list[str]:
    """The action as ``seat`` sees it, then one line per public event it caused, in order: rolls, reveals with
    the units' levels, each effect with what it does (or why it does not resolve), level changes, draws (counts),
    discards, mills, salvages, stars, the battle's result, the end of the game; then the cards new in the seat's
    own hand. Face-down cards are never named before their reveal."""
    t = after.game.tables
    lines = [action_seen_by(before, action, seat)]
    for e in new_events(before, after):
        kind = e[0]
        if kind == action[0] and kind in ("token", "skip"):
            continue  # the action's own line says it
        text = event_text(after, e)
        if kind == "effect":
            eff = t.grant[e[2]] if e[3] == STOCK else t.effect[e[2]]
            if eff is not None:
                text += f": {_counted(eff.text)}"
        lines.append(text)
    if seat is not None:
        gained = Counter(after.sides[seat].hand) - Counter(before.sides[seat].hand)
        if gained:
            names = sorted(t.name(c) for c in gained.elements())
            lines.append("new in your hand: " + ", ".join(names))
    return lines
