"""How long each AI strength of the lobby thinks per decision, and how often it beats the next one down.

Plays whole games of every game (Tash-Kalar in the duel, High Form and the 4-player melee) between the strengths
the server offers (``cardarena.agents.levels``: each label's agent spec, under its time cap ``LEVEL_SECONDS``, exactly
as an AI seat thinks in a worker): ``hard`` against ``normal`` and ``normal`` against ``easy``, seats alternating.
Every decision with a choice (two or more legal actions: a forced one costs nothing) is timed on the CPU of the
thread that thinks (``time.thread_time``: one core's work, whatever else the machine runs) and on the wall clock;
the searches' clock (their time cap) is that CPU time too, so the figures are those of one core of its own.
The lobby words each strength with these figures (``cardarena/web/strengths.json``, read by the catalogue):

    nice python scripts/ai_timings.py --games 4 --minutes 12 --out src/cardarena/web/strengths.json
    nice python scripts/ai_timings.py --only torabato --games 2          # one game, printed only

``--minutes`` bounds each game configuration: games are played in pairs (one per matchup) until ``--games`` pairs or
the time is up, so a slow game gets fewer games (the file says how many). The win rates come with Wilson's 95%
interval; with a handful of games they say little, and the file says so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import cardarena
from cardarena.agents import SeatView, heuristic, make_agent, search, time_limit
from cardarena.agents.levels import LEVEL_SECONDS as STRENGTH_SECONDS
from cardarena.agents.levels import LEVELS as STRENGTHS
from cardarena.agents.levels import level_spec as strength_spec
from cardarena.arena.strength import wilson
from cardarena.engine import derive_seed


class _ThreadClock:
    """The clock the searches read here: the thinking thread's CPU time instead of the wall clock, so that each
    strength's time cap stops a search after that much work of one core, however busy the machine is (on a shared
    machine the wall clock would cut the searches short, and the figures would be those of a weaker AI)."""

    perf_counter = staticmethod(time.thread_time)

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


search.time = heuristic.time = _ThreadClock()  # type: ignore[assignment]

#: (key in the file, game id, options, title in words)
CONFIGS: list[tuple[str, str, dict[str, Any], str]] = [
    ("torabato", "torabato", {}, "ToraBato"),
    ("lyabi", "lyabi", {}, "Lyabi"),
    ("laplaplace", "laplaplace", {}, "Laplaplace"),
    ("dicebattle", "dicebattle", {}, "Dice Battle"),
    ("tashkalar", "tashkalar", {}, "Tash-Kalar duel"),
    ("tashkalar/highform", "tashkalar", {"mode": "highform"}, "Tash-Kalar High Form"),
    ("tashkalar/melee", "tashkalar", {"mode": "melee", "players": 4}, "Tash-Kalar melee (4 players)"),
]

#: the matchups: (stronger, weaker)
MATCHUPS = [("hard", "normal"), ("normal", "easy")]


def play(game_id: str, options: dict[str, Any], labels: list[str], seed: int) -> tuple[list[float], dict[str, Any]]:
    """One game with ``labels[seat]`` at each seat: its returns and, per label, the times of its decisions with a
    choice (``cpu``, ``wall``: seconds) and how many forced decisions it took."""
    game = cardarena.load(game_id, **options)
    state = game.new_initial_state(seed)
    times: dict[str, Any] = {label: {"cpu": [], "wall": [], "forced": 0} for label in set(labels)}
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        label = labels[seat]
        agent = make_agent(strength_spec(label, game_id), derive_seed(seed, seat, len(state.history)))
        choices = len(state.legal_actions()) > 1
        cpu, wall = time.thread_time(), time.perf_counter()
        with time_limit(STRENGTH_SECONDS[label]):
            action = agent.act(SeatView(state, seat))
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if choices:
            times[label]["cpu"].append(cpu)
            times[label]["wall"].append(wall)
        else:
            times[label]["forced"] += 1
        state.apply(action)
    return state.returns(), times


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 3) if values else 0.0,
        "p95": round(percentile(values, 0.95), 3),
        "max": round(max(values, default=0.0), 3),
    }


def measure(game_id: str, options: dict[str, Any], pairs: int, minutes: float, seed: int) -> dict[str, Any]:
    """Play up to ``pairs`` games of each matchup (fewer when ``minutes`` run out) and sum them up."""
    players = cardarena.load(game_id, **options).num_players
    times: dict[str, dict[str, list[float]]] = {s: {"cpu": [], "wall": []} for s in STRENGTHS}
    forced: dict[str, int] = dict.fromkeys(STRENGTHS, 0)
    score: dict[str, list[float]] = {f"{a}-{b}": [] for a, b in MATCHUPS}  # the stronger's score per game
    deadline = time.monotonic() + minutes * 60
    for k in range(pairs):
        if time.monotonic() > deadline:
            break
        for a, b in MATCHUPS:
            # the stronger sits first in even games, second in odd ones (and alternates round a melee table)
            labels = [a if (seat + k) % 2 == 0 else b for seat in range(players)]
            returns, spent = play(game_id, options, labels, derive_seed(seed, k, len(score[f"{a}-{b}"])))
            for label, t in spent.items():
                times[label]["cpu"] += t["cpu"]
                times[label]["wall"] += t["wall"]
                forced[label] += t["forced"]
            best = max(returns)
            won = {labels[s] for s, r in enumerate(returns) if r == best}
            score[f"{a}-{b}"].append(1.0 if won == {a} else 0.0 if won == {b} else 0.5)
            print(f"  {game_id} {options or ''} game {k + 1}: {'/'.join(labels)} -> {returns}", flush=True)
    out: dict[str, Any] = {"strengths": {}, "matchups": {}}
    for label in STRENGTHS:
        t = times[label]
        out["strengths"][label] = {
            "spec": strength_spec(label, game_id),
            "cap_s": STRENGTH_SECONDS[label],
            "decisions": len(t["cpu"]),
            "forced": forced[label],
            "cpu_s": summary(t["cpu"]),
            "wall_s": summary(t["wall"]),
        }
    for name, results in score.items():
        n = len(results)
        wins = sum(results)
        low, high = wilson(wins / n, n) if n else (0.0, 1.0)
        out["matchups"][name] = {
            "games": n,
            "score": wins,
            "rate": round(wins / n, 3) if n else None,
            "ci95": [round(low, 3), round(high, 3)],
        }
    return out


def merge(files: list[Path], out: Path) -> None:
    """One file of the figures of several runs (measured apart, e.g. in parallel), in the order of :data:`CONFIGS`;
    ``command`` lists each run's command."""
    games: dict[str, Any] = {}
    commands = []
    about = ""
    for file in files:
        data = json.loads(file.read_text())
        games.update(data["games"])
        about = data["about"]
        commands.append(f"{data['command']} --only {' '.join(data['games'])}")
    ordered = {key: games[key] for key, *_ in CONFIGS if key in games}
    out.write_text(json.dumps({"about": about, "command": "; ".join(commands), "games": ordered}, indent=1) + "\n")


