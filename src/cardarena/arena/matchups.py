"""Matchups and drama of the balance report (:mod:`cardarena.arena.report`): pure functions of its game rows.

**Matchups** (:func:`matchups`). Each game row names what each seat brought (``setup``: a deck, build or school
per seat, in the designer's words) or, where the decks do not vary, the agent in each seat. Two seats of one game
*meet*: a meeting is scored for each side by its share of the win against the other, ``share_a / (share_a +
share_b)`` (a win 1, a loss 0, a draw or a win the two shared 1/2), and counted only where at least one of the
two won or shared the win (two losers of a three- or four-seat game say nothing about each other). With two seats
a meeting is a game and the score a win rate in which draws count half. The matrix pools both seat orders:
``score[i][j]`` is label ``i``'s score against label ``j`` over every meeting of the two, so ``score[i][j] +
score[j][i] = 1``; a label against itself (the mirror, the diagonal) is even by definition and shows only how
many mirror games there were. A variant (a label ``"BASE, change"`` or ``"BASE: details"``: a starter deck with
one card swapped) is counted with ``BASE`` (:func:`families`), so the matrix is one of decks a designer names.

**Cycles** (:func:`cycles`). ``i`` *beats* ``j`` where ``score[i][j] > 0.5`` over at least
:data:`MIN_EDGE_GAMES` meetings. A non-transitive cycle ``A > B > C > A`` is a closed path of such edges; the
report lists every one of 3 to :data:`MAX_CYCLE` labels that has no shortcut (no two labels of the cycle that are
not neighbours in it have a winner between them: a shortcut would split it into a shorter cycle, which is listed
instead). A cycle's strength is its weakest edge's score; it is *sure* when every edge's interval excludes 0.5.

**Drama** (:func:`drama`). The game's ``evaluate`` gives, at every turn change, each seat's own estimate of how it
stands (``trace``). The *leader* at that moment is the seat whose estimate, averaged over the last round (the
seat that has just moved looks better than it is), beats every other seat's by more than :data:`LEAD_MARGIN`,
none when the best two are closer (a tie); the *decided turn* is the turn from which the eventual winner was the
leader at every later moment (the last turn when the estimate never saw it coming), also given as a percentage of
the game's turns; a *lead change* is the lead passing from one seat to another (ties skipped), counting the result
as the last word.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from .strength import wilson

MIN_LABEL_GAMES = 20  # a deck/build/school/agent with fewer games is pooled into "other ...", or left out
MAX_LABELS = 12  # the most frequent labels that get a row of their own: a larger heat map is unreadable
MIN_EDGE_GAMES = 10  # meetings a cell needs before its winner counts as beating the other in a cycle
MAX_CYCLE = 5  # the longest cycle looked for
LEAD_MARGIN = 0.1  # a seat leads when its estimate (from -1 to 1) beats every other seat's by more than this

Row = dict[str, Any]


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def _shares(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the result: 1/k for the k seats with the best return, 0 for the others."""
    best = max(returns)
    winners = sum(1 for r in returns if r == best)
    return [1.0 / winners if r == best else 0.0 for r in returns]


def _sole_winner(returns: Sequence[float]) -> int | None:
    best = max(returns)
    seats = [s for s, r in enumerate(returns) if r == best]
    return seats[0] if len(seats) == 1 else None


