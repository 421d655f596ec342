"""High Form (クラシック) tasks: a TOML data file, validated and compiled, and the checks of their conditions.

A task has a type (the icon of the rulebook: ``destruction``, ``squares``, ``centre``, ``lines``, ``chains``,
``surround``), is simple or advanced, is worth 1-3 points and holds when **all** its conditions hold for the
player (or team) whose turn ends. Condition kinds:

- ``destroyed``: this turn you destroyed at least ``count`` enemy pieces, at least ``upgraded`` of them upgraded;
- ``occupy``: at least ``count`` of your pieces (``rank`` filter) stand on the ``area`` squares;
- ``summoned``: this turn you summoned at least ``count`` beings (``rank`` filter) on the ``area`` squares;
- ``cross``: your pieces stand on e5 and its four orthogonal neighbours, the one on e5 of ``rank``;
- ``line``: ``count`` of your pieces (``rank`` filter) in an unbroken straight line (``direction``);
- ``chain``: one group of your pieces joined through adjacent squares that ``reaches`` the centre (e5) and an
  edge square, two opposite sides, or two opposite corners, or has at least ``count`` pieces;
- ``surround``: an enemy piece (``rank`` filter) with at least ``count`` of its adjacent squares holding your
  pieces; with ``isolated``, none of its adjacent squares holds a piece of its own colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field

from ....engine import CardDataError
from ....engine.datafiles import parse_toml, read_text
from ..._datamodel import Whole, validate
from ..board import AREAS, NAME_SQ, SIZE, SQUARES, WIDTH, mask_of, on_board, sq_x, sq_y, square
from .data import RANK_FILTERS
from .model import SLUG, STRICT, Pieces, Squares, model_text

if TYPE_CHECKING:
    pass

TASK_TYPES = ("destruction", "squares", "centre", "lines", "chains", "surround")
DEFAULT_TASK_FILE = "tasks.toml"
TASK_AREAS = ("red", "green", "colored", "central", "edge")

CROSS_CENTRE = NAME_SQ["e5"]
CROSS_ARMS = mask_of([NAME_SQ[s] for s in ("d5", "f5", "e4", "e6")])
SIDES = (
    mask_of([s for s in SQUARES if sq_x(s) == 0]),
    mask_of([s for s in SQUARES if sq_x(s) == SIZE - 1]),
    mask_of([s for s in SQUARES if sq_y(s) == 0]),
    mask_of([s for s in SQUARES if sq_y(s) == SIZE - 1]),
)


def _corner(fx: bool, fy: bool) -> int:
    """The three squares along the cut edge of one corner (south-west, then flipped east and/or north)."""
    out = []
    for x, y in ((0, 2), (1, 1), (2, 0)):
        xx, yy = (SIZE - 1 - x if fx else x), (SIZE - 1 - y if fy else y)
        assert on_board(xx, yy)
        out.append(square(xx, yy))
    return mask_of(out)


# south-west / north-east and south-east / north-west
CORNERS = ((_corner(False, False), _corner(True, True)), (_corner(True, False), _corner(False, True)))
OPPOSITE_SIDES = ((SIDES[0], SIDES[1]), (SIDES[2], SIDES[3]))
DIRECTIONS: dict[str, tuple[int, ...]] = {"orthogonal": (1, WIDTH), "diagonal": (WIDTH + 1, WIDTH - 1)}
DIRECTIONS["any"] = DIRECTIONS["orthogonal"] + DIRECTIONS["diagonal"]


class ConditionModel(BaseModel):
    model_config = STRICT

    kind: Literal["destroyed", "occupy", "summoned", "cross", "line", "chain", "surround"]
    count: Pieces = 1
    upgraded: Squares = 0
    rank: Literal["any", "common", "heroic", "legendary", "upgraded", "non-legendary"] = "any"
    area: Literal["red", "green", "colored", "central", "edge"] | None = None
    direction: Literal["orthogonal", "diagonal", "any"] = "any"
    reaches: Literal["centre-and-edge", "opposite-sides", "opposite-corners"] | None = None
    isolated: bool = False


class TaskModel(BaseModel):
    model_config = STRICT

    id: str
    name: str
    type: Literal["destruction", "squares", "centre", "lines", "chains", "surround"]
    advanced: bool = False
    points: Annotated[int, Whole(1, 3)]
    conditions: list[ConditionModel] = Field(min_length=1)
    flavor: str = ""


@dataclass(frozen=True)
class Condition:
    kind: str
    count: int
    upgraded: int
    ranks: int
    area: int
    direction: tuple[int, ...]
    reaches: str | None
    isolated: bool
    text: str


@dataclass(frozen=True)
class Task:
    index: int
    id: str
    name: str
    type: str
    advanced: bool
    points: int
    conditions: tuple[Condition, ...]
    text: str
    data: str = ""  # the task's data as the file writes it (``model_text``): what the balance report compares


@dataclass(frozen=True)
class TaskSet:
    file: str
    tasks: tuple[Task, ...]
    by_id: dict[str, Task]


def _rank_word(rank: str) -> str:
    return "" if rank == "any" else f"{rank} "


def condition_text(m: ConditionModel) -> str:
    """Plain words for a condition."""
    r = _rank_word(m.rank)
    area = {"colored": "coloured", None: ""}.get(m.area, m.area)
    if m.kind == "destroyed":
        extra = f", at least {m.upgraded} of them upgraded" if m.upgraded else ""
        return f"this turn you destroyed {m.count}+ enemy pieces{extra}"
    if m.kind == "occupy":
        return f"{m.count}+ of your {r}pieces stand on {area} squares"
    if m.kind == "summoned":
        return f"this turn you summoned {m.count}+ {r}being(s) on {area} squares"
    if m.kind == "cross":
        return f"your pieces stand on e5 ({r or 'any '}piece) and on d5, f5, e4 and e6"
    if m.kind == "line":
        way = {"orthogonal": "a row or column", "diagonal": "a diagonal", "any": "a straight line"}[m.direction]
        return f"{m.count} of your {r}pieces stand unbroken in {way}"
    if m.kind == "chain":
        what = {
            "centre-and-edge": "joins e5 to an edge square",
            "opposite-sides": "joins two opposite sides of the board",
            "opposite-corners": "joins two opposite corners (their cut edges)",
            None: f"has {m.count}+ pieces",
        }[m.reaches]
        return f"one group of your adjacent pieces {what}"
    iso = ", with no piece of its own colour next to it" if m.isolated else ""
    return f"an enemy {r}piece has {m.count}+ of your pieces on its adjacent squares{iso}"


def _compile(m: ConditionModel, *, file: str, task: str, i: int) -> Condition:
    if m.kind in ("occupy", "summoned") and m.area is None:
        raise CardDataError(file, f"a {m.kind} condition needs an area", card=task, field=f"conditions[{i}].area")
    if m.kind == "destroyed" and m.upgraded > m.count:
        raise CardDataError(file, "upgraded cannot exceed count", card=task, field=f"conditions[{i}].upgraded")
    if m.kind == "surround" and m.count > 8:
        raise CardDataError(file, "a piece has at most 8 adjacent squares", card=task, field=f"conditions[{i}].count")
    if m.kind == "line" and m.count > SIZE:
        raise CardDataError(file, "a line has at most 9 squares", card=task, field=f"conditions[{i}].count")
    return Condition(
        kind=m.kind,
        count=m.count,
        upgraded=m.upgraded,
        ranks=RANK_FILTERS[m.rank],
        area=AREAS[m.area] if m.area else 0,
        direction=DIRECTIONS[m.direction],
        reaches=m.reaches,
        isolated=m.isolated,
        text=condition_text(m),
    )


def default_task_path() -> str:
    return str(resources.files(__name__.rsplit(".", 2)[0]).joinpath("data", DEFAULT_TASK_FILE))


def load_tasks(path: str | None = None) -> TaskSet:
    file = path or default_task_path()
    return _build_once(file, read_text(file))


@lru_cache(maxsize=16)
def _build_once(file: str, text: str) -> TaskSet:
    """The task set of one file content: the file is read on every load, and built again whenever it changed."""
    return build_tasks(parse_toml(text, file), file=file)


def build_tasks(raw: dict[str, Any], *, file: str) -> TaskSet:
    unknown = set(raw) - {"task"}
    if unknown:
        raise CardDataError(file, f"unknown top-level table {sorted(unknown)[0]!r} (expected task)")
    items = raw.get("task", [])
    if not isinstance(items, list) or not items:
        raise CardDataError(file, "the file needs at least one [[task]]")
    tasks: list[Task] = []
    by_id: dict[str, Task] = {}
    for data in items:
        tid = str(data.get("id", "?")) if isinstance(data, dict) else "?"
        m = validate(TaskModel, data, file=file, card=tid, what="a task")
        if not SLUG.match(m.id):
            raise CardDataError(file, "an id is lowercase letters, digits and single hyphens", card=m.id, field="id")
        if m.id in by_id:
            raise CardDataError(file, "two tasks have this id", card=m.id, field="id")
        conds = tuple(_compile(c, file=file, task=m.id, i=i) for i, c in enumerate(m.conditions))
        level = "advanced" if m.advanced else "simple"
        text = f"[{m.type}, {level}, {m.points} pt] " + "; and ".join(c.text for c in conds)
        t = Task(len(tasks), m.id, m.name, m.type, m.advanced, m.points, conds, text, model_text(m))
        tasks.append(t)
        by_id[t.id] = t
    simple = [t for t in tasks if not t.advanced]
    if len(simple) < 3 or len({t.type for t in simple}) < 2:
        raise CardDataError(file, "High Form needs at least 3 simple tasks of at least 2 types", field="advanced")
    return TaskSet(file, tuple(tasks), by_id)
