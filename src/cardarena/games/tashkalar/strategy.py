"""A good player's rules of thumb (``Game.heuristic_action``) and a cheap evaluation (``Game.evaluate``), from a
seat's observation only: the board, the scores, the seat's own hand and the public piles. Never the true state.

Rules of thumb: summon rather than place (a legend first, a summon that destroys an enemy piece on its square
better still); place where a piece brings a being of the hand closest to its pattern; in an effect, destroy,
downgrade, convert and move onto the enemy's best pieces, upgrade your own; invoke a flare only when it pays (both
halves, or in High Form where it gives the opponent nothing); in High Form, steer placements, summons and effect
choices towards the current tasks (most of all an action that completes one; see "High Form tasks" below); claim
the richest task; in melee score in your lowest colour; never resign.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from ...engine import Action, Rng
from .board import ADJ, AREAS, CENTRAL, DIST, NAME_SQ, ONBOARD, SQUARES, bits, mask_of
from .cards.data import LEGENDARY, Card
from .cards.tasks import CORNERS, CROSS_ARMS, CROSS_CENTRE, OPPOSITE_SIDES, Condition, Task
from .constants import Kind

if TYPE_CHECKING:
    from .cards.data import CardSet
    from .cards.tasks import TaskSet
    from .game import TashKalarGame

#: what a piece is worth on the board, by rank (common, heroic, legendary)
WORTH = (0.0, 1.0, 2.5, 5.0)
ON_BOARD = frozenset(SQUARES)
#: points scored by destroying a piece of that rank (deathmatch, melee)
DESTROY_POINTS = (0.0, 0.5, 1.0, 2.0)


def colour_of(obs: dict[str, Any], seat: int) -> int:
    colours = obs.get("colour_of_seat")
    return int(colours[seat]) if colours else seat


def _board(obs: dict[str, Any]) -> dict[int, tuple[int, int]]:
    return {NAME_SQ[sq]: (owner, rank) for sq, (owner, rank) in obs["board"].items()}


# -- High Form tasks ---------------------------------------------------------------------------------------------
#
# How near a seat stands to each current task, read from the board: a condition's *missing* is a cheap estimate of
# the steps it still needs (0: it holds). A square a condition wants costs 0 when it holds a fitting piece of yours,
# 1 when it holds a lower piece of yours (an upgrade) or is empty (a placement; 2 when a common does not fit: place
# and upgrade, or summon), one more when an enemy stands there (destroy it first). A task is worth
# ``points / (1 + missing)``, and the richest task that holds now (claimed at the end of the turn) counts again.

#: weight of the task measure in the rule of thumb (per point of a task) and of a task that holds (claim)
TASK_WEIGHT = 5.0
CLAIM_WEIGHT = 2.5
#: share of the task measure ``evaluate`` counts as points in High Form: off, because measuring every colour's
#: tasks at each evaluation cost about a fifth of ISMCTS's iterations/s in High Form (1,230-1,270 without, 830-1,020
#: with 0.3, `bench_agent` at its 6 positions, loaded machine) for a gain in strength not measured
EVAL_TASK_WEIGHT = 0.0
#: what a condition out of reach costs
FAR = 9.0
#: the op of an effect's step, read from its text: the first of these verbs
_VERBS = ("destroy", "convert", "downgrade", "upgrade", "place")


@mypyc_attr(native_class=False)  # a Python class where compiled too: copy() makes a bare one with object.__new__
class _Sketch:
    """What the task conditions read, for one colour ``me``: its pieces by rank, the others' pieces, and (its turn)
    the enemy pieces destroyed and the beings summoned this turn. Cheap to copy and change for one action."""

    __slots__ = ("destroyed", "destroyed_up", "enemy", "enemy_by_colour", "me", "my_turn", "own", "summoned")

    def __init__(self, obs: dict[str, Any], me: int) -> None:
        self.me = me
        self.own = [0, 0, 0, 0]  # by rank 1-3
        n = max(len(obs["score"]), me + 1)
        self.enemy_by_colour = [[0, 0, 0, 0] for _ in range(n)]
        for name, (owner, rank) in obs["board"].items():
            bit = 1 << NAME_SQ[name]
            if owner == me:
                self.own[rank] |= bit
            else:
                self.enemy_by_colour[owner][rank] |= bit
        self.enemy = [0, 0, 0, 0]
        for o, masks in enumerate(self.enemy_by_colour):
            if o != me:
                for r in (1, 2, 3):
                    self.enemy[r] |= masks[r]
        turn_colour = colour_of(obs, obs.get("turn_seat", obs["player"]))
        self.my_turn = turn_colour == me
        self.destroyed = self.destroyed_up = 0
        self.summoned: list[tuple[int, int]] = []
        if self.my_turn:
            dest = obs["destroyed_by_colour"]
            for o in range(len(dest) // 3):
                if o != me:
                    self.destroyed += dest[3 * o] + dest[3 * o + 1] + dest[3 * o + 2]
                    self.destroyed_up += dest[3 * o + 1] + dest[3 * o + 2]
            for rank, squares in enumerate(obs.get("summoned_this_turn", ()), start=1):
                self.summoned.extend((NAME_SQ[s], rank) for s in squares)

    def copy(self) -> _Sketch:
        new = object.__new__(_Sketch)
        new.me = self.me
        new.own = self.own.copy()
        new.enemy = self.enemy.copy()
        new.enemy_by_colour = [m.copy() for m in self.enemy_by_colour]
        new.destroyed, new.destroyed_up = self.destroyed, self.destroyed_up
        new.summoned = self.summoned.copy()
        new.my_turn = self.my_turn
        return new

    def piece(self, sq: int) -> tuple[int, int] | None:
        bit = 1 << sq
        for r in (1, 2, 3):
            if self.own[r] & bit:
                return self.me, r
        for o, masks in enumerate(self.enemy_by_colour):
            for r in (1, 2, 3):
                if o != self.me and masks[r] & bit:
                    return o, r
        return None

    def remove(self, sq: int, destroyed: bool) -> tuple[int, int] | None:
        found = self.piece(sq)
        if found is not None:
            owner, rank = found
            keep = ~(1 << sq)
            if owner == self.me:
                self.own[rank] &= keep
            else:
                self.enemy[rank] &= keep
                self.enemy_by_colour[owner][rank] &= keep
                if destroyed and self.my_turn:
                    self.destroyed += 1
                    self.destroyed_up += rank >= 2
        return found

    def put(self, sq: int, owner: int, rank: int) -> None:
        self.remove(sq, destroyed=True)
        bit = 1 << sq
        if owner == self.me:
            self.own[rank] |= bit
        else:
            self.enemy[rank] |= bit
            self.enemy_by_colour[owner][rank] |= bit


def _masks(sk: _Sketch, ranks: int) -> tuple[int, int, int, int]:
    """The squares of a condition with rank filter ``ranks``: your fitting pieces, your other pieces, the empty
    squares and the enemy pieces."""
    own = sk.own
    fit = (own[1] if ranks & 2 else 0) | (own[2] if ranks & 4 else 0) | (own[3] if ranks & 8 else 0)
    mine = own[1] | own[2] | own[3]
    enemy = sk.enemy[1] | sk.enemy[2] | sk.enemy[3]
    return fit, mine & ~fit, ONBOARD & ~(mine | enemy), enemy


def _cost(squares: int, ranks: int, fit: int, lower: int, empty: int, enemy: int) -> float:
    """The steps to have fitting pieces of yours on all of ``squares``."""
    place = 1 if ranks & 2 else 2
    return (
        (squares & lower).bit_count()
        + place * (squares & empty).bit_count()
        + (place + 1) * (squares & enemy).bit_count()
    )


def _missing_occupy(sk: _Sketch, c: Condition) -> float:
    fit, lower, empty, enemy = _masks(sk, c.ranks)
    need = c.count - (fit & c.area).bit_count()
    if need <= 0:
        return 0.0
    place = 1 if c.ranks & 2 else 2
    costs = [1] * (lower & c.area).bit_count() + [place] * (empty & c.area).bit_count()
    costs += [place + 1] * (enemy & c.area).bit_count()
    return float(sum(sorted(costs)[:need])) if len(costs) >= need else FAR


def _missing_cross(sk: _Sketch, c: Condition) -> float:
    fit, lower, empty, enemy = _masks(sk, c.ranks)
    arms = _masks(sk, 0b1110)
    return _cost(1 << CROSS_CENTRE, c.ranks, fit, lower, empty, enemy) + _cost(CROSS_ARMS, 0b1110, *arms)


def _line_costs(sk: _Sketch, c: Condition) -> list[tuple[int, int]]:
    """Each run of squares that would make the line, with its cost (``_cost``, written out: the hot loop)."""
    _, lower, empty, enemy = _masks(sk, c.ranks)
    place = 1 if c.ranks & 2 else 2
    return [
        ((w & lower).bit_count() + place * (w & empty).bit_count() + (place + 1) * (w & enemy).bit_count(), w)
        for w in _windows(c.direction, c.count)
    ]


def _missing_line(sk: _Sketch, c: Condition) -> float:
    return float(min(_line_costs(sk, c), default=(FAR, 0))[0])


def _missing_chain(sk: _Sketch, c: Condition) -> float:
    mine = sk.own[1] | sk.own[2] | sk.own[3]
    groups = _groups(mine)
    if c.reaches is None:
        return float(max(0, c.count - max((g.bit_count() for g in groups), default=0)))
    best = float(_chain_targets(c.reaches)[0])
    for pair in _chain_targets(c.reaches)[1]:
        for g in groups:
            gap = sum(min(d[s] for s in bits(g)) for d in pair)
            best = min(best, float(gap))
    return best


def _missing_surround(sk: _Sketch, c: Condition) -> float:
    mine = sk.own[1] | sk.own[2] | sk.own[3]
    empty = ONBOARD & ~(mine | sk.enemy[1] | sk.enemy[2] | sk.enemy[3])
    best = FAR
    for o, masks in enumerate(sk.enemy_by_colour):
        if o == sk.me:
            continue
        theirs = masks[1] | masks[2] | masks[3]
        victims = (masks[1] if c.ranks & 2 else 0) | (masks[2] if c.ranks & 4 else 0) | (masks[3] if c.ranks & 8 else 0)
        for s in bits(victims):
            adj = ADJ[s]
            need = c.count - (adj & mine).bit_count()
            blockers = (adj & theirs).bit_count() if c.isolated else 0
            if need - (adj & empty).bit_count() > blockers:
                continue  # too few free squares around it
            best = min(best, max(0, need) + 2 * blockers)
    return best


def _missing_this_turn(sk: _Sketch, c: Condition) -> float:
    if c.kind == "destroyed":
        done, up = (sk.destroyed, sk.destroyed_up) if sk.my_turn else (0, 0)
        return float(max(0, c.count - done, c.upgraded - up))
    n = sum(1 for sq, rank in sk.summoned if c.ranks >> rank & 1 and c.area >> sq & 1) if sk.my_turn else 0
    return float(max(0, c.count - n))


_MISSING = {
    "destroyed": _missing_this_turn,
    "summoned": _missing_this_turn,
    "occupy": _missing_occupy,
    "cross": _missing_cross,
    "line": _missing_line,
    "chain": _missing_chain,
    "surround": _missing_surround,
}


def _placed_line(sk: _Sketch, c: Condition, sq: int, before: float) -> float:
    """A line's missing once a common of yours stands on the empty ``sq``: each run through ``sq`` costs one less
    (a fitting piece, or a lower one to upgrade, instead of an empty square); the other runs are unchanged."""
    _, lower, empty, enemy = _masks(sk, c.ranks)
    place = 1 if c.ranks & 2 else 2
    best = before
    for w in _windows_at(c.direction, c.count).get(sq, ()):
        cost = (w & lower).bit_count() + place * (w & empty).bit_count() + (place + 1) * (w & enemy).bit_count() - 1
        best = min(best, cost)
    return best


def _placed_chain(sk: _Sketch, c: Condition, sq: int, before: float) -> float:
    """A chain's missing once a common of yours stands on the empty ``sq``: only the group it joins changes."""
    mine = sk.own[1] | sk.own[2] | sk.own[3] | 1 << sq
    group = frontier = 1 << sq
    while frontier:
        grown = 0
        for s in bits(frontier):
            grown |= ADJ[s]
        frontier = grown & mine & ~group
        group |= frontier
    if c.reaches is None:
        return min(before, float(max(0, c.count - group.bit_count())))
    squares = bits(group)
    gaps = (min(da[s] for s in squares) + min(db[s] for s in squares) for da, db in _chain_targets(c.reaches)[1])
    return min(before, float(min(gaps)))


