"""What a seat learns from one action (``Game.narrate``): the action as it sees it, then one line per outcome.

The outcomes are read from the difference between the state before and after the action, so that every effect
(automatic steps included) is reported the same way whatever card caused it: pieces placed, summoned, moved,
destroyed, taken back, upgraded, downgraded, converted; points scored (deathmatch points, High Form task points
and legendary pieces, melee points per colour); tasks claimed and turned up; actions, draws and extra turns
gained; cards going to the (public) discard piles; cards drawn (named only to the seat that holds them; the team's
legends to both teammates); handovers; the next step of an effect; the turn passing; the end triggered; the end.
Only public facts and the seat's own cards are used: never the order of a deck or another seat's hand.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ....engine import Action
from ..board import SQ_NAME, SQUARES
from ..cards.data import RANK_NAMES, Card, Step
from ..constants import CLAIM, EFFECT, MAIN, OVER, PICK, SUMMON_RECALL, Kind
from ..rules.effects import current_step
from ..rules.modes import points
from . import describe_action, seen_by_others
from .menu import colour_name, piece_name, summon_squares

if TYPE_CHECKING:
    from ..state import TashKalarState

MOVING = frozenset(("move", "leap"))


def _ops(steps: tuple[Step, ...]) -> set[str]:
    out: set[str] = set()
    for s in steps:
        out.add(s.op)
        out |= _ops(s.sub)
        for option in s.options:
            out |= _ops(option)
    return out


def card_ops(card: Card) -> set[str]:
    """Every operation a card's effect may carry out (its options and for_each steps included)."""
    return _ops(card.steps) | _ops(card.upper_steps) | _ops(card.lower_steps)


def _seen(before: TashKalarState, action: Action, seat: int | None) -> str:
    return describe_action(before, action) if seat == before.player else seen_by_others(before, action)


def narrate(before: TashKalarState, action: Action, after: TashKalarState, seat: int | None) -> list[str]:
    lines = [_seen(before, action, seat)]
    lines += board_lines(before, action, after)
    lines += score_lines(before, after)
    lines += task_lines(before, after)
    lines += turn_gains(before, after)
    lines += pile_lines(before, action, after)
    lines += hand_lines(before, action, after, seat)
    lines += flow_lines(before, action, after)
    return lines


# -- the board ---------------------------------------------------------------------------------------------------


def board_lines(before: TashKalarState, action: Action, after: TashKalarState) -> list[str]:
    """One line per square whose piece changed (a move is one line for its two squares)."""
    b, a = before.board, after.board
    changed = [sq for sq in SQUARES if b[sq] != a[sq]]
    kind = action[0]
    summon_sq = -1
    summon_card: Card | None = None
    if kind == Kind.SUMMON and before.phase == MAIN:
        summon_card = before.game.cards.by_id[action[1]]
        summon_sq = action[2]
    elif before.phase == SUMMON_RECALL and before.pending_summon is not None:
        summon_card = before.game.cards.cards[before.pending_summon[0]]
        summon_sq = before.pending_summon[1]
    taken_back = action[1] if kind == Kind.RECALL else -1
    moving = kind == Kind.MOVE or (
        before.resolving >= 0 and bool(card_ops(before.game.cards.cards[before.resolving]) & MOVING)
    )
    out: list[str] = []
    done: set[int] = set()
    # moves first: a piece that left one square and stands on another
    if moving:
        pairs = [(action[1], action[2])] if kind == Kind.MOVE else []
        for src in changed:
            if b[src] and not a[src] and (kind != Kind.MOVE or src != action[1]):
                dests = [t for t in changed if t != src and a[t] == b[src] and b[t] != a[t] and t not in done]
                if len(dests) == 1:
                    pairs.append((src, dests[0]))
        for src, dst in pairs:
            if src in done or dst in done or not b[src] or a[dst] != b[src]:
                continue
            done |= {src, dst}
            line = f"{piece_name(before, b[src])} moves {SQ_NAME[src]} -> {SQ_NAME[dst]}"
            if b[dst]:
                line += f", destroying the {piece_name(before, b[dst])} there"
            out.append(line)
    if summon_card is not None:
        if b[summon_sq] and before.phase == MAIN:
            out.append(f"the {piece_name(before, b[summon_sq])} on {SQ_NAME[summon_sq]} is destroyed by the summon")
        if after.phase != SUMMON_RECALL:
            out.append(_summoned(before, action, summon_card, summon_sq, a[summon_sq]))
        elif after.pending_summon is not None:
            out.append(f"out of units: {summon_card.name} waits for a piece to be taken back outside its pattern")
    for sq in changed:
        if sq in done:
            continue
        old, new = b[sq], a[sq]
        where = SQ_NAME[sq]
        if sq == summon_sq:
            continue
        if not old:
            out.append(f"a {piece_name(before, new)} is placed on {where}")
        elif not new:
            verb = "is taken back to the supply" if sq == taken_back else "is destroyed"
            out.append(f"the {piece_name(before, old)} on {where} {verb}")
        elif old >> 2 == new >> 2:
            verb = "upgraded" if new & 3 > old & 3 else "downgraded"
            out.append(f"the {piece_name(before, old)} on {where} is {verb} to {RANK_NAMES[new & 3]}")
        else:
            out.append(f"the {piece_name(before, old)} on {where} becomes a {piece_name(before, new)} (converted)")
    return out


