"""The card data: beings, legends and flares in a TOML file, validated and compiled for fast play.

A being's pattern is a small text grid read from the summoner's side (top row = north, towards rank 9)::

    . c .
    c @ c
    . * .

``.`` no requirement, ``c``/``h``/``l`` one of your pieces of at least common/heroic/legendary rank, ``@`` the
summon square, ``C``/``H``/``L`` a summon square that must hold one of your pieces of at least that rank, and
``*`` a marked square that the card's effect may refer to, ``c*``/``h*``/``l*`` a marked square that needs one of
your pieces (a marked pattern piece). Patterns match in all 8 rotations and reflections.

Effects are lists of steps (see ``docs/games/tashkalar.md`` for the language); they compile to :class:`Step`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ...engine import CardDataError
from ...engine.datafiles import read_toml
from .._datamodel import validate
from .board import WIDTH

COMMON, HEROIC, LEGENDARY = 1, 2, 3
RANK_NAMES = {COMMON: "common", HEROIC: "heroic", LEGENDARY: "legendary"}
RANK_OF = {v: k for k, v in RANK_NAMES.items()}
# rank filters as bit sets of ranks (bit r set: rank r allowed)
RANK_FILTERS = {
    "any": 0b1110,
    "common": 0b0010,
    "heroic": 0b0100,
    "legendary": 0b1000,
    "upgraded": 0b1100,
    "non-legendary": 0b0110,
}
OWN, ENEMY, ANY = 1, 2, 3
WHO = {"own": OWN, "enemy": ENEMY, "any": ANY}
ALL = -1
ORIENTATIONS = ("r0", "r90", "r180", "r270", "m0", "m90", "m180", "m270")
Op = Literal[
    "gain_action",
    "draw_extra",
    "destroy",
    "upgrade",
    "downgrade",
    "convert",
    "place",
    "move",
    "leap",
    "choose_one",
    "extra_turn",
    "recover",
    "for_each",
]
OPS: tuple[str, ...] = get_args(Op)
TARGET_OPS = ("destroy", "upgrade", "downgrade", "convert")
PIECE_OPS = (*TARGET_OPS, "move", "leap")
Who = Literal["own", "enemy", "any"]
Rank = Literal["any", "common", "heroic", "legendary", "upgraded", "non-legendary"]
Area = Literal["marked", "central", "red", "green", "colored", "edge"]
Ray = Literal["orthogonal", "diagonal", "any"]
Ref = Literal["self", "last", "summon", "each"]
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DEFAULT_FILE = "cards.toml"


# ---------------------------------------------------------------------------------------------------------------
# The file's shape (pydantic)


class FilterModel(BaseModel):
    """Which pieces or squares: the location words shared by steps and by ``pieces`` conditions."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    who: Who | None = None
    rank: Rank | None = None
    near: Literal["adjacent"] | None = None
    distance: int | None = None
    min_distance: int | None = None
    max_distance: int | None = None
    from_: Ref | None = Field(default=None, alias="from")
    on: Area | None = None
    other: bool = False
    ray: Ray | None = None
    first: bool = False
    next_to: Who | None = None
    connected: bool = False


class ConditionModel(BaseModel):
    """``if``: a condition on the board (``pieces``) or on what was destroyed (``destroyed``)."""

    model_config = ConfigDict(extra="forbid")

    pieces: FilterModel | None = None
    at_least: int | None = None
    at_most: int | None = None
    destroyed: int | None = None
    by: Literal["previous", "effect", "turn"] = "previous"


