"""The decks the balance report deals (``Game.report_setup``) and each card's data for its "what changed" block
(``Game.entry_data``).

**Decks.** With fixed decks (seat 0 Beast Horde, seat 1 Arcane Order) every card belongs to one deck and one seat,
so a card's strength cannot be told from its deck's or its seat's. The report therefore deals each seat of each
game a deck of its own, each seat drawn apart (a mirror match is possible), in equal shares:

- a starter deck as it is (``horde``, ``arcana``, ``vanguard``): the decks people bring;
- a one-card swap of a starter: every copy of one of its cards replaced by as many copies of a card of the pool
  it does not hold (``horde-goblin+ember_imp``, "horde, Goblin swapped for Ember Imp"), one of :data:`SWAPS` per
  starter drawn once from :data:`POPULATION_SEED` and the pool's card ids;
- a random legal deck drawn from the pool for this game (30 of the pool's cards, at most 2 copies of each:
  ``cards:goblin,goblin,slime,...``), labelled "a random deck from the pool". These decks put every card beside
  every other: without them a starter's cards always come together, and the model could not tell the Goblin's
  effect from its Slimes'. They share one label, so that the report's terms for the decks stay few and each is
  played often.

Nothing depends on the card data, only on the pool's card ids: a variant of the card file that changes numbers
deals the same decks as the baseline (the report's common random numbers). Every deck is checked as a deck file
is (30 cards, at most 2 copies); a starter that a user's pool cannot build is left out.

The decks vary only while the game's options keep the default decks (``deck0=horde``, ``deck1=arcana``): a
designer who names the decks gets those decks in every game.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

from cardarena.engine import CardDataError, Rng, Setup, derive_seed

from .cards import INLINE, STARTERS, Card, load_deck
from .constants import DECK_SIZE, MAX_COPIES

if TYPE_CHECKING:
    from .game import DiceBattleGame

SWAPS = 6  # one-card swaps of each starter in the population
POPULATION_SEED = 0xD1CEDEC  # the swaps are drawn once from this and the pool's card ids
DEFAULT_DECKS = ("horde", "arcana")  # deck0, deck1 of the game's options: while they are kept, the decks vary
RANDOM_LABEL = "a random deck from the pool"


def population(pool: list[Card]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The starters and their swaps, each as ``(deck option value, label)``: a swap takes a card the deck holds
    (chosen among its cards without repeating) for a card of the pool it does not hold. Only legal decks are
    kept."""
    ids = sorted(c.id for c in pool)
    name = {c.id: c.name for c in pool}
    rng = Rng(derive_seed(POPULATION_SEED, zlib.crc32(",".join(ids).encode())))
    starters: list[tuple[str, str]] = []
    swaps: list[tuple[str, str]] = []
    for starter in STARTERS:
        try:
            deck = load_deck(starter, pool)
        except CardDataError:
            continue  # a user's pool without one of this starter's cards: the starter is not dealt
        starters.append((starter, starter))
        held = sorted({pool[i].id for i in deck.cards})
        ins = [i for i in ids if i not in held]
        rng.shuffle(held)
        for card_out in held[:SWAPS]:
            if not ins:
                break
            card_in = rng.choice(ins)
            spec = f"{starter}-{card_out}+{card_in}"
            try:
                load_deck(spec, pool)
            except CardDataError:
                continue
            swaps.append((spec, f"{starter}, {name[card_out]} swapped for {name[card_in]}"))
    return starters, swaps


def random_deck(pool: list[Card], rng: Rng) -> str:
    """A random legal deck as an option value: 30 cards drawn from two copies of every card of the pool."""
    copies = [c.id for c in pool for _ in range(MAX_COPIES)]
    rng.shuffle(copies)
    return INLINE + ",".join(sorted(copies[:DECK_SIZE]))


def deck_for(game: DiceBattleGame, rng: Rng) -> tuple[str, str]:
    """One seat's deck: ``(deck option value, label)``, a starter, a swap or a random deck in equal shares."""
    starters, swaps = game.report_population()
    draw = rng.randbelow(3)
    if draw == 0 and starters:
        return rng.choice(starters)
    if draw == 1 and swaps:
        return rng.choice(swaps)
    return random_deck(list(game.tables.cards), rng), RANDOM_LABEL


def report_setup(game: DiceBattleGame, seed: int) -> Setup | None:
    """Each seat's deck for one report game, drawn from ``seed``; ``None`` when the options name other decks
    than the defaults."""
    if (game.options["deck0"], game.options["deck1"]) != DEFAULT_DECKS:
        return None
    rng = Rng(seed)
    chosen = [deck_for(game, rng) for _ in (0, 1)]
    return Setup(
        options=(("deck0", chosen[0][0]), ("deck1", chosen[1][0])),
        seats=(chosen[0][1], chosen[1][1]),
        kind="deck",
    )


def entry_data(game: DiceBattleGame) -> dict[tuple[str, str], str]:
    """Each card's data as one line (name, kind, level, effect, special rule: what the rules read; not its
    ``text``, a note for people) and each grant's (its level and effect) apart, so that a changed grant is the
    grant's entry only. Operations, items and rules are the rulebook's, not the card file's: they have no data
    here."""
    out: dict[tuple[str, str], str] = {}
    for c in game.tables.cards:
        parts = [f"{c.name}: {c.kind} Lv{c.level}"]
        parts.append(f"effect {c.effect.text}" if c.effect is not None else "no effect")
        if c.special is not None:
            parts.append(f"special {c.special}")
        out[("card", c.id)] = "; ".join(parts)
        if c.grant is not None:
            out[("grant", c.id)] = f"{c.name}'s grant: Lv{c.grant_level} {c.grant.text}"
    return out
