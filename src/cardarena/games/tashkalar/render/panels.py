"""The table as panels (``Game.board``): the arena, each seat's zone, your hand, the decks, tasks and the effect.

Only what ``observation(seat)`` shows is drawn: other seats' hands are backs (``[?]``) with their counts (a card
every seat saw taken from a discard pile is named), the order of every deck is never shown. ``render`` joins
these panels into plain text, so the two always agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....engine import Panel
from ..board import AREAS, CENTRAL, FILES, SIZE, SQ_NAME, bits, on_board, square
from ..cards.data import RANK_NAMES, Card
from ..constants import EFFECT, MAIN, OVER, PHASE_NAMES, PICK, SUMMON_RECALL, Kind
from ..rules.effects import current_step
from ..rules.modes import melee_score, melee_target, points
from ..rules.summoning import pattern_mask

if TYPE_CHECKING:
    from ..state import TashKalarState

PIECE_CHARS = ({1: "o", 2: "O", 3: "@"}, {1: "x", 2: "X", 3: "#"}, {1: "v", 2: "V", 3: "%"}, {1: "s", 2: "S", 3: "$"})
BACK = "[?]"
EMPTY_LEGEND = "empty: . plain, r red, g green, + central, R red central (e5)"


def empty_char(sq: int) -> str:
    """An empty square: red/green colour and the central area both show (e5 is red and central: ``R``)."""
    red = AREAS["red"] >> sq & 1
    central = CENTRAL >> sq & 1
    if red:
        return "R" if central else "r"
    if AREAS["green"] >> sq & 1:
        return "G" if central else "g"
    return "+" if central else "."


def board_lines(
    st: TashKalarState, *, marked: int = 0, pattern: int = 0, letters: dict[int, str] | None = None
) -> list[str]:
    """The 9×9 grid, rank 9 on top; ``marked`` squares in ``[ ]``, ``pattern`` squares in ``( )``; ``letters``
    overrides what a square shows (the summon map)."""
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
            ch = PIECE_CHARS[c >> 2][c & 3] if c else empty_char(sq)
            if letters and sq in letters:
                row.append(f"<{letters[sq]}>")
            elif marked >> sq & 1:
                row.append(f"[{ch}]")
            elif pattern >> sq & 1:
                row.append(f"({ch})")
            else:
                row.append(f" {ch} ")
        lines.append(f" {y + 1:>2} " + "".join(row) + f" {y + 1}")
    lines.append(head)
    return lines


def pattern_lines(card: Card) -> list[str]:
    return [f"      {row}" for row in card.pattern]


def card_line(card: Card) -> str:
    if card.kind == Kind.FLARE:
        return f"{card.id} [flare {card.upper}/{card.lower}] {card.name}"
    return f"{card.id} [{RANK_NAMES[card.rank]}] {card.name}: {card.text}"


def _marks(st: TashKalarState) -> tuple[int, int]:
    """The squares to bracket: an effect's marked squares ``[ ]``; the pattern of the summon being made ``( )``."""
    marked = st.ctx_marked if st.phase == EFFECT else 0
    pattern = 0
    if st.phase == SUMMON_RECALL and st.pending_summon is not None:
        c, sq, oi = st.pending_summon
        pattern = pattern_mask(st.game.cards.cards[c].orients[oi], sq) | 1 << sq
    return marked, pattern


def headline(st: TashKalarState) -> str:
    if st.phase == OVER:
        return f"Turn {st.turn_no}: the game is over. {st.trigger}"
    return (
        f"Turn {st.turn_no}: seat {st.player} to act ({PHASE_NAMES[st.phase]}), "
        f"{st.actions} action(s) left{', discard used' if st.discarded else ''}"
    )


def _piece_legend(st: TashKalarState, marks: tuple[int, int]) -> str:
    g = st.game
    if g.mode == "deathmatch" and not g.teams:
        pieces = "pieces: seat 0 o common, O heroic, @ legendary; seat 1 x, X, #"
    else:
        who = "team" if g.teams else "seat"
        pieces = "pieces: " + "; ".join(
            f"{who} {c} {PIECE_CHARS[c][1]} {PIECE_CHARS[c][2]} {PIECE_CHARS[c][3]}" for c in range(g.n_col)
        )
    extra = (", [ ] marked by the effect" if marks[0] else "") + (", ( ) the summon's pattern" if marks[1] else "")
    return f"{pieces}; {EMPTY_LEGEND}{extra}"


def arena_panel(st: TashKalarState) -> Panel:
    marks = _marks(st)
    lines = [*board_lines(st, marked=marks[0], pattern=marks[1]), "  " + _piece_legend(st, marks)]
    return Panel(headline(st), tuple(lines), key="arena")