class StepModel(FilterModel):
    """One step of an effect as written in the data file."""

    do: Op
    count: int | Literal["all"] = 1
    up_to: bool = False
    may: bool = False
    target: Literal["self", "choose", "last", "each"] = "choose"
    style: Literal["standard", "combat"] | None = None
    times: int = 1
    to_distance: int | None = None
    to_min_distance: int | None = None
    to_max_distance: int | None = None
    to_on: Area | None = None
    to_near: Literal["adjacent"] | None = None
    to_from: Ref | None = None
    to_ray: Ray | None = None
    to_first: bool = False
    far: bool = False
    to_empty: bool = False
    to_who: Who | None = None
    to_rank: Rank | None = None
    to_next_to: Who | None = None
    deck: Literal["school", "legend", "flare"] | None = None
    as_rank: Literal["common", "heroic", "legendary"] | None = None
    only_if: Literal["done", "not_done"] | None = None
    if_: ConditionModel | None = Field(default=None, alias="if")
    repeat: int = 0
    repeat_while: Literal["done", "destroyed"] = "done"
    scores: bool = True
    n: int = 1
    options: list[list[StepModel]] | None = None
    steps: list[StepModel] | None = None


class BeingModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    rank: Literal["common", "heroic", "legendary"]
    pattern: str
    effect: list[StepModel]
    flavor: str = ""


class FlareModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    upper: int
    lower: int
    upper_effect: list[StepModel]
    lower_effect: list[StepModel]
    flavor: str = ""


class SchoolModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    being: list[dict[str, Any]]


class RulesModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    deathmatch_target: int = Field(18, ge=1)
    deathmatch_two_sided_base: int = Field(18, ge=3)
    highform_two_sided: int = Field(17, ge=3)
    legendary_pieces: int = Field(3, ge=0)
    hand_beings: int = Field(3, ge=1)
    hand_legends: int = Field(2, ge=0)
    hand_flares: int = Field(1, ge=0)
    highform_target: int = Field(9, ge=1)
    melee_target_3: int = Field(12, ge=1)
    melee_target_4: int = Field(10, ge=1)
    team_sideways: int = Field(6, ge=0)


# ---------------------------------------------------------------------------------------------------------------
# Compiled forms


@dataclass(frozen=True, slots=True)
class Step:
    """A compiled effect step. Squares are filtered with bit sets relative to a reference square."""

    op: str
    who: int = ANY
    ranks: int = RANK_FILTERS["any"]
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


@dataclass(frozen=True, slots=True)
class Cond:
    """A compiled ``if``: ``pieces`` counts pieces matching ``filt``; ``destroyed`` counts destroyed pieces."""

    kind: str  # "pieces" or "destroyed"
    lo: int = 1
    hi: int = 999
    filt: Step | None = None
    by: str = "previous"


@dataclass(frozen=True, slots=True)
class Orientation:
    """One of a pattern's distinct symmetries, as bitboard shifts from the summon square."""

    name: str
    reqs: tuple[tuple[int, int], ...]  # (shift, minimum rank) of the squares that need your pieces
    summon_req: int  # 0, or the minimum rank of your piece that must stand on the summon square
    marked: tuple[int, ...]  # shifts of the marked squares


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class School:
    id: str
    name: str
    cards: tuple[int, ...]


@dataclass(frozen=True)
class CardSet:
    file: str
    rules: RulesModel
    cards: tuple[Card, ...]
    by_id: dict[str, Card]
    schools: dict[str, School]
    legends: tuple[int, ...]
    flares: tuple[int, ...]


def enemy_place_field(card: Card) -> str | None:
    """The field of ``card`` with a ``place`` step of ``who = "enemy"`` (``effect.who``…), or None.

    Such a step names no colour, so it is ambiguous in melee (several enemy colours): melee refuses the card.
    """

    def has(steps: tuple[Step, ...]) -> bool:
        return any((s.op == "place" and s.who == ENEMY) or any(has(o) for o in s.options) or has(s.sub) for s in steps)

    if card.kind == "flare":
        for name, steps in (("upper_effect", card.upper_steps), ("lower_effect", card.lower_steps)):
            if has(steps):
                return f"{name}.who"
        return None
    return "effect.who" if has(card.steps) else None


# ---------------------------------------------------------------------------------------------------------------
# Patterns


def _transform(k: int, dx: int, dy: int) -> tuple[int, int]:
    """Symmetry ``k`` (0-3: rotations by 90° clockwise steps, 4-7: the mirror image, then rotated)."""
    if k >= 4:
        dx = -dx
    for _ in range(k % 4):
        dx, dy = dy, -dx
    return dx, dy


