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
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from ..._datamodel import Whole
from ..._entries import data_text
from .data import ENEMY, Card, Step
from .data import ORIENTATIONS as ORIENTATIONS  # encoding.py reads them here
from .data import CardSet as CardSet

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
Who = Literal["own", "enemy", "any"]
Rank = Literal["any", "common", "heroic", "legendary", "upgraded", "non-legendary"]
Area = Literal["marked", "central", "red", "green", "colored", "edge"]
Ray = Literal["orthogonal", "diagonal", "any"]
Ref = Literal["self", "last", "summon", "each"]
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DEFAULT_FILE = "cards.toml"

# The numbers of a card file: whole numbers (never true/false or 1.5) in ranges a game on the board can play.
BOARD_SQUARES = 69  # the 9×9 board without its cut corners: no count of pieces or squares goes beyond it
MAX_DISTANCE = 16  # the longest distance between two squares of the board, in steps
MAX_TARGET = 99  # points that end a game
MAX_HAND = 10  # cards of one kind in a hand
Squares = Annotated[int, Whole(0, BOARD_SQUARES)]
Pieces = Annotated[int, Whole(1, BOARD_SQUARES)]
Distance = Annotated[int, Whole(0, MAX_DISTANCE)]
Target = Annotated[int, Whole(1, MAX_TARGET)]
HandCount = Annotated[int, Whole(1, MAX_HAND)]
# strict: a number in quotes is text, true is not 1, and "true" is not true
STRICT = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------------------------------------------------
# The file's shape (pydantic)


class FilterModel(BaseModel):
    """Which pieces or squares: the location words shared by steps and by ``pieces`` conditions."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)

    who: Who | None = None
    rank: Rank | None = None
    near: Literal["adjacent"] | None = None
    distance: Distance | None = None
    min_distance: Distance | None = None
    max_distance: Distance | None = None
    from_: Ref | None = Field(default=None, alias="from")
    on: Area | None = None
    other: bool = False
    ray: Ray | None = None
    first: bool = False
    next_to: Who | None = None
    connected: bool = False


class ConditionModel(BaseModel):
    """``if``: a condition on the board (``pieces``) or on what was destroyed (``destroyed``)."""

    model_config = STRICT

    pieces: FilterModel | None = None
    at_least: Squares | None = None
    at_most: Squares | None = None
    destroyed: Pieces | None = None
    by: Literal["previous", "effect", "turn"] = "previous"


class StepModel(FilterModel):
    """One step of an effect as written in the data file."""

    do: Op
    count: Annotated[int | Literal["all"], Whole(1, BOARD_SQUARES, word="all")] = 1
    up_to: bool = False
    may: bool = False
    target: Literal["self", "choose", "last", "each"] = "choose"
    style: Literal["standard", "combat"] | None = None
    times: Pieces = 1
    to_distance: Distance | None = None
    to_min_distance: Distance | None = None
    to_max_distance: Distance | None = None
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
    repeat: Squares = 0
    repeat_while: Literal["done", "destroyed"] = "done"
    scores: bool = True
    n: HandCount = 1
    options: list[list[StepModel]] | None = None
    steps: list[StepModel] | None = None


class BeingModel(BaseModel):
    model_config = STRICT

    id: str
    name: str
    rank: Literal["common", "heroic", "legendary"]
    pattern: str
    effect: list[StepModel]  # required; [] is a being that only summons (scenario tests use such beings)
    flavor: str = ""


class FlareModel(BaseModel):
    model_config = STRICT

    id: str
    name: str
    upper: Pieces
    lower: Pieces
    upper_effect: list[StepModel]
    lower_effect: list[StepModel]
    flavor: str = ""


class SchoolModel(BaseModel):
    model_config = STRICT

    id: str
    name: str
    being: list[dict[str, Any]]


class RulesModel(BaseModel):
    """The numbers of the rules ([rules]); a number left out is the rulebook's."""

    model_config = STRICT

    deathmatch_target: Target = 18
    # two-sided pieces per colour are this less the number of colours: 5 leaves 1 each in a 4-colour melee
    deathmatch_two_sided_base: Annotated[int, Whole(5, BOARD_SQUARES)] = 18
    highform_two_sided: Annotated[int, Whole(3, BOARD_SQUARES)] = 17
    legendary_pieces: Pieces = 3  # at least 1: with none, no legend could ever be summoned
    hand_beings: HandCount = 3
    hand_legends: HandCount = 2
    hand_flares: HandCount = 1
    highform_target: Target = 9
    melee_target_3: Target = 12
    melee_target_4: Target = 10
    team_sideways: Squares = 6


# ---------------------------------------------------------------------------------------------------------------
# The compiled forms (Step, Card...) are in data.py: compiled with the rules


def model_text(m: BaseModel) -> str:
    """A card's (or task's) data as the file writes it, on one line, for "what changed" in the balance report:
    the fields of its model in the model's order, a field at its default left out (so ``may = false`` written out
    is no change), the id (its key) and the flavour text (no data) left out, and ``do`` first in every step.

    >>> model_text(FlareModel(id="f", name="F", upper=2, lower=3, upper_effect=[], lower_effect=[{"do": "place"}]))
    'name=F; upper=2; lower=3; upper_effect=[]; lower_effect=[{do=place}]'
    """
    fields = m.model_dump(mode="json", by_alias=True, exclude_defaults=True, exclude={"id", "flavor"})
    return data_text(_do_first(fields))


def _do_first(value: Any) -> Any:
    if isinstance(value, dict):
        first = {"do": value["do"]} if "do" in value else {}
        return first | {k: _do_first(v) for k, v in value.items() if k != "do"}
    if isinstance(value, list):
        return [_do_first(v) for v in value]
    return value


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