def task_missing(sk: _Sketch, task: Task) -> float:
    """The steps a task still needs for the sketch's colour (0: it holds)."""
    return sum(condition_missing(sk, task))


def condition_missing(sk: _Sketch, task: Task) -> list[float]:
    return [_MISSING[c.kind](sk, c) for c in task.conditions]


def placed_missing(sk: _Sketch, after: _Sketch, task: Task, sq: int, before: list[float]) -> float:
    """``task_missing(after)`` where ``after`` is ``sk`` with one more common of yours on the empty ``sq`` (and
    ``before`` the missing of each condition on ``sk``): lines and chains look at the runs and the group through
    ``sq`` only."""
    total = 0.0
    for c, m in zip(task.conditions, before, strict=True):
        if c.kind == "line":
            total += _placed_line(sk, c, sq, m)
        elif c.kind == "chain":
            total += _placed_chain(sk, c, sq, m)
        else:
            total += _MISSING[c.kind](after, c)
    return total


def task_measure(tasks: list[Task], missing: list[float]) -> float:
    """``sum(points / (1 + missing))`` over the tasks, plus ``CLAIM_WEIGHT`` times the richest task that holds."""
    total = sum(t.points / (1.0 + m) for t, m in zip(tasks, missing, strict=True))
    return total + CLAIM_WEIGHT * max((t.points for t, m in zip(tasks, missing, strict=True) if m == 0), default=0)


