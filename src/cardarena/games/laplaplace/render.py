"""Text for people: a Laplaplace state as a seat may see it (panels of the table, the plain picture with the
battle log), actions, their menu groups, and what a seat learns from each action (narrate).

Everything here reads ``state.observation(seat)`` (and the public card list) only, so it never shows a card the
seat may not see: the other seat's build stays hidden until both are complete (in the blind scene even its size),
and the other seat's open cards until both have shown 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardarena.engine import Action, CardText, Panel

from .constants import ACTION, ADD, BUILD, CONST, EVENT, MAX_CARDS, OPEN_CARDS, SHOW, Phase, Scene
from .state import LaplaplaceState

if TYPE_CHECKING:
    from .cards import Ability, CardDef, CardTable

BACK = "[?]"  # a card the seat may not see


# -- the menu ----------------------------------------------------------------------------------------------------
def choice_label(card: CardDef | None) -> tuple[str, str]:
    """``(group, detail)``: the cards grouped by category (``damage cards``), ``done`` alone; the detail is the
    card's name, number, force and English text, so a group lists what its cards do."""
    if card is None:
        return "done", ""
    return f"{card.category} cards", f"{card.stats()} {card.text_en or card.text}"


# -- the table ---------------------------------------------------------------------------------------------------
def _who(s: int, seat: int | None) -> str:
    return f"you (P{s})" if s == seat else f"P{s}"


def _names(table: CardTable, ids: list[str]) -> str:
    """Card ids (as observations give them) as names."""
    names = []
    for cid in ids:
        card = table.find(cid)
        assert card is not None, cid
        names.append(card.name)
    return ", ".join(names)


def _card_lines(table: CardTable, ids: list[str], *, numbered: bool) -> list[str]:
    lines = []
    for k, cid in enumerate(ids, 1):
        card = table.find(cid)
        assert card is not None
        text = f"{card.stats()} {card.text_en or card.text}"
        lines.append(f"{k}. {text}" if numbered else text)
    return lines


def board(state: LaplaplaceState, seat: int | None) -> list[Panel]:
    """The table as ``seat`` sees it: the seat's own build (or both once revealed), the other's hidden build as a
    back, the open cards (open scene), whose decision it is, and the result once the battle is over."""
    obs = state.observation(seat)
    table = state.game.table
    over = "result" in obs
    panels = []
    order = (0, 1) if seat is None else (seat, 1 - seat)
    for s in order:
        view = obs["seats"][s]
        title = f"Build of {_who(s, seat)}, top first"
        if "build" in view:
            cards = view["build"]
            lines = _card_lines(table, cards, numbered=True) or ["(no cards)"]
            lines.append(f"{len(cards)}/{MAX_CARDS} places, base HP {view['base_hp']}")
            if s == seat and not over and not obs["done"][s] and obs["scene"] == Scene.OPEN:
                rest = state.open_remaining(s)
                if rest:
                    names = ", ".join(table.cards[i].name for i in rest)
                    lines.append(f"open cards still to place: {names}")
        else:
            status = "complete" if obs["done"][s] else "not complete yet"
            size = "its cards" if obs["scene"] == Scene.OPEN else "its cards and their number"
            lines = [f"{BACK} hidden: {size} are shown when both builds are complete", f"build {status}"]
        panels.append(Panel(title, tuple(lines), seat=s, key=f"build{s}"))
    if obs["scene"] == Scene.OPEN:
        lines = []
        for s in order:
            shown = obs["seats"][s]["open"]
            if shown is None:
                lines.append(f"{_who(s, seat)}: {BACK} hidden until both have shown {OPEN_CARDS}")
            else:
                names = _names(table, shown)
                lines.append(f"{_who(s, seat)}: {names or 'none yet'}")
        panels.append(Panel("Open cards", tuple(lines), key="open"))
    panels.append(Panel("Now", tuple(_now_lines(obs, seat)), key="now"))
    return panels


