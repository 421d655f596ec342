"""The terminal's grouped menu: ``choice_label(state, action) -> (group, detail)``.

A decision of Tash-Kalar can list hundreds of actions (67 ``place`` squares, a summon per placement and
orientation, 400-odd ``move`` pairs of a teleport). The menu shows one line per group and the details inside it:

- ``place``, ``choose``, ``recall``, ``setup``: one group while it has at most :data:`MAX_DETAILS` squares, else one
  group per two ranks of the board (``place ranks 5-6``), so that neither the groups nor a group's squares run
  off the screen;
- ``summon <Being>``: one group per being (improvised summons of melee apart), the placement as the detail, with
  the squares the pattern uses and what stands on the summon square;
- ``move <square>``: one group per piece that may move (per rank of the board when more than :data:`MAX_DETAILS`
  pieces may), the destination as the detail;
- ``discard``, ``bottom``, ``take``, ``claim``, ``score``, ``option``: one group each, the card, task, colour or
  option as the detail; ``flare <Flare>`` one group per flare (melee: the opponent as the detail); the words
  (``end``, ``skip``, ``resign``, ``handover``) a group each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..board import SQ_NAME, bits, sq_y
from ..cards.data import RANK_NAMES
from ..constants import EFFECT, Kind
from ..rules.effects import current_step

if TYPE_CHECKING:
    from ..state import TashKalarState

#: the most details a group of squares holds before it is split by ranks of the board
MAX_DETAILS = 20
SQUARE_KINDS = (Kind.PLACE, Kind.CHOOSE, Kind.RECALL, Kind.SETUP)


def rank_band(sq: int) -> str:
    """The two ranks of the board ``sq`` lies in, as a group name's tail: ``ranks 5-6`` (``rank 9`` alone)."""
    y = sq_y(sq)
    lo = y - y % 2
    return f"rank {lo + 1}" if lo == 8 else f"ranks {lo + 1}-{lo + 2}"


def _group_key(action: Action) -> tuple[object, ...]:
    """The natural group of an action before any split: its kind, and its card or moving piece."""
    kind = action[0]
    if kind == Kind.SUMMON:
        return (kind, action[1], len(action))
    if kind == Kind.MOVE:
        return (kind, action[1])
    return (kind,)


_sizes: tuple[object, dict[tuple[object, ...], int], int] = (None, {}, 0)


def _size(st: TashKalarState, action: Action) -> tuple[int, int]:
    """How many legal actions share ``action``'s natural group, and how many pieces may move (cached per list)."""
    global _sizes
    legal = st.legal_actions()
    if _sizes[0] is not legal:
        sizes: dict[tuple[object, ...], int] = {}
        for a in legal:
            k = _group_key(a)
            sizes[k] = sizes.get(k, 0) + 1
        movers = sum(1 for k in sizes if k[0] == Kind.MOVE)
        _sizes = (legal, sizes, movers)
    return _sizes[1].get(_group_key(action), 0), _sizes[2]


def colour_name(st: TashKalarState, colour: int) -> str:
    """Who plays ``colour``: ``seat 1`` (a colour is a seat outside team games), ``team 0 (seats 0+2)``."""
    if st.game.teams:
        return f"team {colour} (seats {colour}+{colour + 2})"
    return f"seat {colour}"


def piece_name(st: TashKalarState, cell: int) -> str:
    """``heroic of seat 1``: a board cell's piece."""
    return f"{RANK_NAMES[cell & 3]} of {colour_name(st, cell >> 2)}"


def summon_squares(st: TashKalarState, action: Action) -> tuple[int, int]:
    """``(being square, mask of the pattern's other squares)`` of a summon action."""
    card = st.game.cards.by_id[action[1]]
    sq = action[2]
    orient = next(o for o in card.orients if o.name == action[3])
    mask = 0
    for shift, _ in orient.reqs:
        mask |= 1 << (sq + shift)
    return sq, mask & ~(1 << sq)


def summon_detail(st: TashKalarState, action: Action) -> str:
    """``at e5 r90: being on e5, pattern on d4 e4 f4`` and what the being's piece destroys there."""
    sq, mask = summon_squares(st, action)
    squares = " ".join(SQ_NAME[s] for s in bits(mask))
    text = f"at {SQ_NAME[sq]} {action[3]}: being on {SQ_NAME[sq]}, pattern on {squares}"
    if len(action) == 5:
        text += f" (the enemy piece on {SQ_NAME[action[4]]} improvised as yours)"
    cell = st.board[sq]
    if cell:
        text += f"; destroys the {piece_name(st, cell)} on {SQ_NAME[sq]}"
    return text


def choice_label(st: TashKalarState, action: Action) -> tuple[str, str]:
    kind = action[0]
    cards = st.game.cards
    if kind == Kind.SUMMON:
        card = cards.by_id[action[1]]
        group = f"summon {card.name}" + (" (improvised)" if len(action) == 5 else "")
        if _size(st, action)[0] > MAX_DETAILS:
            group += f" on {rank_band(action[2])}"
        return group, summon_detail(st, action)
    if kind in SQUARE_KINDS:
        sq = action[1]
        detail = SQ_NAME[sq] + (f" for {colour_name(st, action[2])}" if kind == Kind.SETUP else "")
        if st.board[sq] and kind == Kind.CHOOSE:
            detail += f" ({piece_name(st, st.board[sq])})"
        if _size(st, action)[0] > MAX_DETAILS:
            return f"{kind} {rank_band(sq)}", detail
        return str(kind), detail
    if kind == Kind.MOVE:
        src, dst = action[1], action[2]
        victim = st.board[dst]
        to = f"to {SQ_NAME[dst]}" + (f" (destroys the {piece_name(st, victim)})" if victim else "")
        count, movers = _size(st, action)
        if movers > MAX_DETAILS:
            return f"move from {rank_band(src)}", f"{SQ_NAME[src]} {to}"
        group = f"move {SQ_NAME[src]} ({piece_name(st, st.board[src])})"
        # up to three pieces with many destinations: split by the destination's ranks; more pieces: one group each
        return (f"{group} to {rank_band(dst)}" if count > MAX_DETAILS and movers <= 3 else group), to
    if kind == Kind.FLARE:
        card = cards.by_id[action[1]]
        return f"flare {card.name}", f"against seat {action[2]}" if len(action) == 3 else ""
    if kind in (Kind.DISCARD, Kind.BOTTOM, Kind.TAKE):
        card = cards.by_id[action[1]]
        return str(kind), f"{card.name} ({card.id})"
    if kind == Kind.CLAIM:
        assert st.game.tasks is not None
        task = st.game.tasks.by_id[action[1]]
        return "claim", f"{task.name} ({task.points} pt)"
    if kind == Kind.SCORE:
        return "score", f"1 point in the colour of {colour_name(st, action[1])}"
    if kind == Kind.OPTION:
        if st.phase == EFFECT and st.frames:
            step = current_step(st)
            return "option", f"{action[1]}: " + " ".join(s.text for s in step.options[action[1] - 1])
        return "option", str(action[1])
    return str(action), ""
