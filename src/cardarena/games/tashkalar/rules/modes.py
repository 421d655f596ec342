"""The rules that differ between the modes: High Form tasks, free-for-all (melee) scoring and setup, the end
triggers and the final ranking. The state calls these; they read and change the state's fields directly."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Action
from ..actions import card_action, setup_action
from ..board import _sq
from .pieces import count_pieces, count_upgraded, put
from .tasks import task_holds

if TYPE_CHECKING:
    from ..cards.tasks import TaskSet
    from ..state import TashKalarState

# 乱戦 setup: the last seat puts one common on one square of each pair (next to each setup icon)
MELEE_SETUP_PAIRS = ((_sq(6, 2), _sq(7, 2)), (_sq(7, 6), _sq(7, 7)), (_sq(2, 7), _sq(3, 7)))


# -- High Form tasks ---------------------------------------------------------------------------------------------


def _type(st: TashKalarState, t: int) -> str:
    assert st.game.tasks is not None
    return st.game.tasks.tasks[t].type


def deal_tasks(st: TashKalarState) -> None:
    """The 3 current tasks and the next task, by the rulebook's procedure.

    Tasks are turned one by one; advanced tasks are discarded until 3 simple tasks are face up; a third task of
    the same type as the first two is discarded too. The discarded tasks are shuffled back into the deck.
    """
    assert st.game.tasks is not None
    deck = [t.index for t in st.game.tasks.tasks]
    st.rng.shuffle(deck)
    current, put_back = turn_tasks(st.game.tasks, deck)
    deck.extend(put_back)
    st.rng.shuffle(deck)
    st.deck_t = deck
    st.cur_t = current
    st.t_bottom = 0
    flip_next(st)


def turn_tasks(tasks: TaskSet, deck: list[int]) -> tuple[list[int], list[int]]:
    """Turn tasks from the end of ``deck`` (taken off it) until 3 simple tasks of at most two of one type are face
    up: those 3, and the tasks turned and put aside (advanced ones, a third of one type), in the order turned."""
    ts = tasks.tasks
    current: list[int] = []
    put_back: list[int] = []
    while len(current) < 3 and deck:
        t = deck.pop()
        same_type = len(current) == 2 and ts[t].type == ts[current[0]].type == ts[current[1]].type
        if ts[t].advanced or same_type:
            put_back.append(t)
        else:
            current.append(t)
    return current, put_back


def flip_next(st: TashKalarState) -> None:
    """Turn the top task as the next task; while 3 of the 4 face-up tasks share a type, put it under the deck
    and turn another (at most once round the deck)."""
    deck = st.deck_t
    st.next_t = -1
    for _ in range(len(deck)):
        t = deck.pop()
        types = [_type(st, c) for c in st.cur_t]
        kind = _type(st, t)
        if types.count(kind) >= 2 or any(types.count(x) >= 3 for x in types):
            deck.insert(0, t)
            st.t_bottom = min(st.t_bottom + 1, len(deck))
            continue
        st.next_t = t
        break
    else:
        if deck:  # every remaining task repeats a type: the top one is the next task all the same
            st.next_t = deck.pop()
    st.t_bottom = min(st.t_bottom, len(deck))


def claimable(st: TashKalarState) -> list[int]:
    assert st.game.tasks is not None
    tasks = st.game.tasks.tasks
    return [t for t in st.cur_t if task_holds(st, st.side, tasks[t])]


def claim_actions(st: TashKalarState) -> list[Action]:
    assert st.game.tasks is not None
    tasks = st.game.tasks.tasks
    return [card_action("claim", tasks[t].id) for t in claimable(st)]


def claim(st: TashKalarState, t: int) -> None:
    """Claim a current task; the next task takes its place and a new next task is turned."""
    assert st.game.tasks is not None
    st.claimed[st.side].append(t)
    st.score[st.side] += st.game.tasks.tasks[t].points
    i = st.cur_t.index(t)
    if st.next_t >= 0:
        st.cur_t[i] = st.next_t
        flip_next(st)
    else:
        del st.cur_t[i]


# -- free-for-all ------------------------------------------------------------------------------------------------


def melee_colours(st: TashKalarState) -> list[int]:
    """The colours of the setup commons: every player's with 3 players; all but the second player's with 4."""
    n = st.game.seats
    return [c for c in range(n) if not (n == 4 and c == 1)]


def melee_setup_actions(st: TashKalarState) -> list[Action]:
    k = st.msetup & 0xFF
    used = st.msetup >> 8
    pair = MELEE_SETUP_PAIRS[k]
    return [setup_action(sq, c) for sq in pair for c in melee_colours(st) if not used >> c & 1]


def apply_melee_setup(st: TashKalarState, action: Action) -> None:
    sq, colour = action[1], action[2]
    put(st, sq, colour, 1)
    st.msetup = (st.msetup + 1) | (1 << (8 + colour))


def enemy_mask(st: TashKalarState) -> int:
    return ((1 << st.game.n_col) - 1) & ~(1 << st.side)


def score_melee_turn(st: TashKalarState) -> int:
    """Score this turn's destroyed pieces colour by colour; return the colours of odd commons if 2 or 3."""
    board = st.mscore[st.active]
    dest = st.dest
    odd = 0
    for o in range(st.game.n_col):
        if o == st.side:
            continue
        c, h, lg = dest[3 * o], dest[3 * o + 1], dest[3 * o + 2]
        board[o] += 2 * lg + h + c // 2
        if c % 2:
            odd |= 1 << o
    return odd if odd.bit_count() >= 2 else 0