def placement_reach(sk: _Sketch, task: Task) -> int:
    """The squares where one more common of yours may bring ``task`` nearer (elsewhere a placement changes nothing
    it reads): the area of ``occupy``, the cross, the cheapest runs of a line, the squares next to your pieces
    (chains: everywhere when a new group could be the start) and next to enemy pieces (surround)."""
    reach = 0
    for c in task.conditions:
        if c.kind == "occupy":
            reach |= c.area
        elif c.kind == "cross":
            reach |= CROSS_ARMS | 1 << CROSS_CENTRE
        elif c.kind == "line":
            costs = _line_costs(sk, c)
            best = min(costs, default=(FAR, 0))[0]
            for cost, w in costs:
                if cost == best:
                    reach |= w
        elif c.kind == "chain":
            mine = sk.own[1] | sk.own[2] | sk.own[3]
            if c.reaches is not None or not mine:
                return ONBOARD
            for s in bits(mine):
                reach |= ADJ[s]
        elif c.kind == "surround":
            for s in bits(sk.enemy[1] | sk.enemy[2] | sk.enemy[3]):
                reach |= ADJ[s]
    return reach


@lru_cache(maxsize=32)
def _windows_at(steps: tuple[int, ...], count: int) -> dict[int, tuple[int, ...]]:
    """The runs of ``_windows`` through each square."""
    out: dict[int, list[int]] = {}
    for w in _windows(steps, count):
        for s in bits(w):
            out.setdefault(s, []).append(w)
    return {s: tuple(ws) for s, ws in out.items()}


