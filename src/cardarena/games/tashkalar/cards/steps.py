"""Compiling effect steps: the card language's tables (``StepModel``) checked and turned into :class:`Step`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....engine import CardDataError
from .data import ALL, ANY, COMMON, ENEMY, PIECE_OPS, RANK_FILTERS, RANK_OF, WHO, Cond, Step
from .model import ConditionModel, FilterModel, StepModel
from .text import step_text

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