# -- matchups ----------------------------------------------------------------------------------------------------
def matchups(
    rows: Sequence[Row],
    *,
    kind: str = "deck",
    seat_labels: Callable[[Row], Sequence[str]] | None = None,
    min_games: int = MIN_LABEL_GAMES,
) -> dict[str, Any] | None:
    """The MATCHUPS block of report.json from the finished games' rows, or ``None`` where fewer than two labels
    met. A row's labels are its ``setup``; a row without one takes ``seat_labels(row)`` (the agents in its seats)
    when given, else it is left out. Labels with fewer than ``min_games`` games (and those beyond the
    :data:`MAX_LABELS` most frequent) are pooled as "other ...", or left out when even the pool has too few; the
    block's ``note`` says so. Labels are ordered by their score against all the others, best first."""
    labelled: list[tuple[Row, list[str]]] = []
    for row in rows:
        if row.get("error") is not None or row.get("returns") is None:
            continue
        setup = row.get("setup")
        if setup is not None:
            labelled.append((row, [str(x) for x in setup]))
        elif seat_labels is not None:
            labelled.append((row, [str(x) for x in seat_labels(row)]))
    if not labelled:
        return None
    if not any(row.get("setup") is not None for row, _ in labelled):
        kind = "agent"
    folded = families({label for _, labels in labelled for label in labels})
    labelled = [(row, [folded[label] for label in labels]) for row, labels in labelled]
    variants = sum(1 for label, family in folded.items() if label != family)
    # which labels get a row: the frequent ones; the rare ones pooled, or left out
    played = Counter(label for _, labels in labelled for label in set(labels))
    ranked = sorted(played, key=lambda label: (-played[label], label))
    own = [label for label in ranked[:MAX_LABELS] if played[label] >= min_games]
    rare = [label for label in ranked if label not in own]
    pool = f"other {kind}s"
    while pool in played:
        pool = f"({pool})"
    pooled_games = sum(1 for _, labels in labelled if any(label in rare for label in labels))
    keep_pool = bool(rare) and pooled_games >= min_games
    names = own + ([pool] if keep_pool else [])
    if len(names) < 2:
        return None
    where = {label: i for i, label in enumerate(own)}
    if keep_pool:
        where.update((label, len(own)) for label in rare)
    k = len(names)
    total = [[0.0] * k for _ in range(k)]
    meetings = [[0] * k for _ in range(k)]
    for row, labels in labelled:
        shares = _shares(row["returns"])
        for a, b in itertools.combinations(range(len(labels)), 2):
            i, j = where.get(labels[a]), where.get(labels[b])
            if i is None or j is None or shares[a] + shares[b] == 0:
                continue
            mine = shares[a] / (shares[a] + shares[b])
            meetings[i][j] += 1
            total[i][j] += mine
            if i != j:  # a mirror meeting is counted once: its two sides are the same label
                meetings[j][i] += 1
                total[j][i] += 1.0 - mine
    # best first: by the score against every other label (the pool last)
    overall = []
    for i in range(k):
        n = sum(meetings[i][j] for j in range(k) if j != i)
        overall.append(sum(total[i][j] for j in range(k) if j != i) / n if n else 0.0)
    order = sorted(range(len(own)), key=lambda i: (-overall[i], names[i])) + ([len(own)] if keep_pool else [])
    games = [[meetings[i][j] for j in order] for i in order]
    score: list[list[float | None]] = []
    ci: list[list[list[float] | None]] = []
    for i in order:
        score.append([])
        ci.append([])
        for j in order:
            n = meetings[i][j]
            if n == 0:
                score[-1].append(None)
                ci[-1].append(None)
            elif i == j:
                score[-1].append(0.5)  # a mirror is even by definition
                ci[-1].append(None)
            else:
                lo, hi = wilson(total[i][j] / n, n)
                score[-1].append(_r(total[i][j] / n))
                ci[-1].append([_r(lo), _r(hi)])
    labels_out = [names[i] for i in order]
    details = cycles(labels_out[: len(own)], score, ci, games)
    notes = []
    if variants:
        notes.append(
            f"{variants} variants of a {kind} (such as '{min(v for v, f in folded.items() if v != f)}') are "
            f"counted with the {kind} they vary."
        )
    if rare and keep_pool:
        notes.append(
            f"{len(rare)} {kind}s with too few games for a row of their own (fewer than {min_games}, or beyond the "
            f"{MAX_LABELS} most played) are pooled as '{pool}'."
        )
    elif rare:
        notes.append(
            f"{len(rare)} {kind}s with fewer than {min_games} games are left out (even together they played "
            f"only {pooled_games} games)."
        )
    seats = max(len(labels) for _, labels in labelled)
    return {
        "kind": kind,
        "labels": labels_out,
        "games": games,
        "score": score,
        "ci": ci,
        "cycles": [c["labels"] for c in details],
        "cycle_details": details,
        "note": " ".join(notes),
        "method": _method(kind, seats, min_games),
    }


def families(labels: set[str]) -> dict[str, str]:
    """Each label's family: a variant of a deck is counted with the deck it varies. The games name a variant
    ``"BASE, change"`` or ``"BASE: details"`` (Dice Battle's ``"horde, Goblin swapped for Ember Imp"``,
    Laplaplace's ``"random: Jab, Edge, ..."``); such a label joins ``BASE`` when ``BASE`` is a label too or is
    shared by several labels, else it keeps its own name.

    >>> found = families({"horde", "horde, Goblin swapped for Imp", "random: Jab", "random: Edge", "Sylvan, x"})
    >>> [found[k] for k in ("horde, Goblin swapped for Imp", "random: Jab", "random: Edge", "Sylvan, x")]
    ['horde', 'random', 'random', 'Sylvan, x']
    """
    base = {label: re.split(r", |: ", label, maxsplit=1)[0].strip() for label in labels}
    sharing = Counter(base.values())
    return {label: b if b and b != label and (b in labels or sharing[b] > 1) else label for label, b in base.items()}