@lru_cache(maxsize=32)
def _windows(steps: tuple[int, ...], count: int) -> tuple[int, ...]:
    """Every run of ``count`` board squares in a straight line along one of ``steps``, as a bit set."""
    out = []
    for s in SQUARES:
        for step in steps:
            run = [s + k * step for k in range(count)]
            if all(sq in ON_BOARD for sq in run):  # rows are 16 wide: a run off the side leaves the board
                out.append(mask_of(run))
    return tuple(out)


#: for a ``reaches`` chain: each pair of areas to join, as the distance of every square to each of the two areas
_Targets = tuple[tuple[dict[int, int], dict[int, int]], ...]


@lru_cache(maxsize=8)
def _chain_targets(reaches: str) -> tuple[int, _Targets]:
    """For a ``reaches`` chain: the pieces it needs on an empty board, and for each pair of areas to join the
    distance of every square to each of the two areas."""
    if reaches == "centre-and-edge":
        pairs: tuple[tuple[int, int], ...] = ((1 << CROSS_CENTRE, AREAS["edge"]),)
    else:
        pairs = OPPOSITE_SIDES if reaches == "opposite-sides" else CORNERS
    out: list[tuple[dict[int, int], dict[int, int]]] = []
    for a, b in pairs:
        da = {s: min(DIST[s][t] for t in bits(a)) for s in SQUARES}
        db = {s: min(DIST[s][t] for t in bits(b)) for s in SQUARES}
        out.append((da, db))
    empty = min(da[s] + db[s] + 1 for da, db in out for s in SQUARES)
    return empty, tuple(out)