def _score_text(st: TashKalarState, c: int) -> str:
    g = st.game
    cs = g.cards
    if g.mode == "highform":
        assert g.tasks is not None
        claimed = ", ".join(g.tasks.tasks[t].id for t in st.claimed[c]) or "no task"
        legends = st.bb[c << 2 | 3].bit_count()
        return f"{points(st, c)} pts / {cs.rules.highform_target} ({claimed}; {legends} legendary on the board)"
    if g.mode == "melee":
        row = ", ".join(f"colour {o}: {v}" for o, v in enumerate(st.mscore[c]) if o != c)
        free = [str(o) for o in range(g.n_col) if o != c and not st.improv[c] >> o & 1]
        improv = f"may still improvise with the pieces of seat {' or '.join(free)}" if free else "no improvising left"
        return f"score {melee_score(st, c)} (its lowest colour) of {melee_target(st)}: {row}; {improv}"
    return f"{st.score[c]} pts / {cs.rules.deathmatch_target}"


def seat_panel(st: TashKalarState, p: int, seat: int | None) -> Panel:
    """One seat's zone: score, supply, deck, and its hand as backs (named only for ``seat`` itself)."""
    g = st.game
    cs = g.cards.cards
    c = g.colour_of[p]
    you = " (you)" if p == seat else ""
    team = f", team {c}" if g.teams else ""
    lines = []
    if not g.teams or p < 2:
        lines.append(f"score: {_score_text(st, c)}")
        lines.append(f"supply: {st.supply_two[c]} two-sided, {st.supply_leg[c]} legendary")
    else:
        lines.append(f"score and supply: shared with seat {g.mate(p)} (team {c})")
    deck = f"school deck: {len(st.deck_s[p])} card(s)"
    if st.known_bottom[p] and p == seat:
        deck += f" ({st.known_bottom[p]} you put under it)"
    lines.append(deck)
    counts = (len(st.hand_b[p]), len(st.hand_l[p]), len(st.hand_f[p]))
    if p == seat:
        lines.append(f"hand: {counts[0]} being(s), {counts[1]} legend(s), {counts[2]} flare(s) (see your hand)")
    else:
        known = [x for x in st.known_hand[p] if x in (*st.hand_b[p], *st.hand_l[p], *st.hand_f[p])]
        backs = " ".join([BACK] * sum(counts))
        lines.append(f"hand: {backs or 'empty'} ({counts[0]} being(s), {counts[1]} legend(s), {counts[2]} flare(s))")
        if known:
            lines.append("known in hand (taken from a discard pile): " + ", ".join(cs[x].name for x in known))
    if st.disc_s[p]:
        lines.append("school discard pile: " + ", ".join(cs[x].name for x in st.disc_s[p]))
    title = f"seat {p}{you}{team}: {st.school[p]}" + (" — to act" if st.player == p and st.phase != OVER else "")
    return Panel(title, tuple(lines), seat=p, key=f"seat {p}")


def hand_panel(st: TashKalarState, seat: int) -> Panel:
    g = st.game
    cs = g.cards.cards
    lines: list[str] = []
    for c in (*st.hand_b[seat], *st.hand_l[seat]):
        lines.append(card_line(cs[c]))
        lines.extend(pattern_lines(cs[c]))
    for c in st.hand_f[seat]:
        lines.append(card_line(cs[c]))
        lines.extend("      " + t for t in cs[c].text.splitlines())
    if g.teams:
        mate = g.mate(seat)
        if st.hand_l[mate]:
            lines.append("team legends (held by your teammate): " + ", ".join(cs[c].id for c in st.hand_l[mate]))
    if st.known_bottom[seat]:
        under = ", ".join(cs[c].name for c in st.deck_s[seat][: st.known_bottom[seat]])
        lines.append(f"under your school deck (bottom first): {under}")
    if st.phase == PICK and st.player == seat:
        lines.append("choose the colour to score 1 point in: " + ", ".join(str(c) for c in bits(st.pick_mask)))
    return Panel("your hand", tuple(lines or ["(empty)"]), seat=seat, key="hand")