def _now_lines(obs: dict[str, Any], seat: int | None) -> list[str]:
    to_act = obs["to_act"]
    if "result" in obs:
        r = obs["result"]
        winner = "a draw" if r["winner"] is None else f"{_who(r['winner'], seat)} wins"
        return [
            f"Battle over after {r['turns']} turn(s): {winner}",
            r["reason"],
            f"HP (base HP): P0 {r['hp'][0]} ({r['base_hp'][0]}), P1 {r['hp'][1]} ({r['base_hp'][1]})",
        ]
    if to_act != seat:
        return [f"P{to_act} is building" if obs["phase"] == Phase.BUILD else f"P{to_act} is showing open cards"]
    mine = obs["seats"][seat]
    if obs["phase"] == Phase.SHOW:
        k = len(mine["open"] or [])
        return [f"Your turn: show open card {k + 1} of {OPEN_CARDS} (the other sees them once both have shown 4)"]
    place = len(mine["build"]) + 1
    if obs["scene"] == Scene.OPEN:
        return [f"Your turn: add the card for place {place} of {MAX_CARDS} (your open cards must all be placed)"]
    return [f"Your turn: add the card for place {place} of {MAX_CARDS} (top first), or 'done' to stop here"]


def render(state: LaplaplaceState, seat: int | None) -> str:
    """The plain picture: the board's panels, then, once the battle is over, its summary and its full log."""
    head = f"Laplaplace — scene {state.game.scene.value}" + (f", you are P{seat}" if seat is not None else "")
    lines = [head]
    for p in board(state, seat):
        lines.append(f"  {p.title}:")
        lines.extend(f"    {line}" for line in p.lines)
    obs_log = state.observation(seat).get("log")
    if obs_log:
        lines.append("")
        lines.append("Battle summary:")
        lines.extend(state.summary)  # public once the battle is fought, as the log is
        lines.append("")
        lines.append("Battle log:")
        lines.extend(obs_log)
    return "\n".join(lines)


# -- actions -----------------------------------------------------------------------------------------------------
def describe_action(card: CardDef | None, action: Action) -> str:
    """``card`` is the action's card (``None`` for ``done``)."""
    if card is None:
        return "done: the build is complete"
    verb = "show" if action[0] == SHOW else "add"
    return f"{verb} {card.summary()}"


def action_seen_by(state: LaplaplaceState, action: Action, seat: int | None, described: str) -> str:
    """Another seat sees that a card was shown or a build finished, never which card or how many added.

    A build finishes either with ``done`` or with the ``add`` of its eighth card; both look the same to the
    other seats ("finishes its build"), so the way it finished does not tell them whether it is full. Every
    other ``add`` is not seen at all: not even the number of cards added may show. The action that makes the
    reveal (the last open card shown, the last build finished) is seen in full, since what it chose is shown
    to everyone at once. ``described`` is the action in full.
    """
    actor = state.current_player
    if seat is not None and seat == actor:
        return described
    assert actor is not None
    if action[0] == SHOW:
        if actor == 1 and len(state.shown[1]) == OPEN_CARDS - 1:
            return described  # both sets of open cards are revealed now
        return "picks an open card (shown once both have picked 4)"
    if action[0] == ADD and len(state.builds[actor]) < MAX_CARDS - 1:
        return ""
    if state.done[1 - actor]:
        return described  # both builds are complete: the battle reveals them
    return "finishes its build"


def narrate(before: LaplaplaceState, action: Action, after: LaplaplaceState, seat: int | None, seen: str) -> list[str]:
    """What ``seat`` learns from ``action`` (``seen`` is its :func:`action_seen_by` line): the action, then its
    outcomes: the seat's own build or open cards so far, the open cards of both once revealed, and once both
    builds are complete the battle: both builds, a summary (the reveal, one line per turn with the damage, HP
    and key events, the judgement, the result and why) and then the full log, line by line."""
    if not seen:
        return []
    lines = [seen]
    actor = before.current_player
    table = after.game.table
    obs = after.observation(seat)
    if actor == seat and seat is not None and after.outcome is None:
        mine = obs["seats"][seat]
        if action[0] == SHOW:
            lines.append("your open cards so far: " + _names(table, mine["open"]))
        else:
            names = _names(table, mine["build"]) or "no cards"
            state = "complete" if obs["done"][seat] else "so far"
            lines.append(
                f"your build {state} (top first): {names} ({len(mine['build'])}/{MAX_CARDS}, base HP {mine['base_hp']})"
            )
    if action[0] == SHOW and len(before.shown[1]) < OPEN_CARDS <= len(after.shown[1]):
        for s in (0, 1):
            names = ", ".join(table.cards[i].name for i in after.shown[s])
            lines.append(f"open cards revealed: P{s} shows {names}")
    if before.outcome is None and after.outcome is not None:
        lines.append("both builds are complete: they are revealed and the battle runs by itself")
        lines.extend(f"battle: {line}" for line in after.summary)
        log = obs.get("log", [])
        lines.append(f"full battle log ({len(log)} lines):")
        lines.extend(f"| {line}" for line in log)
    return lines