def _groups(mask: int) -> list[int]:
    """The groups of pieces of ``mask`` joined through adjacent squares."""
    out = []
    while mask:
        group = frontier = mask & -mask
        while frontier:
            grown = 0
            for s in bits(frontier):
                grown |= ADJ[s]
            frontier = grown & mask & ~group
            group |= frontier
        out.append(group)
        mask &= ~group
    return out


# -- evaluate ----------------------------------------------------------------------------------------------------


def evaluate(obs: dict[str, Any], seat: int, tasks: TaskSet | None = None) -> float:
    """How well ``seat`` stands, in [-1, 1]: points ahead of the best opponent (with this turn's destroyed pieces
    counted for the turn's colour) and the pieces on the board, weighted by rank; in High Form a little of each
    colour's nearness to the current tasks (``EVAL_TASK_WEIGHT`` of ``points / (1 + missing)``)."""
    if obs.get("result") is not None:
        return float(obs["result"][seat])
    me = colour_of(obs, seat)
    board = _board(obs)
    colours = sorted({owner for owner, _ in board.values()} | {me} | set(range(len(obs["score"]))))
    material = dict.fromkeys(colours, 0.0)
    for owner, rank in board.values():
        material[owner] = material.get(owner, 0.0) + WORTH[rank]
    if "colour_scores" in obs:  # melee: a player's score is their lowest colour
        rows = obs["colour_scores"]
        points = {c: min(v for o, v in enumerate(rows[c]) if o != c) for c in range(len(rows))}
        scale = 4.0
    elif "points" in obs:  # High Form: tasks and legendary pieces on the board
        points = dict(enumerate(obs["points"]))
        current = _current_tasks(tasks, obs)
        if current and EVAL_TASK_WEIGHT:
            for c in list(points):
                sk = _Sketch(obs, c)
                points[c] += EVAL_TASK_WEIGHT * sum(t.points / (1.0 + task_missing(sk, t)) for t in current)
        scale = 3.0
    else:
        points = dict(enumerate(obs["score"]))
        dc, dh, dl = obs["destroyed_this_turn"]
        turn_colour = colour_of(obs, obs.get("turn_seat", obs["player"]))
        points[turn_colour] = points.get(turn_colour, 0) + 2 * dl + dh + dc / 2
        scale = 5.0
    others = [c for c in points if c != me]
    best = max(others, key=lambda c: points[c] + 0.15 * material.get(c, 0.0))
    edge = points[me] - points[best] + 0.15 * (material.get(me, 0.0) - material.get(best, 0.0))
    return math.tanh(edge / scale)