def parse_pattern(text: str, *, file: str, card: str) -> tuple[tuple[str, ...], tuple[Orientation, ...]]:
    """Read a pattern grid; return its rows and its distinct orientations (first name of each kept)."""
    rows = [line.split() for line in text.strip("\n").splitlines() if line.strip()]
    if not rows:
        raise CardDataError(file, "the pattern is empty", card=card, field="pattern")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise CardDataError(
            file, "every row of the pattern needs the same number of squares", card=card, field="pattern"
        )
    if width > 7 or len(rows) > 7:
        raise CardDataError(file, "a pattern may be at most 7×7 squares", card=card, field="pattern")
    summon = None
    cells: list[tuple[int, int, str]] = []
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok not in {".", "c", "h", "l", "@", "C", "H", "L", "*", "c*", "h*", "l*"}:
                raise CardDataError(
                    file,
                    f"unknown pattern square {tok!r} (use . c h l @ C H L * c* h* l*, separated by spaces)",
                    card=card,
                    field="pattern",
                )
            if tok in "@CHL":
                if summon is not None:
                    raise CardDataError(
                        file, "a pattern needs exactly one summon square (@, C, H or L)", card=card, field="pattern"
                    )
                summon = (c, r, tok)
            elif tok != ".":
                cells.append((c, r, tok))
    if summon is None:
        raise CardDataError(file, "the pattern has no summon square (@, C, H or L)", card=card, field="pattern")
    sc, sr, stok = summon
    summon_req = {"@": 0, "C": COMMON, "H": HEROIC, "L": LEGENDARY}[stok]
    if summon_req == 0 and not any(t[0] in "chl" for _, _, t in cells):
        raise CardDataError(file, "the pattern needs at least one of your pieces", card=card, field="pattern")
    rank_of_tok = {"c": COMMON, "h": HEROIC, "l": LEGENDARY}
    seen: set[tuple[Any, ...]] = set()
    orients: list[Orientation] = []
    for k, name in enumerate(ORIENTATIONS):
        reqs = []
        marked = []
        for c, r, tok in cells:
            dx, dy = _transform(k, c - sc, sr - r)
            shift = dy * WIDTH + dx
            if tok.endswith("*"):
                marked.append(shift)  # a marked square; c* h* l*: a marked square that needs your piece
            if tok != "*":
                reqs.append((shift, rank_of_tok[tok[0]]))
        key = (frozenset(reqs), frozenset(marked))
        if key in seen:
            continue
        seen.add(key)
        # the highest requirement first: the most selective bit set is tested first
        reqs.sort(key=lambda sr_: (-sr_[1], sr_[0]))
        orients.append(Orientation(name, tuple(reqs), summon_req, tuple(sorted(marked))))
    return tuple(" ".join(r) for r in rows), tuple(orients)


# ---------------------------------------------------------------------------------------------------------------
# Effects


def _dist(
    exact: int | None, lo: int | None, hi: int | None, *, file: str, card: str, name: str
) -> tuple[int, int] | None:
    if exact is None and lo is None and hi is None:
        return None
    if exact is not None and (lo is not None or hi is not None):
        raise CardDataError(file, f"give either {name} or min_/max_{name}, not both", card=card, field=name)
    a, b = (exact, exact) if exact is not None else (lo or 0, 99 if hi is None else hi)
    if a < 0 or b < a:
        raise CardDataError(file, f"the {name} range {a}..{b} is empty or negative", card=card, field=name)
    return a, b