def cards_text(table: CardTable) -> str:
    """The card list for the rules text: English and the rulebook's Japanese."""
    lines = ["", "## Cards (from the data file; names, numbers, forces and categories are assumed)", ""]
    for c in table.cards:
        lines.append(f"- `{c.id}` {c.stats()}: {c.text_en or c.text}")
        if c.text_en:
            lines.append(f"    - 原文: {c.text}")
        for a in c.abilities:
            lines.append(f"    - `{a.text}`")
    return "\n".join(lines) + "\n"


# -- the card viewer ---------------------------------------------------------------------------------------------
def card_texts(table: CardTable) -> dict[str, CardText]:
    """What each card of ``table`` says, for the browser's card viewer, keyed by card id (the name observations
    and action texts use): its name, number, force and kind, its text (English where the card list has it, then
    the rulebook's original), and its notation explained in words, read from its parsed abilities, so a designer's
    card file is explained as it is written."""
    return {c.id: _card_text(c) for c in table.cards}


def _card_text(card: CardDef) -> CardText:
    english = bool(card.text_en)
    text = [part.strip() for part in (card.text_en or card.text).split(" / ") if part.strip()]
    if english and card.text:
        text.append(f"Rulebook (原文): {card.text}")  # the table's tiles leave it to the viewer (laplaplace.js)
    notes = [
        f"Force {card.force}: this card's HP and speed; it adds {card.force} to your base HP, which is your HP at "
        "the start of the battle and your speed (the faster side goes first each turn).",
        f"Number {card.number}, kind {card.category}: Sight prefers the number, Scope the kind, of the card right "
        "above them when they pick targets.",
    ]
    for ability in card.abilities:
        notes.extend(n for n in _ability_notes(ability, english=english) if n not in notes)
    return CardText(
        name=card.name,
        text=tuple(text),
        kind=f"{card.number} · force {card.force} · {card.category}",
        notes=tuple(notes),
    )


def _ability_notes(ab: Ability, *, english: bool) -> list[str]:
    """The notation of one ability in words, each marker written as the card's shown text writes it."""

    def mark(en: str, ja: str) -> str:
        return en if english else ja

    notes = []
    if ab.timing == ACTION:
        notes.append(
            "<A> action: it fires in your action phase while this card is up and its conditions hold; your "
            "topmost card that can fire fires first, again and again until none can."
        )
    elif ab.timing == EVENT:
        notes.append(
            "<E: …> event: it fires by itself whenever what follows the colon happens, in either side's phase, "
            "while this card is up."
        )
    elif ab.timing == BUILD:
        notes.append(f"{mark('<Build>', '<ビルド>')}: works once, when the battle starts.")
    elif ab.timing == CONST:
        notes.append(f"{mark('<Always>', '<常態>')}: holds all the time while this card is in play.")
    if ab.top:
        notes.append(f"{mark('<Top>', '<トップ>')}: fires only while this card is the top card of its column.")
    if ab.limits:
        notes.append("<L: …> condition: the ability fires only while what follows the colon holds.")
    if ab.timing in (ACTION, EVENT):
        if ab.remove:
            notes.append(
                f"{mark('[Remove]', '[除去]')}: when it fires this card is removed from the game instead of turned "
                "down (its force leaves your base HP)."
            )
        elif ab.downless:
            notes.append(f"{mark('[Downless]', '[ダウンレス]')}: this card stays up when it fires.")
        else:
            notes.append(
                "Up and down: firing turns this card down (marked 'down' on the table); a down card cannot fire "
                "until the up phase at the end of the turn turns it up again."
            )
    if ab.unblockable:
        notes.append(f"{mark('[Unblockable]', '[迎撃不可]')}: no enemy event may answer or change its damage.")
    for e in ab.effects:
        if e.op == "damage" and e.args[2] > 1:
            notes.append(
                f"{e.args[2]} times: {e.args[2]} separate hits of {e.args[1]}; each is reduced, increased or "
                "reflected on its own."
            )
        if e.op == "no_up_phase":
            notes.append("Not upped in the up phase: once down, this card stays down unless an effect ups it.")
    return notes