def shared_panel(st: TashKalarState) -> Panel:
    cs = st.game.cards.cards
    dc, dh, dl = st.destroyed
    lines = [
        f"legend deck {len(st.deck_l)}, flare deck {len(st.deck_f)}",
        f"destroyed this turn: {dc} common, {dh} heroic, {dl} legendary",
    ]
    if st.disc_l:
        lines.append("legend discard pile: " + ", ".join(cs[c].name for c in st.disc_l))
    if st.disc_f:
        lines.append("flare discard pile: " + ", ".join(cs[c].name for c in st.disc_f))
    if st.extra_turns or st.in_extra:
        lines.append(f"extra turns to come: {st.extra_turns}" + (" (this is an extra turn)" if st.in_extra else ""))
    if any(st.extra):
        s, le, f = st.extra
        lines.append(f"extra cards to draw at the end of this turn: {s} school, {le} legend, {f} flare")
    if st.game.teams:
        lines.append("teams: seats 0 and 2 play colour 0, seats 1 and 3 colour 1")
        if st.handed:
            lines.append(f"seat {st.active}'s turn was handed over to seat {st.player}")
    if st.final_left >= 0 and st.phase != OVER:
        lines.append(f"FINAL ROUND: {st.final_left} turn(s) left ({st.trigger})")
    if st.phase == OVER:
        lines.append(f"result: {st.returns()}")
    return Panel("decks and discards", tuple(lines), key="shared")


def task_panel(st: TashKalarState) -> Panel | None:
    tasks = st.game.tasks
    if tasks is None:
        return None
    ts = tasks.tasks
    lines = [f"task {ts[t].id}: {ts[t].name} ({ts[t].points} pt): {ts[t].text}" for t in st.cur_t]
    if st.next_t >= 0:
        lines.append(f"next task {ts[st.next_t].id}: {ts[st.next_t].text} | task deck {len(st.deck_t)}")
    return Panel("High Form tasks", tuple(lines), key="tasks")


def effect_panel(st: TashKalarState) -> Panel | None:
    if st.resolving < 0:
        return None
    card = st.game.cards.cards[st.resolving]
    line = f"resolving {card.name}"
    if st.frames:
        line += f": {current_step(st).text}"
        if st.mover >= 0:
            line += f" (piece on {SQ_NAME[st.mover]}, {st.mover_left} move(s) left)"
    lines = [line, f"card text: {card.text}"] if card.text else [line]
    return Panel("effect", tuple(lines), key="effect")


SUMMON_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def summon_map(st: TashKalarState, seat: int | None) -> Panel | None:
    """Where the seat to act can summon now: each being's summon squares as its letter in ``< >`` (``*``: more
    than one being), and per being its placements with the squares each pattern uses (the menu's details)."""
    if seat is None or st.player != seat or st.phase != MAIN or (st.game.teams and st.handed):
        return None
    summons = [a for a in st.legal_actions() if a[0] == Kind.SUMMON]
    if not summons:
        return None
    cards = st.game.cards
    order: list[str] = []
    letters: dict[int, str] = {}
    where: dict[str, list[str]] = {}
    for a in summons:
        if a[1] not in order:
            order.append(a[1])
        letter = SUMMON_LETTERS[order.index(a[1]) % len(SUMMON_LETTERS)]
        letters[a[2]] = letter if letters.get(a[2], letter) == letter else "*"
        card = cards.by_id[a[1]]
        orient = next(o for o in card.orients if o.name == a[3])
        used = " ".join(SQ_NAME[s] for s in bits(pattern_mask(orient, a[2]) & ~(1 << a[2])))
        where.setdefault(a[1], []).append(f"{SQ_NAME[a[2]]} {a[3]} ({used})")
    lines = board_lines(st, letters=letters)
    for k, cid in enumerate(order):
        places = where[cid]
        shown = "; ".join(places[:6]) + (f"; and {len(places) - 6} more" if len(places) > 6 else "")
        lines.append(f"<{SUMMON_LETTERS[k % len(SUMMON_LETTERS)]}> {cards.by_id[cid].name}: {shown}")
    return Panel(
        "where you can summon now (<letter>: the being's square; each placement lists the squares its pattern uses)",
        tuple(lines),
        seat=seat,
        key="summons",
    )


def panels(st: TashKalarState, seat: int | None) -> list[Panel]:
    """Every panel ``seat`` sees (``None``: a spectator: public facts only)."""
    n = st.game.num_players
    out = [arena_panel(st)]
    effect = effect_panel(st)
    if effect is not None:
        out.append(effect)
    out.extend(seat_panel(st, p, seat) for p in range(n))
    out.append(shared_panel(st))
    tasks = task_panel(st)
    if tasks is not None:
        out.append(tasks)
    if seat is not None and 0 <= seat < n:
        out.append(hand_panel(st, seat))
        summons = summon_map(st, seat)
        if summons is not None:
            out.append(summons)
    return out


def panels_text(out: list[Panel]) -> str:
    """Plain text of panels: the first panel's title, then each panel's lines (titled, indented)."""
    lines = [out[0].title, *out[0].lines]
    for panel in out[1:]:
        lines.append(f"  {panel.title}:")
        lines.extend(f"    {line}" for line in panel.lines)
    return "\n".join(lines)