def _summoned(before: TashKalarState, action: Action, card: Card, sq: int, cell: int) -> str:
    line = f"{card.name} is summoned on {SQ_NAME[sq]} ({piece_name(before, cell)})"
    if action[0] == Kind.SUMMON:
        _, mask = summon_squares(before, action)
        used = " ".join(SQ_NAME[s] for s in SQUARES if mask >> s & 1)
        line += f", pattern turned {action[3]} on {used}"
    return line


# -- points and tasks --------------------------------------------------------------------------------------------


def score_lines(before: TashKalarState, after: TashKalarState) -> list[str]:
    g = before.game
    out = []
    if g.mode == "melee":
        n = g.num_players
        for p in range(n):
            for o in range(n):
                d = after.mscore[p][o] - before.mscore[p][o]
                if d:
                    out.append(f"seat {p} scores {d} point(s) in colour {o} (now {after.mscore[p][o]} in that colour)")
        return out
    target = g.cards.rules.highform_target if g.mode == "highform" else g.cards.rules.deathmatch_target
    for c in range(g.n_col):
        d = points(after, c) - points(before, c)
        if d:
            why = ""
            if g.mode == "deathmatch" and after.turn_no != before.turn_no and d > 0:
                why = " (for the enemy pieces destroyed this turn)"
            out.append(f"{colour_name(before, c)}: {d:+d} point(s), now {points(after, c)} / {target}{why}")
    return out


def task_lines(before: TashKalarState, after: TashKalarState) -> list[str]:
    tasks = before.game.tasks
    if tasks is None:
        return []
    ts = tasks.tasks
    out = []
    for c in range(before.game.n_col):
        for t in after.claimed[c][len(before.claimed[c]) :]:
            out.append(f"{colour_name(before, c)} claims the task {ts[t].name} ({ts[t].points} pt)")
    for t in after.cur_t:
        if t not in before.cur_t:
            out.append(f"new task on the table: {ts[t].name} ({ts[t].points} pt): {ts[t].text}")
    if after.next_t != before.next_t and after.next_t >= 0:
        out.append(f"next task turned up: {ts[after.next_t].name}")
    return out


# -- the turn's gains, the piles and the hands -------------------------------------------------------------------


def turn_gains(before: TashKalarState, after: TashKalarState) -> list[str]:
    if after.turn_no != before.turn_no or after.active != before.active or after.phase == OVER:
        return []
    out = []
    if after.actions > before.actions:
        out.append(f"gains {after.actions - before.actions} action(s) ({after.actions} left)")
    for i, deck in enumerate(("school", "legend", "flare")):
        d = after.extra[i] - before.extra[i]
        if d > 0:
            out.append(f"will draw {d} extra {deck} card(s) at the end of the turn")
    if after.extra_turns > before.extra_turns:
        out.append(f"gains {after.extra_turns - before.extra_turns} extra turn(s)")
    return out


def pile_lines(before: TashKalarState, action: Action, after: TashKalarState) -> list[str]:
    cs = before.game.cards.cards
    out = []
    piles = [(f"seat {p}'s school discard pile", before.disc_s[p], after.disc_s[p]) for p in range(len(before.disc_s))]
    piles += [
        ("the legend discard pile", before.disc_l, after.disc_l),
        ("the flare discard pile", before.disc_f, after.disc_f),
    ]
    discarded = action[1] if action[0] == Kind.DISCARD else None
    for where, old, new in piles:
        if len(new) > len(old) and new[: len(old)] == old:
            for c in new[len(old) :]:
                if cs[c].id != discarded:
                    out.append(f"{cs[c].name} goes to {where}")
        elif not new and old and action[0] != Kind.TAKE:
            out.append(f"{where} is shuffled into its deck")
    return out