# -- heuristic_action --------------------------------------------------------------------------------------------


def _progress_map(cards: CardSet, obs: dict[str, Any], seat: int) -> tuple[dict[int, float], dict[str, float]]:
    """For each empty square, how much one more common of ``seat`` there brings a being of the hand towards its
    pattern (the best fraction of a placement's squares that would then hold a fitting piece, more when it makes
    the pattern whole); and for each card of the hand, the best such progress (0: out of reach of two commons)."""
    me = colour_of(obs, seat)
    board = _board(obs)
    own = {sq: rank for sq, (owner, rank) in board.items() if owner == me}
    hand = [cards.by_id[c] for c in (*obs["hand"]["beings"], *obs["hand"]["legends"])]
    best: dict[int, float] = {}
    per_card: dict[str, float] = {}
    for card in hand:
        per_card.setdefault(card.id, 0.0)
        for o in card.orients:
            reqs = o.reqs
            n = len(reqs) + (1 if o.summon_req else 0)
            for anchor in SQUARES:
                missing: list[int] = []
                ok = 0
                for shift, r in reqs:
                    sq = anchor + shift
                    if own.get(sq, 0) >= r:
                        ok += 1
                    elif r == 1 and sq not in board and sq in ON_BOARD:
                        missing.append(sq)
                    else:
                        missing = []
                        ok = -99
                        break
                if ok < 0 or not 1 <= len(missing) <= 2:
                    continue
                frac = (ok + 1) / n + (0.5 if len(missing) == 1 else 0.0) + 0.1 * card.rank
                per_card[card.id] = max(per_card[card.id], frac)
                for sq in missing:
                    if frac > best.get(sq, 0.0):
                        best[sq] = frac
    return best, per_card


def _square_bonus(sq: int) -> float:
    return 0.15 * (CENTRAL >> sq & 1) + 0.1 * ((AREAS["red"] | AREAS["green"]) >> sq & 1)


def _flare_pays(card: Card, obs: dict[str, Any], seat: int, against: int | None) -> float:
    me = colour_of(obs, seat)
    board = _board(obs)
    ups: dict[int, int] = {}
    pcs: dict[int, int] = {}
    for owner, rank in board.values():
        pcs[owner] = pcs.get(owner, 0) + 1
        ups[owner] = ups.get(owner, 0) + (rank >= 2)
    up = low = False
    for o in (against,) if against is not None else set(pcs) - {me}:
        if o is None or o == me:
            continue
        up = up or ups.get(o, 0) - ups.get(me, 0) >= card.upper
        low = low or pcs.get(o, 0) - pcs.get(me, 0) >= card.lower
    gain = 1.5 * up + 1.5 * low
    cost = 0.0 if "points" in obs else 1.0  # High Form: the opponent scores nothing
    return gain - cost - 0.4