def _method(kind: str, seats: int, min_games: int) -> str:
    what = "agent" if kind == "agent" else kind
    meeting = (
        "each game in which they faced each other, in either seat order"
        if seats == 2
        else "each time both sat at one table (a 'game' in the counts is such a meeting), counted only when one of "
        "the two won or shared the win; each scores its share of the win between the two"
    )
    return (
        f"Row {what} against column {what}: the row's score over {meeting} (a win 1, a draw or shared win 1/2, a "
        "loss 0), with its 95% Wilson interval and the number of games. The two seat orders are pooled, so a "
        "row's score and the column's score against it add up to 1; the diagonal (a mirror) is even by "
        f"definition and shows only how many such games there were. A variant of a {what} (named 'BASE, change' "
        f"or 'BASE: details', such as one card swapped) is counted with the {what} it varies. A {what} needs "
        f"{min_games} games for a row of its own. A cycle (A beats B, B beats C, C beats A) is a non-transitive "
        f"loop: each of its {what}s beats the next one (a score above 0.5 over at least {MIN_EDGE_GAMES} games), "
        "with no shortcut between them; its strength is its weakest link's score, and it is 'sure' when every "
        f"link's interval lies above 0.5. Cycles are looked for among 3 to {MAX_CYCLE} {what}s; the pool of rare "
        "ones takes no part."
    )


def cycles(
    labels: Sequence[str],
    score: Sequence[Sequence[float | None]],
    ci: Sequence[Sequence[Sequence[float] | None]],
    games: Sequence[Sequence[int]],
) -> list[dict[str, Any]]:
    """Every non-transitive cycle among the first ``len(labels)`` labels of the matrix (see the module's text),
    each as ``{"labels", "strength", "sure", "edges": [{"winner", "loser", "score", "ci", "games", "sure"}]}``,
    shortest first, then strongest. A cycle is given once, from its first label in the matrix's order."""
    k = len(labels)

    def beats(i: int, j: int) -> bool:
        s = score[i][j]
        return i != j and s is not None and s > 0.5 and games[i][j] >= MIN_EDGE_GAMES

    found: list[list[int]] = []

    def extend(path: list[int]) -> None:
        last = path[-1]
        if len(path) >= 3 and beats(last, path[0]):
            found.append(list(path))
            return  # a longer cycle through this path would have last > first as a shortcut
        if len(path) == MAX_CYCLE:
            return
        for nxt in range(path[0] + 1, k):  # a cycle starts at its lowest label: each is found once
            if nxt in path or not beats(last, nxt):
                continue
            if len(path) >= 2 and beats(path[0], nxt):
                continue  # first > nxt would be a shortcut (nxt may beat the first: that closes the cycle)
            if any(beats(nxt, p) or beats(p, nxt) for p in path[1:-1]):
                continue  # a winner between nxt and a label that is not its neighbour: a shortcut
            extend([*path, nxt])

    for start in range(k):
        extend([start])
    out: list[dict[str, Any]] = []
    for cycle in found:
        edges: list[dict[str, Any]] = []
        for a, b in zip(cycle, [*cycle[1:], cycle[0]]):
            interval = ci[a][b]
            edges.append(
                {
                    "winner": labels[a],
                    "loser": labels[b],
                    "score": score[a][b],
                    "ci": interval,
                    "games": games[a][b],
                    "sure": interval is not None and interval[0] > 0.5,
                }
            )
        out.append(
            {
                "labels": [labels[c] for c in cycle],
                "strength": min(float(e["score"]) for e in edges),
                "sure": all(e["sure"] for e in edges),
                "edges": edges,
            }
        )
    out.sort(key=lambda c: (len(c["labels"]), -c["strength"], c["labels"]))
    return out


# -- drama and pacing --------------------------------------------------------------------------------------------
def leader(values: Sequence[float | None]) -> int | None:
    """The seat whose estimate is above every other seat's by more than :data:`LEAD_MARGIN`; ``None`` when the
    best two are closer (a tie: nobody leads) or an estimate is missing.

    >>> leader([0.4, -0.4]), leader([0.1, 0.05, -0.5]), leader([0.3, None])
    (0, None, None)
    """
    if not values or any(v is None for v in values):
        return None
    known = [float(v) for v in values if v is not None]
    best = max(known)
    top = [s for s, v in enumerate(known) if v >= best - LEAD_MARGIN]
    return top[0] if len(top) == 1 else None


def smoothed(points: Sequence[Sequence[float]]) -> list[list[float]]:
    """Each point's estimates averaged with those of the points before it, over as many points as there are
    seats (one round: a point after each seat's move), fewer at the start. An estimate taken just after a seat
    moved favours that seat (in ToraBato the lead swung with every turn); over a round the swings cancel.

    >>> smoothed([[0.0, 0.0], [0.4, -0.4], [-0.2, 0.2]])
    [[0.0, 0.0], [0.2, -0.2], [0.1, -0.1]]
    """
    out = []
    for i, values in enumerate(points):
        window = points[max(0, i + 1 - len(values)) : i + 1]
        out.append([round(sum(p[s] for p in window) / len(window), 9) for s in range(len(values))])
    return out


