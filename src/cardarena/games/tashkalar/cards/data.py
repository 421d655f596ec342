"""The compiled forms of the card data (:class:`Step`, :class:`Card`...), read by the rules on every move.

Compiled with the rules (setup.py): their fields are then native attributes, read directly. ``model.py`` (the file's
pydantic models, interpreted) builds them and re-exports them with the constants below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

COMMON: Final = 1
HEROIC: Final = 2
LEGENDARY: Final = 3
RANK_NAMES: Final = {COMMON: "common", HEROIC: "heroic", LEGENDARY: "legendary"}
RANK_OF: Final = {v: k for k, v in RANK_NAMES.items()}
# rank filters as bit sets of ranks (bit r set: rank r allowed)
RANK_FILTERS: Final = {
    "any": 0b1110,
    "common": 0b0010,
    "heroic": 0b0100,
    "legendary": 0b1000,
    "upgraded": 0b1100,
    "non-legendary": 0b0110,
}
ANY_RANK: Final = 0b1110
OWN: Final = 1
ENEMY: Final = 2
ANY: Final = 3
WHO: Final = {"own": OWN, "enemy": ENEMY, "any": ANY}
ALL: Final = -1
ORIENTATIONS: Final = ("r0", "r90", "r180", "r270", "m0", "m90", "m180", "m270")
TARGET_OPS: Final = ("destroy", "upgrade", "downgrade", "convert")
PIECE_OPS: Final = (*TARGET_OPS, "move", "leap")


# Never changed once loaded, but not frozen=True: where compiled, unpickling (effect frames hold steps) assigns the
# fields, which a frozen class refuses. unsafe_hash keeps the frozen class's hash (of the fields) and equality.
@dataclass(unsafe_hash=True)
class Step:
    """A compiled effect step. Squares are filtered with bit sets relative to a reference square."""

    op: str
    who: int = ANY
    ranks: int = ANY_RANK
    count: int = 1
    optional: bool = False
    target_self: bool = False
    ref: str = "self"
    near: bool = False
    dist: tuple[int, int] | None = None
    area: str | None = None
    other: bool = False
    combat: bool = False
    times: int = 1
    to_dist: tuple[int, int] | None = None
    to_area: str | None = None
    to_near: bool = False
    place_rank: int = COMMON  # the rank of a placed piece, or of the piece a convert puts (0: the same rank)
    deck: str = "school"
    n: int = 1
    options: tuple[tuple[Step, ...], ...] = ()
    only_if: str | None = None  # "done" / "not_done": run only if the previous step did (not) do anything
    target: str = "choose"  # choose / self / last / each: a fixed piece instead of a choice
    ray: str | None = None  # only squares on straight lines from the reference (orthogonal, diagonal, any)
    first: bool = False  # with ray: only the first piece on each line
    next_to: int = 0  # only squares adjacent to a piece of this owner set (OWN / ENEMY / ANY), 0: no filter
    connected: bool = False  # only pieces of the group joined (through adjacent squares) to the reference
    pieces_only: bool = False  # for_each: only squares holding a piece that matches who/rank
    to_ref: str | None = None  # to_near / to_distance measured from this reference (default: step ref / start)
    to_ray: str | None = None  # move: all moves in one direction; leap: along a straight line
    to_first: bool = False  # with to_ray on a leap: onto the first piece on the line
    far: bool = False  # move with to_ray: as far as it can (stops after destroying a piece)
    to_empty: bool = False
    to_who: int = 0  # the destination must hold a piece of these owners (0: any or none)
    to_ranks: int = 0  # ... of these ranks (0: no filter)
    to_next_to: int = 0  # the destination must be adjacent to a piece of these owners (not the mover)
    cond: Cond | None = None
    repeat: int = 0  # run again up to this many times while it did something (destroyed something)
    repeat_destroyed: bool = False
    scores: bool = True  # destroyed pieces count for scoring (False: they go straight back to their owner)
    sub: tuple[Step, ...] = ()  # for_each: the steps run for each square
    text: str = ""

    def snapshot(self) -> str:
        """A step in a state's snapshot (the effect frames): its text, or its operation."""
        return self.text or self.op


@dataclass(unsafe_hash=True)  # never changed once loaded (see Step)
class Cond:
    """A compiled ``if``: ``pieces`` counts pieces matching ``filt``; ``destroyed`` counts destroyed pieces."""

    kind: str  # "pieces" or "destroyed"
    lo: int = 1
    hi: int = 999
    filt: Step | None = None
    by: str = "previous"


@dataclass(unsafe_hash=True)  # never changed once loaded (see Step)
class Orientation:
    """One of a pattern's distinct symmetries, as bitboard shifts from the summon square."""

    name: str
    reqs: tuple[tuple[int, int], ...]  # (shift, minimum rank) of the squares that need your pieces
    summon_req: int  # 0, or the minimum rank of your piece that must stand on the summon square
    marked: tuple[int, ...]  # shifts of the marked squares


@dataclass(unsafe_hash=True)  # never changed once loaded (see Step)
class Card:
    index: int
    id: str
    name: str
    kind: str  # "being" (school card), "legend" or "flare"
    school: str  # school id, "legend" or "flare"
    rank: int = 0
    pattern: tuple[str, ...] = ()
    orients: tuple[Orientation, ...] = ()
    steps: tuple[Step, ...] = ()
    upper: int = 0
    lower: int = 0
    upper_steps: tuple[Step, ...] = ()
    lower_steps: tuple[Step, ...] = ()
    text: str = ""
    flavor: str = ""
    keywords: frozenset[str] = field(default_factory=frozenset)


@dataclass(unsafe_hash=True)  # never changed once loaded (see Step)
class School:
    id: str
    name: str
    cards: tuple[int, ...]


@dataclass(unsafe_hash=True)  # never changed once loaded (see Step)
class CardSet:
    file: str
    # the numbers of the rules: model.RulesModel, pydantic (not named here: a compiled dataclass resolves its field
    # types when the module loads, and model.py imports this module); read only by interpreted code
    rules: Any
    cards: tuple[Card, ...]
    by_id: dict[str, Card]
    schools: dict[str, School]
    legends: tuple[int, ...]
    flares: tuple[int, ...]
    # each card's data as the file writes it, by id (``model_text``): what the balance report compares
    data: dict[str, str] = field(default_factory=dict)
