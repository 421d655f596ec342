"""Text pictures of the board and plain descriptions of actions, for people at a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import Action
from .board import AREAS, CENTRAL, FILES, NAME_SQ, SIZE, SQ_NAME, bits, on_board, square
from .cards.model import RANK_NAMES, Card, CardSet
from .cards.tasks import TaskSet
from .constants import CLAIM, EFFECT, OVER, PHASE_NAMES, PICK, SETUP, Kind
from .rules.effects import current_step
from .rules.flares import flare_halves
from .rules.modes import melee_score, melee_target, points

if TYPE_CHECKING:
    from .state import TashKalarState

PIECE_CHARS = ({1: "o", 2: "O", 3: "@"}, {1: "x", 2: "X", 3: "#"}, {1: "v", 2: "V", 3: "%"}, {1: "s", 2: "S", 3: "$"})


def _empty_char(sq: int) -> str:
    if AREAS["red"] >> sq & 1:
        return "r"
    if AREAS["green"] >> sq & 1:
        return "g"
    if CENTRAL >> sq & 1:
        return "+"
    return "."


def board_lines(st: TashKalarState, *, marked: int = 0) -> list[str]:
    head = "     " + "  ".join(FILES)
    lines = [head]
    for y in range(SIZE - 1, -1, -1):
        row = []
        for x in range(SIZE):
            if not on_board(x, y):
                row.append("   ")
                continue
            sq = square(x, y)
            c = st.board[sq]
            ch = PIECE_CHARS[c >> 2][c & 3] if c else _empty_char(sq)
            row.append(f"[{ch}]" if marked >> sq & 1 else f" {ch} ")
        lines.append(f" {y + 1:>2} " + "".join(row) + f" {y + 1}")
    lines.append(head)
    return lines


def pattern_lines(card: Card) -> list[str]:
    return [f"      {row}" for row in card.pattern]


def _card_line(card: Card) -> str:
    if card.kind == Kind.FLARE:
        return f"{card.id} [flare {card.upper}/{card.lower}] {card.name}"
    return f"{card.id} [{RANK_NAMES[card.rank]}] {card.name}: {card.text}"


def render(st: TashKalarState, seat: int | None) -> str:

    cs = st.game.cards
    n = st.game.num_players
    marked = st.ctx_marked if st.phase == EFFECT else 0
    out = []
    if st.phase == OVER:
        out.append(f"Turn {st.turn_no}: the game is over. {st.trigger}")
    else:
        out.append(
            f"Turn {st.turn_no}: seat {st.player} to act ({PHASE_NAMES[st.phase]}), "
            f"{st.actions} action(s) left{', discard used' if st.discarded else ''}"
        )
    out.extend(board_lines(st, marked=marked))
    g = st.game
    if g.mode == "deathmatch" and not g.teams:
        out.append(
            "  pieces: seat 0 o common, O heroic, @ legendary; seat 1 x, X, #; empty: r red, g green, + central"
            + (", [ ] marked" if marked else "")
        )
        target = cs.rules.deathmatch_target
        for p in range(n):
            you = " (you)" if p == seat else ""
            out.append(
                f"  seat {p}{you} {st.school[p]}: {st.score[p]} pts / {target} | supply {st.supply_two[p]} "
                f"two-sided, {st.supply_leg[p]} legendary | school deck {len(st.deck_s[p])}, hand "
                f"{len(st.hand_b[p])}+{len(st.hand_l[p])}+{len(st.hand_f[p])}"
            )
    else:
        out.extend(_mode_lines(st, seat, marked))
    dc, dh, dl = st.destroyed
    out.append(
        f"  legend deck {len(st.deck_l)}, flare deck {len(st.deck_f)} | destroyed this turn: {dc} common, "
        f"{dh} heroic, {dl} legendary"
    )
    if st.final_left >= 0 and st.phase != OVER:
        out.append(f"  FINAL ROUND: {st.final_left} turn(s) left ({st.trigger})")
    if st.resolving >= 0:
        card = cs.cards[st.resolving]
        line = f"  resolving {card.name}"
        if st.frames:
            line += f": {current_step(st).text}"
            if st.mover >= 0:
                line += f" (piece on {SQ_NAME[st.mover]}, {st.mover_left} move(s) left)"
        out.append(line)
    if seat is not None and 0 <= seat < n:
        out.append("  your hand:")
        for c in (*st.hand_b[seat], *st.hand_l[seat]):
            out.append("    " + _card_line(cs.cards[c]))
            out.extend(pattern_lines(cs.cards[c]))
        for c in st.hand_f[seat]:
            card = cs.cards[c]
            out.append("    " + _card_line(card))
            out.extend("      " + t for t in card.text.splitlines())
    if seat is not None and 0 <= seat < n and st.phase == PICK:
        out.append("  choose the colour to score 1 point in: " + ", ".join(str(c) for c in bits(st.pick_mask)))
    if st.phase == OVER:
        out.append(f"  result: {st.returns()}")
    return "\n".join(out)


def _mode_lines(st: TashKalarState, seat: int | None, marked: int) -> list[str]:
    """The legend and the players' lines for High Form, melee and team games."""

    g = st.game
    cs = g.cards
    out = []
    letters = "; ".join(
        f"colour {c} {PIECE_CHARS[c][1]} {PIECE_CHARS[c][2]} {PIECE_CHARS[c][3]}" for c in range(g.n_col)
    )
    out.append(f"  pieces: {letters}; empty: r red, g green, + central" + (", [ ] marked" if marked else ""))
    if g.teams:
        out.append(
            "  teams: seats 0 and 2 play colour 0, seats 1 and 3 colour 1"
            + (f"; seat {st.active}'s turn was handed over to seat {st.player}" if st.handed else "")
        )
    for c in range(g.n_col):
        if g.mode == "highform":
            assert g.tasks is not None
            claimed = ", ".join(g.tasks.tasks[t].id for t in st.claimed[c]) or "no task"
            legends = st.bb[c << 2 | 3].bit_count()
            pts = f"{points(st, c)} pts / {cs.rules.highform_target} ({claimed}; {legends} legendary on the board)"
        elif g.mode == "melee":
            row = ", ".join(f"c{o} {v}" for o, v in enumerate(st.mscore[c]) if o != c)
            free = "".join(str(o) for o in range(g.n_col) if o != c and not st.improv[c] >> o & 1) or "-"
            pts = f"score {melee_score(st, c)} (colours {row}; target {melee_target(st)}; improvise with {free})"
        else:
            pts = f"{st.score[c]} pts / {cs.rules.deathmatch_target}"
        out.append(f"  colour {c}: {pts} | supply {st.supply_two[c]} two-sided, {st.supply_leg[c]} legendary")
    for p in range(g.num_players):
        you = " (you)" if p == seat else ""
        out.append(
            f"  seat {p}{you} colour {g.colour_of[p]} {st.school[p]}: school deck {len(st.deck_s[p])}, hand "
            f"{len(st.hand_b[p])}+{len(st.hand_l[p])}+{len(st.hand_f[p])}"
        )
    if g.tasks is not None:
        ts = g.tasks.tasks
        for t in st.cur_t:
            out.append(f"  task {ts[t].id}: {ts[t].text}")
        if st.next_t >= 0:
            out.append(f"  next task {ts[st.next_t].id}: {ts[st.next_t].text} | task deck {len(st.deck_t)}")
    if seat is not None and g.teams:
        mate = g.mate(seat)
        if st.hand_l[mate]:
            out.append("  team legends (held by your teammate): " + ", ".join(cs.cards[c].id for c in st.hand_l[mate]))
    return out