def compile_steps(
    models: list[StepModel],
    *,
    file: str,
    card: str,
    has_self: bool,
    has_marked: bool,
    where: str,
    in_each: bool = False,
) -> tuple[Step, ...]:
    out = []
    for m in models:
        out.append(
            _compile_step(
                m,
                file=file,
                card=card,
                has_self=has_self,
                has_marked=has_marked,
                where=where,
                in_each=in_each,
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class _Ctx:
    file: str
    card: str
    has_self: bool
    has_marked: bool
    where: str
    in_each: bool

    def bad(self, msg: str, fld: str) -> CardDataError:
        return CardDataError(self.file, msg, card=self.card, field=f"{self.where}.{fld}")


def _filter(m: FilterModel, ctx: _Ctx, *, default_who: str, is_place: bool = False) -> dict[str, Any]:
    """The Step fields of the location words of ``m`` (shared by steps and ``pieces`` conditions), checked."""
    # the rulebook's default square:
    # 「あるスクエアがどれなのかという記述がない場合、新たに召喚されたスクエアのことを指す」
    # (a flare has no summon square: its default is the piece or square it affected last)
    ref = m.from_ or ("summon" if ctx.has_self else "last")
    if not ctx.has_self and (ref in ("self", "summon") or m.other):
        raise ctx.bad('a flare has no piece of its own: use from = "last" and no target = "self"', "from")
    if ref == "each" and not ctx.in_each:
        raise ctx.bad('from = "each" is the square of an enclosing for_each step', "from")
    if m.on == "marked" and not ctx.has_marked:
        raise ctx.bad("the effect refers to marked squares but the pattern has none (*)", "on")
    if m.first and m.ray is None:
        raise ctx.bad('first (the first piece on each line) needs ray = "orthogonal", "diagonal" or "any"', "first")
    if is_place and (m.connected or m.first):
        raise ctx.bad("place puts pieces on empty squares: connected and first do not apply", "connected")
    return {
        "who": WHO[m.who or default_who],
        "ranks": RANK_FILTERS[m.rank or "any"],
        "ref": ref,
        "near": m.near == "adjacent",
        "dist": _dist(m.distance, m.min_distance, m.max_distance, file=ctx.file, card=ctx.card, name="distance"),
        "area": m.on,
        "other": m.other,
        "ray": m.ray,
        "first": m.first,
        "next_to": WHO[m.next_to] if m.next_to else 0,
        "connected": m.connected,
    }


def _condition(c: ConditionModel, ctx: _Ctx) -> Cond:
    if (c.pieces is None) == (c.destroyed is None):
        raise ctx.bad("an if needs exactly one of pieces = {...} or destroyed = N", "if")
    if c.destroyed is not None:
        if c.destroyed < 1 or c.at_least is not None or c.at_most is not None:
            raise ctx.bad("if.destroyed is a number of at least 1 (no at_least / at_most)", "if.destroyed")
        return Cond("destroyed", lo=c.destroyed, by=c.by)
    assert c.pieces is not None
    lo = c.at_least if c.at_least is not None else (0 if c.at_most is not None else 1)
    hi = c.at_most if c.at_most is not None else 999
    if lo < 0 or hi < lo:
        raise ctx.bad(f"the count range {lo}..{hi} is empty or negative", "if.at_least")
    filt = Step(op="count", **_filter(c.pieces, ctx, default_who="any"))
    return Cond("pieces", lo=lo, hi=hi, filt=filt, by=c.by)


def _compile_step(
    m: StepModel, *, file: str, card: str, has_self: bool, has_marked: bool, where: str, in_each: bool = False
) -> Step:
    op = m.do
    ctx = _Ctx(file, card, has_self, has_marked, where, in_each)
    bad = ctx.bad
    set_fields = m.model_fields_set
    if not has_self and m.target == "self":
        raise bad('a flare has no piece of its own: use from = "last" and no target = "self"', "target")
    if m.target == "each" and not in_each:
        raise bad('target = "each" is the piece on the square of an enclosing for_each step', "target")
    if m.to_on == "marked" and not has_marked:
        raise bad("the effect refers to marked squares but the pattern has none (*)", "to_on")
    count = ALL if m.count == "all" else m.count
    if count != ALL and count < 1:
        raise bad('count must be at least 1 (or "all")', "count")
    if m.times < 1 or m.n < 1:
        raise bad("times and n must be at least 1", "times")
    # the rulebook's default owner:
    # 「特に明確にこれが記されていない限り、効果は自身のユニットと敵ユニットに影響を及ぼす」,
    # only enemy pieces can be converted (変換：敵ユニットを...), and a place is the place action's (your colour)
    default_who = {"convert": "enemy", "place": "own"}.get(op, "any")
    where_fields = _filter(m, ctx, default_who=default_who, is_place=op == "place")
    who = where_fields["who"]
    if op == "convert" and who != ENEMY:
        raise bad("only enemy pieces can be converted", "who")
    place_rank = COMMON
    if op == "place":
        if m.rank not in (None, "common", "heroic", "legendary"):
            raise bad("place needs rank = common, heroic or legendary", "rank")
        place_rank = RANK_OF[m.rank or "common"]
        if who == ANY:
            raise bad("place needs who = own or enemy", "who")
    if op in ("move", "leap") and m.style is None:
        raise bad(f'{op} needs style = "standard" or "combat"', "style")
    if op in ("draw_extra", "recover") and m.deck is None:
        raise bad(f'{op} needs deck = "school", "legend" or "flare"', "deck")
    move_only = {"to_ray", "to_first", "far", "to_empty", "to_who", "to_rank", "to_next_to", "to_from", "style"}
    move_only |= {"times", "to_distance", "to_min_distance", "to_max_distance", "to_on", "to_near"}
    if op not in ("move", "leap") and set_fields & move_only:
        raise bad(
            f"{sorted(set_fields & move_only)[0]} belongs to move and leap only", sorted(set_fields & move_only)[0]
        )
    if m.to_first and m.to_ray is None:
        raise bad("to_first needs to_ray", "to_first")
    if m.to_first and op != "leap":
        raise bad("to_first belongs to leap (a move goes to an adjacent square)", "to_first")
    if m.far and (op != "move" or m.to_ray is None or m.times != 1):
        raise bad('far ("as far as it can") needs do = "move", to_ray, and no times', "far")
    if m.to_empty and (m.to_who or m.to_rank):
        raise bad("to_empty and to_who / to_rank exclude each other", "to_empty")
    if m.to_from == "each" and not in_each:
        raise bad('to_from = "each" is the square of an enclosing for_each step', "to_from")
    if m.to_from is not None and not ({"to_near", "to_distance", "to_min_distance", "to_max_distance"} & set_fields):
        raise bad("to_from is the reference of to_near / to_distance: give one of them", "to_from")
    if not has_self and m.to_from in ("self", "summon"):
        raise bad('a flare has no piece of its own: use to_from = "last"', "to_from")
    options: tuple[tuple[Step, ...], ...] = ()
    if op == "choose_one":
        if not m.options or len(m.options) < 2:
            raise bad("choose_one needs at least two options", "options")
        options = tuple(
            compile_steps(
                o,
                file=file,
                card=card,
                has_self=has_self,
                has_marked=has_marked,
                where=f"{where}.options[{i}]",
                in_each=in_each,
            )
            for i, o in enumerate(m.options)
        )
    elif m.options is not None:
        raise bad("options belong to choose_one only", "options")
    sub: tuple[Step, ...] = ()
    if op == "for_each":
        if not m.steps:
            raise bad("for_each needs steps = [...] to run for each square", "steps")
        sub = compile_steps(
            m.steps,
            file=file,
            card=card,
            has_self=has_self,
            has_marked=has_marked,
            where=f"{where}.steps",
            in_each=True,
        )
        if m.count != 1 or m.target != "choose":
            raise bad("for_each runs for every square that qualifies: no count or target", "count")
    elif m.steps is not None:
        raise bad("steps belong to for_each only", "steps")
    if m.target != "choose" and count == ALL:
        raise bad(f'target = "{m.target}" means one piece; count cannot be "all"', "count")
    if m.target != "choose" and op not in PIECE_OPS:
        raise bad(f"target belongs to {', '.join(PIECE_OPS)}", "target")
    if m.as_rank is not None and op != "convert":
        raise bad("as_rank belongs to convert only", "as_rank")
    if op == "convert":
        place_rank = RANK_OF[m.as_rank] if m.as_rank else 0
    if count == ALL and op in ("leap", "recover"):
        raise bad(f'{op} needs a number, not "all"', "count")
    if m.repeat < 0 or (m.repeat and op not in (*PIECE_OPS, "place")):
        raise bad("repeat is a number of at least 0, for steps on pieces or squares", "repeat")
    if "repeat_while" in set_fields and not m.repeat:
        raise bad("repeat_while needs repeat", "repeat_while")
    if not m.scores and op not in ("destroy", "convert", "move", "leap"):
        raise bad("scores = false belongs to steps that destroy (destroy, convert, move, leap)", "scores")
    if m.connected and op not in PIECE_OPS:
        raise bad("connected belongs to steps on pieces", "connected")
    step = Step(
        op=op,
        count=count,
        optional=m.up_to or m.may,
        target_self=m.target == "self",
        combat=m.style == "combat",
        times=m.times,
        to_dist=_dist(m.to_distance, m.to_min_distance, m.to_max_distance, file=file, card=card, name="to_distance"),
        to_area=m.to_on,
        to_near=m.to_near == "adjacent",
        place_rank=place_rank,
        deck=m.deck or "school",
        n=m.n,
        options=options,
        only_if=m.only_if,
        target=m.target,
        pieces_only=op == "for_each" and (m.who is not None or m.rank is not None),
        to_ref=m.to_from,
        to_ray=m.to_ray,
        to_first=m.to_first,
        far=m.far,
        to_empty=m.to_empty,
        to_who=WHO[m.to_who] if m.to_who else (ANY if m.to_rank else 0),
        to_ranks=RANK_FILTERS[m.to_rank] if m.to_rank else (RANK_FILTERS["any"] if m.to_who else 0),
        to_next_to=WHO[m.to_next_to] if m.to_next_to else 0,
        cond=_condition(m.if_, ctx) if m.if_ is not None else None,
        repeat=m.repeat,
        repeat_destroyed=m.repeat_while == "destroyed",
        scores=m.scores,
        sub=sub,
        **where_fields,
    )
    return _with_text(step, m)


def _with_text(step: Step, m: StepModel) -> Step:
    from .describe import step_text

    object.__setattr__(step, "text", step_text(step))
    return step


def step_keywords(steps: tuple[Step, ...]) -> set[str]:
    """The rulebook keywords a list of steps uses (for the content coverage check)."""
    out: set[str] = set()
    for s in steps:
        if s.op in ("move", "leap"):
            out.add(f"{'combat' if s.combat else 'standard'} {s.op}")
        elif s.op == "choose_one":
            for o in s.options:
                out |= step_keywords(o)
            continue
        elif s.op == "for_each":
            out.add("for each")
            out |= step_keywords(s.sub)
        else:
            out.add(s.op.replace("_", " "))
        for a in (s.area, s.to_area):
            if a == "marked":
                out.add("marked squares")
        if s.near or s.to_near:
            out.add("adjacency")
        if s.dist is not None or s.to_dist is not None:
            out.add("distance")
        if s.optional:
            out.add("optional")
    return out


# ---------------------------------------------------------------------------------------------------------------
# Loading


def default_path() -> str:
    return str(resources.files(__package__).joinpath("data", DEFAULT_FILE))


def load_cards(path: str | None = None) -> CardSet:
    """Read, validate and compile a card file (the package's own when ``path`` is None)."""
    file = path or default_path()
    return build_cards(read_toml(file), file=file)


def build_cards(raw: dict[str, Any], *, file: str) -> CardSet:
    """Validate and compile the parsed TOML ``raw``."""
    unknown = set(raw) - {"rules", "school", "legend", "flare"}
    if unknown:
        raise CardDataError(
            file, f"unknown top-level table {sorted(unknown)[0]!r} (expected rules, school, legend, flare)"
        )
    rules = validate(RulesModel, raw.get("rules", {}), file=file, card=None)
    cards: list[Card] = []
    by_id: dict[str, Card] = {}

    def add(card: Card) -> None:
        if not SLUG.match(card.id):
            raise CardDataError(
                file,
                "an id is lowercase letters, digits and single hyphens (it is typed in actions)",
                card=card.id,
                field="id",
            )
        if card.id in by_id:
            raise CardDataError(file, "two cards have this id", card=card.id, field="id")
        by_id[card.id] = card
        cards.append(card)

    def being(data: Any, school: str, kind: str) -> Card:
        cid = str(data.get("id", "?")) if isinstance(data, dict) else "?"
        m: BeingModel = validate(BeingModel, data, file=file, card=cid)
        rank = RANK_OF[m.rank]
        if kind == "being" and rank == LEGENDARY:
            raise CardDataError(file, "a school being is common or heroic", card=m.id, field="rank")
        if kind == "legend" and rank != LEGENDARY:
            raise CardDataError(file, "a legend is legendary", card=m.id, field="rank")
        rows, orients = parse_pattern(m.pattern, file=file, card=m.id)
        if orients[0].summon_req > rank:
            # 配置するユニットよりランク高いユニットがあった場合…召喚することはできない: never summonable
            raise CardDataError(
                file,
                f"the summon square needs your {RANK_NAMES[orients[0].summon_req]} piece, higher than this "
                f"{RANK_NAMES[rank]} being, which can never be summoned onto a higher-ranked piece",
                card=m.id,
                field="pattern",
            )
        has_marked = bool(orients[0].marked)
        steps = compile_steps(m.effect, file=file, card=m.id, has_self=True, has_marked=has_marked, where="effect")
        from .describe import card_text

        c = Card(
            index=len(cards),
            id=m.id,
            name=m.name,
            kind=kind,
            school=school,
            rank=rank,
            pattern=rows,
            orients=orients,
            steps=steps,
            flavor=m.flavor,
            keywords=frozenset(step_keywords(steps)),
        )
        return _replace_text(c, card_text(c))

    schools: dict[str, School] = {}
    raw_schools = raw.get("school", [])
    if not isinstance(raw_schools, list) or not raw_schools:
        raise CardDataError(file, "the file needs at least one [[school]]")
    for s in raw_schools:
        sm: SchoolModel = validate(SchoolModel, s, file=file, card=None)
        if not SLUG.match(sm.id) or sm.id in schools or sm.id in ("legend", "flare", "random"):
            raise CardDataError(file, f"school id {sm.id!r} is not a unique lowercase slug", field="school.id")
        ids = []
        for b in sm.being:
            c = being(b, sm.id, "being")
            add(c)
            ids.append(c.index)
        if len(ids) < rules.hand_beings:
            raise CardDataError(file, f"school {sm.id!r} needs at least {rules.hand_beings} beings", field="being")
        schools[sm.id] = School(sm.id, sm.name, tuple(ids))
    legends = []
    for d in raw.get("legend", []):
        c = being(d, "legend", "legend")
        add(c)
        legends.append(c.index)
    flares = []
    for d in raw.get("flare", []):
        cid = str(d.get("id", "?")) if isinstance(d, dict) else "?"
        fm: FlareModel = validate(FlareModel, d, file=file, card=cid)
        if fm.upper < 1 or fm.lower < 1:
            raise CardDataError(file, "flare thresholds are at least 1", card=fm.id, field="upper")
        up = compile_steps(
            fm.upper_effect, file=file, card=fm.id, has_self=False, has_marked=False, where="upper_effect"
        )
        lo = compile_steps(
            fm.lower_effect, file=file, card=fm.id, has_self=False, has_marked=False, where="lower_effect"
        )
        if not up or not lo:
            raise CardDataError(file, "a flare needs an upper and a lower effect", card=fm.id, field="upper_effect")
        from .describe import card_text

        c = Card(
            index=len(cards),
            id=fm.id,
            name=fm.name,
            kind="flare",
            school="flare",
            upper=fm.upper,
            lower=fm.lower,
            upper_steps=up,
            lower_steps=lo,
            flavor=fm.flavor,
            keywords=frozenset(step_keywords(up) | step_keywords(lo)),
        )
        add(_replace_text(c, card_text(c)))
        flares.append(c.index)
    return CardSet(file, rules, tuple(cards), by_id, schools, tuple(legends), tuple(flares))


def _replace_text(card: Card, text: str) -> Card:
    object.__setattr__(card, "text", text)
    return card
