"""What each seat may see (observation, default deny) and the text a person reads (render, action texts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardarena.engine import Action

from .actions import KIND_HUMAN, KIND_MONSTER
from .cards import SPECIALS
from .constants import CHOICE, DICE, ORDER, OVER, PENALTY, PHASE_NAMES, REVIVE, STOCK, ZONE_NAMES
from .effects import CONDITIONS, OPERATIONS
from .rules.battle import order_group

if TYPE_CHECKING:
    from .game import DiceBattleGame
    from .state import DiceBattleState, Side

KIND_WORDS = {KIND_HUMAN: "human", KIND_MONSTER: "monster", -1: "dice token"}


def _hidden_set(st: DiceBattleState, seat: int) -> bool:
    """The cards ``seat`` set this round are still face down (the dice phase is not over)."""
    setter = st.setter()
    return setter >= 0 and (setter == seat or (seat == st.first and setter != st.first))


def waiting(st: DiceBattleState) -> dict[str, Any]:
    """What the game waits on, public facts only."""
    if st.phase == OVER:
        return {"kind": "nothing", "seat": None}
    out: dict[str, Any] = {"kind": PHASE_NAMES[st.phase], "seat": st.actor}
    if st.phase == CHOICE:
        assert st.current is not None
        out["card"] = st.t.cards[st.current[2]].id
        out["zone"] = ZONE_NAMES[st.current[3]]
    if st.phase == ORDER:
        out["cards"] = sorted(st.t.cards[c].id for c in order_group(st))
    if st.phase == PENALTY:
        out["deck_out"] = 1 - st.actor  # whose deck ran out and was refilled from the graveyard
    return out


def observation(st: DiceBattleState, seat: int | None) -> dict[str, Any]:
    t = st.t
    players = []
    for s, side in enumerate(st.sides):
        hidden = _hidden_set(st, s) and seat != s
        p: dict[str, Any] = {
            "stars": side.stars,
            "miracle": side.miracle,
            "revival": side.revival,
            "hand_count": len(side.hand),
            "deck_count": len(side.deck),
            "graveyard": t.ids(side.grave),
            "stock": t.ids(side.stock),
            "roll": side.roll,
            "redraws": side.redraws,
            "token": side.token,
            "known_in_hand": t.ids(side.known),
            "used_last_battle": t.ids(side.used),
        }
        if hidden:
            p["main"] = len(side.main)
            p["circle"] = len(side.circle)
            p["grant"] = 1 if side.grant >= 0 else 0
        else:
            p["main"] = t.ids(side.main)
            p["circle"] = t.ids(side.circle)
            p["grant"] = t.cards[side.grant].id if side.grant >= 0 else None
        if seat == s:
            p["hand"] = t.ids(side.hand)
        if st.in_battle():
            p["level"] = st.unit_level(s)
            p["cancelled"] = side.cancelled
            p["tie_win"] = side.tie_win
        players.append(p)
    obs: dict[str, Any] = {
        "seat": seat,
        "round": st.round,
        "first": st.first,
        "phase": PHASE_NAMES[st.phase],
        "waiting": waiting(st),
        "players": players,
        "queue": [[lv, o, t.cards[c].id, ZONE_NAMES[z]] for lv, o, c, z in st.queue],
        "events": [event_text(st, e) for e in st.events(12)],
        "result": st.returns() if st.phase == OVER else None,
    }
    return obs


def event_text(st: DiceBattleState, e: tuple[Any, ...]) -> str:
    """One public event in words."""
    name = st.t.name
    kind = e[0]
    if kind == "first":
        return f"seed coin: seat {e[1]} goes first"
    if kind == "round":
        return f"-- round {e[1]}: seat {e[2]} is first --"
    if kind == "roll":
        return f"seat {e[1]} rolls {e[2]}"
    if kind == "miracle":
        return f"seat {e[1]} turns Miracle face down and rerolls: {e[2]}"
    if kind == "redraw":
        shown = ", ".join(name(c) for c in e[2]) or "nothing"
        return f"seat {e[1]} can set nothing: shows the hand ({shown}), shuffles it in and redraws"
    if kind == "token":
        return f"seat {e[1]} sets the dice token (Lv1)"
    if kind == "reveal":
        _, seat, main, circle, grant, token = e
        parts = ["dice token" if token else " + ".join(name(c) for c in main)]
        if circle:
            parts.append("magic: " + ", ".join(name(c) for c in circle))
        if grant >= 0:
            parts.append(f"grant: {name(grant)}")
        return f"seat {seat} reveals " + "; ".join(parts)
    if kind == "effect":
        where = " (grant)" if e[3] == STOCK else ""
        return f"seat {e[1]}: {name(e[2])}{where} takes effect"
    if kind == "skip":
        return f"seat {e[1]} does not use {name(e[2])}"
    if kind == "discard":
        return f"seat {e[1]} discards {name(e[2])}"
    if kind == "mill":
        return f"{name(e[2])} goes from seat {e[1]}'s deck to the graveyard"
    if kind == "salvage":
        return f"seat {e[1]} returns {name(e[2])} from the graveyard to the hand"
    if kind == "stars":
        return f"seat {e[1]} now has {e[2]} star(s)"
    if kind == "battle":
        result = "a tie" if e[3] < 0 else f"seat {e[3]} wins"
        return f"battle: seat 0 level {e[1]} vs seat 1 level {e[2]}: {result}"
    if kind == "both_three":
        return "both players reached 3 stars at once: both go back to 2"
    if kind == "win":
        return f"seat {e[1]} has 3 stars and wins the game"
    if kind == "revive":
        return f"seat {e[1]} turns Revival face down and takes {name(e[2])} back to the hand"
    if kind == "reshuffle":
        return f"seat {e[1]}'s deck is empty: the graveyard ({e[2]} cards) becomes the deck"
    if kind == "penalty":
        if e[2]:
            return f"seat {e[1]} draws 1 card (the penalty for the opponent's empty deck)"
        return f"seat {e[1]} declines the penalty draw"
    if kind == "cap":
        return f"round {e[1]} was the last allowed (max_turns): the game is a draw"
    return " ".join(map(str, e))


def card_line(st: DiceBattleState, c: int) -> str:
    card = st.t.cards[c]
    return card.summary()


def _zone(st: DiceBattleState, side: Side, hidden: bool) -> str:
    name = st.t.name
    if side.token:
        main = "dice token (Lv1)"
    elif hidden and side.main:
        main = f"{len(side.main)} face-down card(s)"
    elif side.main:
        # モンスター: the highest-level monster is the main unit; its level is the sum.
        unit = max(side.main, key=lambda c: st.t.level[c])
        total = sum(st.t.level[c] for c in side.main) if st.t.kind[unit] == KIND_MONSTER else st.t.level[unit]
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
    t = st.t
    cap = st.game.options["max_turns"]
    lines = [f"Dice Battle Monsters — round {st.round}/{cap}, first player: seat {st.first}"]
    in_battle = st.in_battle()
    for s, side in enumerate(st.sides):
        you = " (you)" if s == seat else ""
        marks = f"Miracle {'up' if side.miracle else 'used'}, Revival {'up' if side.revival else 'used'}"
        roll = f"die {side.roll}" if side.roll else "die -"
        lines.append(
            f"seat {s}{you}: stars {'★' * side.stars}{'☆' * max(0, 3 - side.stars)} | {roll} | {marks} | "
            f"hand {len(side.hand)}, deck {len(side.deck)}, graveyard {len(side.grave)}"
        )
        hidden = _hidden_set(st, s) and seat != s
        lines.append("  " + _zone(st, side, hidden))
        if in_battle:
            lines.append(f"  battle level now: {st.unit_level(s)}" + (" (effects cancelled)" if side.cancelled else ""))
    if seat is not None:
        side = st.sides[seat]
        lines.append(f"your hand ({len(side.hand)}):")
        for c in sorted(side.hand, key=lambda c: (t.kind[c], t.level[c], c)):
            lines.append("  - " + card_line(st, c))
    if st.queue and in_battle:
        queue = ", ".join(f"{t.name(c)}{' grant' if z == STOCK else ''} (seat {o}, Lv{lv})" for lv, o, c, z in st.queue)
        lines.append(f"effects still to resolve: {queue}")
    if st.phase == REVIVE:
        used = ", ".join(t.name(c) for c in st.sides[st.actor].used)
        lines.append(f"cards seat {st.actor} used in the battle (now in the graveyard): {used}")
    lines.append("recent events:")
    lines.extend("  " + event_text(st, e) for e in st.events(10))
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
        room = side.roll - side.spent(st.t)
        return f"Waiting on {who}: set cards for die {side.roll} ({room} left to use)."
    if st.phase == ORDER:
        return f"Waiting on {who}: choose which tied effect resolves first."
    if st.phase == CHOICE:
        assert st.current is not None
        return f"Waiting on {who}: use the choice effect of {st.t.name(st.current[2])} or not."
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
    c = st.t.by_id[action[1]]
    line = card_line(st, c)
    if kind == "set":
        return f"set in the main zone: {line}"
    if kind == "magic":
        return f"set in the magic circle: {line}"
    if kind == "grant":
        return f"set as a grant (付与) in the stock zone: {line}"
    if kind == "use":
        return f"use the effect of {st.t.name(c)}"
    if kind == "skip":
        return f"do not use the effect of {st.t.name(c)}"
    if kind == "first":
        return f"resolve {st.t.name(c)}'s effect next"
    return f"turn Revival face down and take back {st.t.name(c)}"


def action_seen_by(st: DiceBattleState, action: Action, seat: int | None) -> str:
    """Cards set face down are not named to the other seats."""
    kind = action[0]
    if seat != st.actor and kind in ("set", "magic", "grant"):
        zone = {"set": "the main zone", "magic": "the magic circle", "grant": "the stock zone"}[kind]
        return f"sets a card face down in {zone}"
    return describe_action(st, action)


def why_illegal(st: DiceBattleState, action: Action) -> str:
    if st.phase == OVER:
        return "the game is over"
    kind = action[0]
    phase = PHASE_NAMES[st.phase]
    if st.phase == DICE:
        side = st.sides[st.actor]
        if kind in ("set", "magic", "grant"):
            c = st.t.by_id[action[1]]
            if c not in side.hand:
                return f"{st.t.name(c)} is not in your hand"
            return f"{st.t.name(c)} cannot be set there now (die {side.roll}, {side.spent(st.t)} already used)"
        if kind == "miracle":
            return "Miracle is used up or cards are already set"
        if kind == "done":
            return "you must set a unit in the main zone first"
    return f"'{kind}' is not possible now (waiting on seat {st.actor}: {phase})"


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
