"""The builds the balance report deals (``Game.report_setup``) and each card's data for its "what changed" block
(``Game.entry_data``).

**Builds.** Left to build, the heuristic agent makes one build, the same in both seats: every game of a default
report was an identical-build draw. The report therefore deals each seat of each game a build, each seat drawn
apart from a varied population (:func:`build_for`):

- one of the ten shipped example builds (``data/builds``), 3 times in 8: the builds people bring;
- a random legal build, half the time: 8 cards of the card list, top to bottom, any card any number of times, one
  of :data:`RANDOM_BUILDS` drawn once from :data:`POPULATION_SEED` and the card list's ids (not its numbers, so a
  variant of the card file that changes a force deals the same builds as the baseline: the report's common random
  numbers). They put every card in some builds and not in others (every shipped build holds Jab and Blank). They
  share one label, "a random build", so that the report's terms for the builds stay few and each is played often;
- the seat's agent builds (the blind scene), once in 8: what the agent would bring, so ``--agents`` still
  matters. Two agents' builds never meet (the heuristic makes one build: an identical-build draw). Not more often:
  the heuristic's own build beats the shipped and random builds in 97% of the games, which then say little about
  the cards.

Two dealt builds battle in the league scene (``build=league``, ``build0``, ``build1``; an inline build is
``build0=cards:jab,edge,...``); one dealt build and one agent's, in the blind scene with that one build fixed.
The builds vary only while the options leave the building to the agents (the blind scene, no ``build0`` or
``build1``): a designer who names builds or another scene gets those in every game.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

from cardarena.engine import CardDataError, Rng, Setup, derive_seed

from .cards import SHIPPED_BUILDS, CardTable, load_build_ref
from .cards.builds import INLINE
from .constants import MAX_CARDS, Scene

if TYPE_CHECKING:
    from .game import LaplaplaceGame

RANDOM_BUILDS = 40  # random legal builds in the population
POPULATION_SEED = 0x1A91A9
# of 8: a shipped build, a random one; the agent builds the rest (1 of 8: the heuristic's own build beat the
# shipped and random builds in 97% of the games, which then tell little about the cards)
SHIPPED_SHARE, RANDOM_SHARE, SHARES = 3, 4, 8
AGENT_LABEL = "built by the agent"
RANDOM_LABEL = "a random build"


def population(table: CardTable) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The shipped builds and the random ones, each as ``(build option value, label)``: a shipped build by its
    name (``jab-swarm``, "Jab Swarm"), a random one inline (``cards:jab,edge,...``, "random: Jab, Edge, ...").
    A shipped build that names a card the card list lacks is left out."""
    shipped = []
    for ref in SHIPPED_BUILDS:
        try:
            shipped.append((ref, load_build_ref(ref, table).name))
        except CardDataError:  # a user's card list without one of the build's cards
            continue
    ids = [c.id for c in table.cards]
    rng = Rng(derive_seed(POPULATION_SEED, zlib.crc32(",".join(sorted(ids)).encode())))
    randoms = []
    for _ in range(RANDOM_BUILDS):
        cards = [table.cards[rng.randbelow(len(ids))] for _ in range(MAX_CARDS)]
        spec = INLINE + ",".join(c.id for c in cards)
        randoms.append((spec, RANDOM_LABEL))
    return shipped, randoms


def build_for(game: LaplaplaceGame, rng: Rng) -> tuple[str | None, str]:
    """One seat's build: ``(build option value, label)``, the value ``None`` when the seat's agent builds."""
    shipped, randoms = game.report_population()
    draw = rng.randbelow(SHARES)
    if draw < SHIPPED_SHARE and shipped:
        return rng.choice(shipped)
    if draw < SHIPPED_SHARE + RANDOM_SHARE:
        return rng.choice(randoms)
    return None, AGENT_LABEL


def report_setup(game: LaplaplaceGame, seed: int) -> Setup | None:
    """Each seat's build for one report game, drawn from ``seed``; ``None`` when the options fix the builds or
    choose another scene than the blind one."""
    if game.scene is not Scene.BLIND or any(b is not None for b in game.fixed):
        return None
    rng = Rng(seed)
    chosen = [build_for(game, rng) for _ in (0, 1)]
    while chosen[0][0] is None and chosen[1][0] is None:
        # the agents' own builds meet dealt builds only: the heuristic makes one build, so two of its builds
        # would be an identical-build draw every time
        chosen[1] = build_for(game, rng)
    options: list[tuple[str, str]] = []
    if all(ref is not None for ref, _ in chosen):
        options.append(("build", Scene.LEAGUE.value))
    options += [(f"build{s}", ref) for s, (ref, _) in enumerate(chosen) if ref is not None]
    return Setup(options=tuple(options), seats=tuple(label for _, label in chosen), kind="build")


def entry_data(table: CardTable) -> dict[tuple[str, str], str]:
    """Each card's data as one line: name, number, force, category and its ability lines (what the rules read;
    the rulebook's text and its translation, which the rules do not read, are left out). Effects and rules are
    the ability language's and the rulebook's: they have no data in the card file."""
    return {
        ("card", c.id): f"{c.name} [{c.number}], force {c.force}, {c.category}; "
        + (" / ".join(a.text for a in c.abilities) or "no ability")
        for c in table.cards
    }