UNDER = {"being": "your deck", "legend": "the legend deck", "flare": "the flare deck"}


def describe_action(st: TashKalarState, action: Action) -> str:

    cs = st.game.cards
    kind = action[0]
    if kind == Kind.SUMMON:
        card = cs.by_id[action[1]]
        text = f"summon {card.name} ({RANK_NAMES[card.rank]}) at {SQ_NAME[action[2]]}, pattern turned {action[3]}"
        if len(action) == 5:
            text += f", improvising with the enemy piece on {SQ_NAME[action[4]]}"
        return text
    if kind == Kind.FLARE:
        card = cs.by_id[action[1]]
        against = action[2] if len(action) == 3 else -1
        up, low = flare_halves(st, st.player, card, against)
        halves = " and ".join(h for h, ok in (("upper", up), ("lower", low)) if ok)
        who = {
            "deathmatch": "the opponent scores 1",
            "highform": "no one scores",
            "melee": f"seat {against} scores 1 in your colour",
        }[st.game.mode]
        return f"invoke the flare {card.name} ({halves} half; {who})"
    if kind == Kind.HANDOVER:
        return "hand the turn over to your teammate (with your legends)"
    if kind == Kind.CLAIM:
        assert st.game.tasks is not None
        task = st.game.tasks.by_id[action[1]]
        return f"claim the task {task.name} ({task.points} pt)"
    if kind == Kind.SCORE:
        return f"score 1 point in the colour of seat {action[1]}"
    if kind == Kind.SETUP:
        return f"setup: a common of seat {action[2]} on {SQ_NAME[action[1]]}"
    if kind == Kind.DISCARD:
        return f"discard {cs.by_id[action[1]].name}"
    if kind == Kind.BOTTOM:
        card = cs.by_id[action[1]]
        return f"put under {UNDER[card.kind]} {card.name}"
    if st.phase == SETUP and kind == Kind.CHOOSE:
        return f"your common on {SQ_NAME[action[1]]}, the first player's on the other setup square"
    if st.phase == EFFECT and st.frames:
        step = current_step(st)
        if kind == Kind.OPTION:
            return f"option {action[1]}: " + " ".join(s.text for s in step.options[action[1] - 1])
        if kind == Kind.MOVE:
            victim = st.board[action[2]]
            extra = f", destroying the {RANK_NAMES[victim & 3]} of seat {victim >> 2}" if victim else ""
            return f"{action[0]} {SQ_NAME[action[1]]} to {SQ_NAME[action[2]]}{extra} ({step.text})"
        if kind == Kind.SKIP:
            return f"skip: stop here ({step.text})"
        if kind == Kind.TAKE:
            return f"take {cs.by_id[action[1]].name} into your hand ({step.text})"
        return f"{action} ({step.text})"
    if kind == Kind.PLACE:
        return str(action)
    if kind == Kind.RECALL:
        return f"out of units: take back your piece on {SQ_NAME[action[1]]}"
    if kind == Kind.END:
        return "end the turn"
    if kind == Kind.SKIP:
        return "skip: claim no task" if st.phase == CLAIM else "skip: put no more cards under a deck"
    if kind == Kind.RESIGN:
        return "resign: your team loses the game" if st.game.teams else "resign: you lose the game"
    return str(action)