def _named(st: TashKalarState, p: int, seat: int | None) -> tuple[bool, bool]:
    """Whether ``seat`` sees ``p``'s beings and flares, and ``p``'s legends."""
    if seat is None:
        return False, False
    g = st.game
    mate = g.teams and seat < g.num_players and p == g.mate(seat)
    return p == seat, p == seat or bool(mate)


def hand_lines(before: TashKalarState, action: Action, after: TashKalarState, seat: int | None) -> list[str]:
    """Cards drawn: named to the seat that may see them, counted for the others."""
    g = before.game
    cs = g.cards.cards
    out = []
    taken = g.cards.by_id[action[1]].index if action[0] == Kind.TAKE else -1
    for p in range(g.num_players):
        see_own, see_legends = _named(before, p, seat)
        parts = []
        names: list[str] = []
        for label, old, new, seen in (
            ("being", before.hand_b[p], after.hand_b[p], see_own),
            ("legend", before.hand_l[p], after.hand_l[p], see_legends),
            ("flare", before.hand_f[p], after.hand_f[p], see_own),
        ):
            gained = Counter(new) - Counter(old)
            gained.pop(taken, None)
            if label == "legend" and g.teams:
                # the team's legends pass between teammates: only legends new to the team are drawn
                mate = g.mate(p)
                team_old = Counter(before.hand_l[p]) + Counter(before.hand_l[mate])
                team_new = Counter(after.hand_l[p]) + Counter(after.hand_l[mate])
                if new and not before.hand_l[p] and before.hand_l[mate]:
                    out.append(f"seat {p} now holds the team's legends ({len(new)})")
                gained = (team_new - team_old) & gained
            k = sum(gained.values())
            if k:
                parts.append(f"{k} {label}(s)")
                if seen:
                    names += [cs[c].name for c in sorted(gained.elements())]
        if parts:
            who = "you draw" if p == seat else f"seat {p} draws"
            out.append(f"{who} {', '.join(parts)}" + (f": {', '.join(names)}" if names else ""))
    return out


# -- the flow of the game ----------------------------------------------------------------------------------------


def flow_lines(before: TashKalarState, action: Action, after: TashKalarState) -> list[str]:
    g = before.game
    cs = g.cards.cards
    out = []
    if action[0] == Kind.HANDOVER:
        out.append(f"seat {after.player} plays on seat {before.player}'s turn with the team's legends")
    if after.phase == EFFECT and after.frames and after.resolving >= 0:
        step = current_step(after).text
        if before.resolving != after.resolving or before.phase != EFFECT or current_step(before).text != step:
            out.append(f"{cs[after.resolving].name}'s effect, next: {step}")
    if after.phase == PICK and before.phase != PICK:
        colours = ", ".join(str(c) for c in range(g.n_col) if after.pick_mask >> c & 1)
        out.append(f"seat {after.player} chooses the colour to score 1 point in ({colours})")
    if after.phase == CLAIM and before.phase != CLAIM:
        out.append(f"seat {after.player} may claim one task whose condition holds")
    if after.final_left >= 0 and before.final_left < 0:
        out.append(f"{after.trigger}: the final round begins ({after.final_left} turn(s))")
    if after.phase == OVER and before.phase != OVER:
        out.append(f"the game is over: {after.trigger}")
        out.append(_result(after))
    elif after.turn_no != before.turn_no or after.active != before.active:
        extra = " (an extra turn)" if after.in_extra else ""
        left = f"; final round: {after.final_left} turn(s) left" if after.final_left >= 0 else ""
        out.append(f"turn {after.turn_no}: seat {after.active}'s turn{extra}, {after.actions} action(s){left}")
    return out


def _result(st: TashKalarState) -> str:
    r = st.returns()
    if max(r) == min(r):
        return "result: a draw"
    winners = [f"seat {p}" for p, v in enumerate(r) if v == max(r)]
    if len(winners) == 1:
        return f"result: {winners[0]} wins"
    return f"result: {', '.join(winners[:-1])} and {winners[-1]} win"