def melee_score(st: TashKalarState, seat: int) -> int:
    """A player's score in melee: their lowest colour."""
    return min(v for o, v in enumerate(st.mscore[seat]) if o != seat)


def melee_target(st: TashKalarState) -> int:
    rules = st.game.cards.rules
    return rules.melee_target_3 if st.game.seats == 3 else rules.melee_target_4


# -- end and result ----------------------------------------------------------------------------------------------


def end_reasons(st: TashKalarState) -> list[str]:
    rules = st.game.cards.rules
    mode = st.game.mode
    if mode == "deathmatch":
        return [f"{rules.deathmatch_target} points"] if max(st.score) >= rules.deathmatch_target else []
    if mode == "highform":
        t = rules.highform_target
        return [f"{t} points"] if any(points(st, c) >= t for c in range(st.game.n_col)) else []
    t = melee_target(st)
    n = st.game.seats
    hit = any(st.mscore[s][o] >= t for s in range(n) for o in range(n) if o != s)
    return [f"{t} points in one colour"] if hit else []


def ranking_key(st: TashKalarState, seat: int) -> tuple[int, ...]:
    """What decides the ranking: points (melee: the colours from the lowest up), then upgraded pieces on the
    board, then pieces on the board."""
    col = st.game.colour_of[seat]
    up, pieces = count_upgraded(st.bb, col), count_pieces(st.bb, col)
    if st.game.mode == "melee":
        return (*sorted(v for o, v in enumerate(st.mscore[seat]) if o != seat), up, pieces)
    return (points(st, col), up, pieces)


def returns(st: TashKalarState) -> list[float]:
    """+1 for the winner (both teammates), -1 for the others; a tie for first: 0 for those tied (all: a draw)."""
    n = st.game.seats
    keys = [ranking_key(st, s) for s in range(n)]
    best = max(keys)
    winners = {st.game.colour_of[s] for s in range(n) if keys[s] == best}
    if len(winners) == 1:
        return [1.0 if keys[s] == best else -1.0 for s in range(n)]
    if len(winners) == st.game.n_col:
        return [0.0] * n
    return [0.0 if keys[s] == best else -1.0 for s in range(n)]


def points(st: TashKalarState, colour: int) -> int:
    """A colour's points now: deathmatch points, or (High Form) task points plus its legendary pieces."""
    if st.game.mode == "highform":
        return st.score[colour] + st.bb[colour << 2 | 3].bit_count()
    return st.score[colour]