def game_drama(row: Row) -> dict[str, Any] | None:
    """One finished game's drama: ``decided_turn`` and ``decided_share`` (percent of its turns; both ``None``
    without a sole winner), ``lead_changes``, ``comeback`` (whether the winner ever trailed: another seat led);
    ``None`` when the game's trace holds no complete estimate. The leader at each point of the trace is read
    from the estimates averaged over the last round (:func:`smoothed`)."""
    points = [(int(turn), values) for turn, values in row.get("trace") or [] if all(v is not None for v in values)]
    if not points:
        return None
    leaders = [leader(values) for values in smoothed([values for _, values in points])]
    winner = _sole_winner(row["returns"])
    sequence = [s for s in leaders if s is not None] + ([winner] if winner is not None else [])
    changes = sum(1 for a, b in itertools.pairwise(sequence) if a != b)
    turns = int(row["turns"])
    decided = share = None
    comeback = None
    if winner is not None:
        decided = max(turns, points[-1][0])  # decided only by the last turn, unless the winner led to the end
        for (turn, _), lead in zip(reversed(points), reversed(leaders)):
            if lead != winner:
                break
            decided = turn
        share = round(100 * decided / turns) if turns > 0 else None
        comeback = any(s is not None and s != winner for s in leaders)
    return {"decided_turn": decided, "decided_share": share, "lead_changes": changes, "comeback": comeback}


def drama(
    rows: Sequence[Row], distribution: Callable[[Sequence[int]], dict[str, Any]]
) -> tuple[dict[str, Any] | None, str | None]:
    """The DRAMA block of report.json from the games' rows and a note for the variant's notes (or ``None``).
    ``distribution`` is the report's summary of whole numbers (:func:`cardarena.arena.report.distribution`).
    The block is ``None`` when no finished game has an estimate in its trace (the game's ``evaluate`` gives
    none): without one nobody can say who was ahead."""
    done = [r for r in rows if r.get("error") is None and r.get("returns") is not None]
    if not done:
        return None, None
    per_game = [(row, game_drama(row)) for row in done]
    traced = [(row, d) for row, d in per_game if d is not None]
    if not traced:
        return None, (
            "No drama and pacing: this game gives no estimate of who is ahead during a game (its evaluate() returns "
            "nothing), so the report cannot say when games were decided."
        )
    decided = [d for _, d in traced if d["decided_turn"] is not None]
    comebacks = sum(1 for d in decided if d["comeback"])
    by_end: dict[str, list[int]] = {}
    for row in done:
        by_end.setdefault(str(row.get("end")), []).append(int(row["turns"]))
    untraced = len(done) - len(traced)
    note = (
        f"Drama and pacing leave out {untraced} of {len(done)} games whose trace holds no estimate."
        if untraced
        else None
    )
    block = {
        "games": len(traced),
        "decided_games": len(decided),
        "decided_turn": distribution([d["decided_turn"] for d in decided]),
        "decided_share": distribution([d["decided_share"] for d in decided if d["decided_share"] is not None]),
        "lead_changes": distribution([d["lead_changes"] for _, d in traced]),
        "comebacks": {
            "games": len(decided),
            "count": comebacks,
            "share": _r(comebacks / len(decided)) if decided else None,
            "ci": [_r(x) for x in wilson(comebacks / len(decided), len(decided))] if decided else None,
        },
        "turns_by_end": {
            end: distribution(turns) for end, turns in sorted(by_end.items(), key=lambda e: (-len(e[1]), e[0]))
        },
        "note": note or "",
        "method": DRAMA_METHOD,
    }
    return block, note


DRAMA_METHOD = (
    "How early the winner is decided, from the game's own estimate of how each seat stands (its evaluate(), the "
    "number its search agents use), taken at every turn change and averaged over the last round (as many turn "
    "changes as there are seats: an estimate taken just after a seat moved favours that seat). At each such moment "
    f"the leader is the seat whose estimate (from -1 to 1) is above every other seat's by more than {LEAD_MARGIN}; "
    "when the best two are closer nobody leads (a tie). The decided turn is the turn "
    "from which the eventual winner led at every later moment to the end of the game: a low one means the game "
    "was settled early (a runaway), one near the last turn a close game or a comeback; when the winner was not "
    "ahead at the last estimate, the game counts as decided on its last turn. The decided share is that turn as a "
    "percentage of the game's turns. Games without a sole winner (draws, shared wins) have no decided turn. Lead "
    "changes count how often the lead passed from one seat to another (ties skipped, the result counted as the "
    "last word: a winner who was behind at the last estimate took the lead once more). Comebacks: the share of "
    "the decided games in which the winner was behind at some moment (with its 95% Wilson interval). Turns by "
    "end: the length of the games that ended each way. The estimate is a heuristic: it can be wrong about who "
    "is ahead, most of all early in a game."
)