def seen_by_others(st: TashKalarState, action: Action) -> str:
    """``action`` as a seat other than the one taking it sees it: no hidden card is named."""
    if action[0] == Kind.BOTTOM:
        # the kind of card is public (hand sizes are), the card is not
        kind = st.game.cards.by_id[action[1]].kind
        what = {"being": "a card under their school deck", "legend": "a legend under the legend deck"}
        return f"put {what.get(kind, 'a flare under the flare deck')} (which card is hidden)"
    return describe_action(st, action)


def card_list(cards: CardSet) -> str:
    """Every card of the file with its pattern, for ``cardarena rules tashkalar``."""
    lines = ["## Cards of this card file", ""]
    for school in cards.schools.values():
        lines.append(f"### School {school.name} ({school.id})\n")
        for c in school.cards:
            lines.extend(_card_block(cards.cards[c]))
    lines.append("### Legends\n")
    for c in cards.legends:
        lines.extend(_card_block(cards.cards[c]))
    lines.append("### Flares\n")
    for c in cards.flares:
        card = cards.cards[c]
        lines.append(f"- `{card.id}` {card.name}")
        lines.extend(f"  - {t}" for t in card.text.splitlines())
    return "\n".join(lines) + "\n"


def task_list(tasks: TaskSet) -> str:
    """Every High Form task of the task file."""
    lines = ["## High Form tasks of this task file", ""]
    for t in tasks.tasks:
        lines.append(f"- `{t.id}` {t.name}: {t.text}")
    return "\n".join(lines) + "\n"


def _card_block(card: Card) -> list[str]:
    return [
        f"- `{card.id}` {card.name} ({RANK_NAMES[card.rank]}): {card.text}",
        "",
        "  ```",
        *(f"  {r}" for r in card.pattern),
        "  ```",
        "",
    ]


__all__ = ["NAME_SQ", "board_lines", "card_list", "describe_action", "render"]