def table(games: dict[str, Any]) -> str:
    """The figures as a Markdown table: per game and strength, the seconds a decision (one core) and the results."""
    rows = [
        "| game | strength | cap | decisions | median | p95 | max | (wall, shared machine: median / max) | won |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for figures in games.values():
        for label, s in figures["strengths"].items():
            below = {"hard": "normal", "normal": "easy"}.get(label)
            m = figures["matchups"].get(f"{label}-{below}", {}) if below else {}
            low, high = m["ci95"] if m else (0.0, 1.0)
            won = f"{m['score']:g} of {m['games']} against {below} [{low:.2f}, {high:.2f}]" if m else ""
            cpu, wall = s["cpu_s"], s["wall_s"]
            rows.append(
                f"| {figures['title']} | {label} | {s['cap_s']:g} s | {s['decisions']} | {cpu['median']:.2f} s"
                f" | {cpu['p95']:.2f} s | {cpu['max']:.2f} s | {wall['median']:.1f} / {wall['max']:.1f} s | {won} |"
            )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games of each matchup per configuration (default 4)")
    parser.add_argument("--minutes", type=float, default=12.0, help="at most this long per configuration")
    parser.add_argument("--seed", type=int, default=2028)
    parser.add_argument("--only", nargs="*", help="configuration keys to measure (default: all)")
    parser.add_argument("--out", type=Path, help="write the figures here as JSON (merged into what it holds)")
    parser.add_argument("--merge", type=Path, nargs="*", help="only merge these files' figures into --out")
    parser.add_argument("--table", type=Path, help="only print this file's figures as a Markdown table")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.table.read_text())["games"]))
        return
    if args.merge:
        merge(args.merge, args.out)
        return
    figures: dict[str, Any] = {}
    if args.out and args.out.exists():
        figures = json.loads(args.out.read_text()).get("games", {})
    for key, game_id, options, title in CONFIGS:
        if args.only and key not in args.only:
            continue
        print(f"{title}:", flush=True)
        started = time.monotonic()
        figures[key] = {"title": title, **measure(game_id, options, args.games, args.minutes, args.seed)}
        figures[key]["minutes"] = round((time.monotonic() - started) / 60, 1)
        for label, s in figures[key]["strengths"].items():
            print(f"  {label}: {s['decisions']} decisions, cpu {s['cpu_s']}, wall {s['wall_s']}", flush=True)
        for name, m in figures[key]["matchups"].items():
            print(f"  {name}: {m['score']}/{m['games']} {m['ci95']}", flush=True)
        if args.out:
            document = {
                "about": "Measured by scripts/ai_timings.py (docs/web.md, Strength labels): seconds per decision with"
                " a choice, cpu = one core's work of the thinking thread, wall = elapsed on a shared machine; matchups:"
                " the stronger label's score (win 1, draw 1/2) with Wilson's 95% interval.",
                "command": "nice python scripts/ai_timings.py "
                + " ".join(
                    f"--{k} {v}" for k, v in (("games", args.games), ("minutes", args.minutes), ("seed", args.seed))
                ),
                "games": figures,
            }
            args.out.write_text(json.dumps(document, indent=1) + "\n")


if __name__ == "__main__":
    main()