def _effect_choice_value(action: Action, obs: dict[str, Any], seat: int, board: dict[int, tuple[int, int]]) -> float:
    """An effect's choice: hurt the enemy's best pieces, help your own, and stop (``skip``) rather than hurt
    yourself."""
    me = colour_of(obs, seat)
    step = (obs.get("effect") or {}).get("step", "")
    helps = any(w in step for w in ("Upgrade", "upgrade", "Place", "place"))
    kind = action[0]
    if kind == Kind.CHOOSE:
        piece = board.get(action[1])
        if piece is None:
            return 0.2 + _square_bonus(action[1])
        owner, rank = piece
        if helps:
            return (1.0 + WORTH[rank]) if owner == me else -1.0 - WORTH[rank]
        return (1.0 + WORTH[rank] + DESTROY_POINTS[rank]) if owner != me else -1.0 - WORTH[rank]
    if kind == Kind.MOVE:
        victim = board.get(action[2])
        value = _square_bonus(action[2])
        if victim is not None:
            owner, rank = victim
            value += (1.0 + WORTH[rank] + DESTROY_POINTS[rank]) if owner != me else -1.0 - WORTH[rank]
        mover = board.get(action[1])
        if mover is not None and mover[0] != me:
            value = -value  # moving an enemy piece: the reverse
        return value
    if kind == Kind.SKIP:
        return 0.0
    if kind == Kind.OPTION:
        return 0.1 / action[1]
    return 0.05


def _current_tasks(tasks: TaskSet | None, obs: dict[str, Any]) -> list[Task]:
    """High Form: the current tasks of the observation (none in the other modes)."""
    if tasks is None or not obs.get("tasks"):
        return []
    return [tasks.by_id[t] for t in obs["tasks"]]


class _TaskProgress:
    """High Form: how much an action brings the seat towards the current tasks: ``TASK_WEIGHT`` times the change
    of ``task_measure`` when the action's piece is put on (or taken off) a sketch of the board. Placements,
    summons (the being's own square; not its effect) and an effect's choices (destroy, convert, upgrade,
    downgrade, place, move) count; other actions change nothing here. Each distinct outcome is measured once."""

    def __init__(self, game: TashKalarGame, obs: dict[str, Any], seat: int, board: dict[int, tuple[int, int]]) -> None:
        self.tasks = _current_tasks(game.tasks, obs)
        if not self.tasks:
            return
        self.cards = game.cards
        self.board = board
        self.sketch = _Sketch(obs, colour_of(obs, seat))
        self.by_condition = [condition_missing(self.sketch, t) for t in self.tasks]
        self.missing = [sum(ms) for ms in self.by_condition]
        self.base = task_measure(self.tasks, self.missing)
        self.reach = [placement_reach(self.sketch, t) for t in self.tasks]
        step = str((obs.get("effect") or {}).get("step") or "").lower()
        found = [(step.find(v), v) for v in _VERBS if v in step]
        self.op = min(found)[1] if found else ""
        self.seen: dict[tuple[Any, ...], float] = {}

    def gain(self, a: Action) -> float:
        key = self._outcome(a)
        if key is None:
            return 0.0
        if key not in self.seen:
            if a[0] == Kind.PLACE:  # only the tasks the square can help are measured again
                sq = a[1]
                if not any(r >> sq & 1 for r in self.reach):
                    self.seen[key] = 0.0
                    return 0.0
                after = self._after(key)
                missing = [
                    placed_missing(self.sketch, after, t, sq, ms) if r >> sq & 1 else m
                    for t, m, ms, r in zip(self.tasks, self.missing, self.by_condition, self.reach, strict=True)
                ]
            else:
                after = self._after(key)
                missing = [task_missing(after, t) for t in self.tasks]
            self.seen[key] = TASK_WEIGHT * (task_measure(self.tasks, missing) - self.base)
        return self.seen[key]

    def _outcome(self, a: Action) -> tuple[Any, ...] | None:
        """What the action does to the board, as a key: ("put", square, owner, rank, summoned) (destroying what
        stands there), ("rank", square, owner, rank) (an upgrade or downgrade), ("destroy", square) or ("move",
        from, to); None when it changes nothing the tasks read."""
        kind = a[0]
        me = self.sketch.me
        if kind == Kind.PLACE:
            return ("put", a[1], me, 1, False)
        if kind == Kind.SUMMON and len(a) == 4:
            return ("put", a[2], me, self.cards.by_id[a[1]].rank, True)
        if kind == Kind.MOVE:
            return ("move", a[1], a[2])
        if kind != Kind.CHOOSE or not self.op:
            return None
        piece = self.board.get(a[1])
        if piece is None:
            return ("put", a[1], me, 1, False) if self.op == "place" else None
        owner, rank = piece
        if self.op == "destroy":
            return ("destroy", a[1])
        if self.op == "convert":
            return ("put", a[1], me, rank, False)
        if self.op in ("upgrade", "downgrade"):
            return ("rank", a[1], owner, max(1, min(3, rank + (1 if self.op == "upgrade" else -1))))
        return None

    def _after(self, key: tuple[Any, ...]) -> _Sketch:
        sk = self.sketch.copy()
        if key[0] == "put":
            _, sq, owner, rank, summoned = key
            sk.put(sq, owner, rank)
            if summoned and sk.my_turn:
                sk.summoned.append((sq, rank))
        elif key[0] == "rank":
            _, sq, owner, rank = key
            sk.remove(sq, destroyed=False)
            sk.put(sq, owner, rank)
        elif key[0] == "destroy":
            sk.remove(key[1], destroyed=True)
        else:
            piece = sk.remove(key[1], destroyed=False)
            if piece is not None:
                sk.put(key[2], *piece)
        return sk


