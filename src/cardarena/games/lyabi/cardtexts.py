"""What each Lyabi card says, in words, for the browser's card viewer (``Game.card_texts``).

Built from the card data in use (``data/cards.toml`` or the designer's own file), so a designer's costs,
multipliers, ATK and item effects show as they are. Public rules data only: the same for every seat.

Keys are the names the observation and the action texts use: a ryabi ``blue5``, a magic circle ``blue5 circle``
(the observation's field says ``blue5``: a circle shares its name with the ryabi of its colour and level, so the
table looks circles up with `` circle`` added), an item by its id (``crystal``), and ``dummy``.
"""

from __future__ import annotations

from ...engine import CardText
from .cards import CardSet
from .constants import BEATS, COLOURS, ITEM_IDS

TRIANGLE_NOTE = "the colour triangle: blue beats red, red beats green, green beats blue; the same colour is a tie"
ATK_NOTE = "ATK: the circle's attack, multiplied by the winning ryabi's multiplier (×)"


def _times(value: float) -> str:
    return f"×{value:g}"


def _beaten_by(ci: int) -> int:
    """The colour that beats colour ``ci``."""
    return BEATS.index(ci)


def ryabi_texts(c: CardSet) -> dict[str, CardText]:
    """Every ryabi kind, by its name."""
    out: dict[str, CardText] = {}
    for k, name in enumerate(c.r_names):
        ci = c.r_colour[k]
        colour = COLOURS[ci]
        times = _times(float(c.r_times[k]))
        text = (
            f"Pay with it: it counts {c.r_cost[k]} toward a purchase (a ryabi, a magic circle or an item). Or "
            "split it: pay it alone for one or two cheaper ryabi (never two of the same cost).",
            f"Set it in a battle: {colour} beats {COLOURS[BEATS[ci]]} and loses to {COLOURS[_beaten_by(ci)]}. "
            f"If you win, each of your {colour} circles deals its ATK {times}, rounded down.",
            f"Set with a second {colour} ryabi (a double charge), both multipliers apply. A ryabi set in a battle "
            "is removed from the game afterwards.",
        )
        notes = (
            f"{name}: a {colour} ryabi of level {c.r_level[k]} (a ryabi is named by its colour and level)",
            f"{times}: its damage multiplier",
            TRIANGLE_NOTE,
        )
        out[name] = CardText(name, text, str(c.r_cost[k]), f"{colour} ryabi · level {c.r_level[k]}", notes)
    return out


def circle_texts(c: CardSet) -> dict[str, CardText]:
    """Every magic circle kind, as ``NAME circle``."""
    out: dict[str, CardText] = {}
    setup = c.levels[0]
    for k, name in enumerate(c.c_names):
        colour = COLOURS[c.c_colour[k]]
        level = c.c_level[k]
        cost = c.level_cost[c.c_level_index[k]]
        text = [
            f"ATK {c.c_atk[k]}. When you win a battle with a {colour} ryabi, it deals ATK × the ryabi's multiplier "
            f"(× the second ryabi's, for a double charge), rounded down, to the opponent.",
            f"Place it: pay {cost} for the top card of the face-down Lv{level} pile; its colour shows when it is "
            f"placed. A field holds at most {c.max_circles} circles.",
        ]
        if level == setup:
            text.append("Each player starts with one circle of this level, drawn at random.")
        notes = (f"{name}: a {colour} circle of level {level}", ATK_NOTE)
        out[f"{name} circle"] = CardText(
            f"{name} circle", tuple(text), str(cost), f"magic circle · {colour} · Lv{level}", notes
        )
    return out


def item_texts(c: CardSet) -> dict[str, CardText]:
    """Every item, by its id."""
    out: dict[str, CardText] = {}
    for spec in c.items:
        auto = spec.timing.startswith("auto")  # "auto on acquisition": it resolves when taken
        when = "When you take it (at once)" if auto else spec.timing[:1].upper() + spec.timing[1:]
        text = (
            f"{when}: {spec.effect}.",
            "Used once, then removed from the game. Taking an item while you hold one removes the one you held.",
        )
        notes = (
            f"Items are bought from the face-down item pile for ryabi worth {c.item_cost} or more; "
            "you see which one you took, the opponent does not until it is used.",
        )
        out[spec.id] = CardText(spec.name, text, f"{c.item_cost}+", "item", notes)
    assert set(out) == set(ITEM_IDS)
    return out


def dummy_text() -> CardText:
    """The dummy (1_1: a battling player takes it into hand)."""
    return CardText(
        "the dummy",
        (
            "Every player who battles takes the dummy into hand. Set it instead of ryabi to sit the battle out: "
            "you lose no card, but any ryabi the opponent sets beats it.",
        ),
        None,
        "battle",
    )


def card_texts(c: CardSet) -> dict[str, CardText]:
    """Every ryabi, magic circle and item of the card set ``c``, and the dummy."""
    return {**ryabi_texts(c), **circle_texts(c), **item_texts(c), "dummy": dummy_text()}