def heuristic_action(game: TashKalarGame, obs: dict[str, Any], legal: list[Action], seat: int, rng: Rng) -> Action:
    cards = game.cards
    phase = obs["phase"]
    board = _board(obs)
    me = colour_of(obs, seat)
    scored: list[tuple[float, int, Action]] = []
    progress: tuple[dict[int, float], dict[str, float]] | None = None
    towards = _TaskProgress(game, obs, seat, board)
    for i, a in enumerate(legal):
        kind = a[0]
        value = 0.0
        if kind == Kind.RESIGN:
            value = -100.0
        elif kind == Kind.SUMMON:
            card = cards.by_id[a[1]]
            value = 4.0 + 1.5 * card.rank + (2.0 if card.rank == LEGENDARY else 0.0)
            victim = board.get(a[2])
            if victim is not None:
                owner, rank = victim
                value += 1.0 + DESTROY_POINTS[rank] if owner != me else -0.5 * WORTH[rank]
            if len(a) == 5:
                value -= 0.5  # an improvised summon uses up a colour
        elif kind == Kind.PLACE and phase in ("main", "recall-place"):
            if progress is None:
                progress = _progress_map(cards, obs, seat)
            value = 1.0 + progress[0].get(a[1], 0.0) + _square_bonus(a[1])
        elif kind == Kind.FLARE:
            value = _flare_pays(cards.by_id[a[1]], obs, seat, a[2] if len(a) == 3 else None)
        elif kind == Kind.DISCARD:
            # a being out of reach of the pieces you can place: discard it to draw another at the end of the turn
            if progress is None:
                progress = _progress_map(cards, obs, seat)
            reach = progress[1].get(a[1], 0.0)
            supply = obs["supply_two_sided"][me]
            value = (2.2 if reach == 0.0 else 1.0 - reach) + (1.0 if supply <= 2 else 0.0)
        elif kind == Kind.END:
            value = -1.0
        elif kind == Kind.CLAIM:
            value = 10.0 + (game.tasks.by_id[a[1]].points if game.tasks is not None else 0)
        elif kind == Kind.SCORE:
            rows = obs.get("colour_scores")
            value = -rows[seat][a[1]] if rows else 0.0
        elif kind == Kind.BOTTOM:
            value = -1.0
        elif kind == Kind.TAKE:
            value = 1.0 + cards.by_id[a[1]].rank
        elif phase == "effect":
            value = _effect_choice_value(a, obs, seat, board)
        if towards.tasks:
            value += towards.gain(a)
        scored.append((value + rng.random() * 1e-3, -i, a))
    return max(scored)[2]
