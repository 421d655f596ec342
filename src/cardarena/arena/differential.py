"""The compiled build against the pure one: the same seeded games, compared action by action (docs/speed.md).

Each game is played by a seeded random player (``playout_actions``, as ``bench`` plays); its digest hashes, at every
decision, the seat to act, that seat's observation (JSON with sorted keys), every few decisions a resampled world of
that seat, and the action; then the returns and the final snapshot. Two builds that agree on every digest played
the same games, bit for bit.

``python -m cardarena.arena.differential [--games N] [--jobs J] [--only GAME]`` plays seeds ``0..N-1`` of every
configuration in both builds, each build in its own worker processes (the pure one with ``CARDARENA_PURE=1``), at
most J at once, with progress on stderr. Where the builds part, it replays the first differing seed in both, event by
event, and names the decision: configuration, seed, step, seat, what differs, and the action each build took.
``make differential`` runs 10,000 games per configuration. ``--write-golden FILE`` writes the pure build's digests
for tests/arena/test_differential.py, which compares the two builds where a compiled build runs and this golden
file where none does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Rng, derive_seed, load

#: Every game in each mode that changes who plays or what is hidden (the RL and OpenSpiel configurations).
CONFIGURATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("dicebattle", {}),
    ("laplaplace", {}),
    ("laplaplace", {"build": "open"}),
    ("lyabi", {}),
    ("tashkalar", {}),
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 3}),
    ("tashkalar", {"mode": "melee", "players": 4}),
    ("tashkalar", {"mode": "deathmatch", "players": 4, "teams": True}),
    ("tashkalar", {"mode": "highform", "players": 4, "teams": True}),
    ("torabato", {}),
)


RESAMPLE_EVERY = 7  # decisions between two hashed resamples
BUILDS = ("pure", "compiled")
#: The golden digests the test compares where no compiled build runs (``--write-golden`` makes it; docs/speed.md).
GOLDEN_GAMES = 100


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def game_events(game_id: str, options: dict[str, Any], seed: int) -> Iterator[tuple[int, str, bytes]]:
    """What the digest of one seeded random game hashes, in order, as ``(step, what, bytes)``: at every decision
    the seat, its observation, every ``RESAMPLE_EVERY`` decisions a resampled world, the action; then the returns
    and the final snapshot (step = the number of decisions)."""
    game = load(game_id, **options)
    state = game.new_initial_state(seed)
    rng = Rng(derive_seed(seed, 0xD1FF))
    step = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        yield step, "seat", b"%d|" % seat
        yield step, "observation", _dump(state.observation(seat))
        if step % RESAMPLE_EVERY == 0:
            yield step, "resampled world", _dump(state.resample(seat, derive_seed(seed, step)).snapshot())
        actions = state.playout_actions()
        action = actions[rng.randbelow(len(actions))]
        yield step, "action", str(action).encode()
        state.apply_legal(action)
        step += 1
    yield step, "returns", _dump(state.returns())
    yield step, "final snapshot", _dump(state.snapshot())


def game_digest(game_id: str, options: dict[str, Any], seed: int) -> str:
    """The digest of one seeded random game (see the module's docstring)."""
    h = hashlib.blake2b(digest_size=16)
    for _, _, data in game_events(game_id, options, seed):
        h.update(data)
    return h.hexdigest()


def digests(configs: Iterable[tuple[str, dict[str, Any]]], seeds: range) -> dict[str, list[str]]:
    """Every configuration's digests over ``seeds``, keyed by the configuration in words (this process's build)."""
    return {label(g, o): [game_digest(g, o, s) for s in seeds] for g, o in configs}


def label(game_id: str, options: dict[str, Any]) -> str:
    return game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))


def _env(build: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CARDARENA_PURE", None)
    if build == "pure":
        env["CARDARENA_PURE"] = "1"
    return env


class _Worker:
    """A process running one build that plays seed ranges on request (``--worker``: one JSON line per request)."""

    def __init__(self, build: str) -> None:
        cmd = [sys.executable, "-m", "cardarena.arena.differential", "--worker"]
        self.proc = subprocess.Popen(cmd, env=_env(build), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = self._line()
        self.build: str = hello["build"]
        self.compiled: bool = hello["compiled"]

    def _line(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"a differential worker ended (exit status {self.proc.wait()}): see its error above")
        return json.loads(line)

    def request(self, message: list[Any]) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        return self._line()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def _serve() -> int:
    """``--worker``: say which build runs, then answer ``[index, start, stop]`` with those seeds' digests and
    ``["trace", index, seed]`` with that game's events (the digests come with the CPU seconds they took)."""
    import cardarena

    print(json.dumps({"build": cardarena.BUILD, "compiled": cardarena.COMPILED}), flush=True)
    for line in sys.stdin:
        message = json.loads(line)
        if message[0] == "trace":
            game_id, options = CONFIGURATIONS[message[1]]
            events = [[step, what, data.decode()] for step, what, data in game_events(game_id, options, message[2])]
            print(json.dumps(events), flush=True)
        else:
            game_id, options = CONFIGURATIONS[message[0]]
            start = time.process_time()
            found = [game_digest(game_id, options, s) for s in range(message[1], message[2])]
            print(json.dumps({"digests": found, "cpu_s": time.process_time() - start}), flush=True)
    return 0


class _Workers:
    """Idle worker processes by build, started on demand; at most ``jobs`` requests run at once."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.idle: dict[str, list[_Worker]] = {b: [] for b in BUILDS}
        self.all: list[_Worker] = []
        self.words: dict[str, str] = {}  # build -> the build in words, as its workers said
        self.lock = threading.Lock()

    def request(self, build: str, message: list[Any]) -> Any:
        with self.lock:
            worker = self.idle[build].pop() if self.idle[build] else None
        if worker is None:
            worker = _Worker(build)
            with self.lock:
                self.all.append(worker)
                self.words[build] = worker.build
        try:
            return worker.request(message)
        finally:
            with self.lock:
                self.idle[build].append(worker)

    def close(self) -> None:
        for worker in self.all:
            worker.close()


@dataclass
class Outcome:
    """What a differential run found: each build's digests by configuration, and where they first differ."""

    builds: dict[str, str] = field(default_factory=dict)  # "pure"/"compiled" -> the build in words
    digests: dict[str, dict[str, list[str | None]]] = field(default_factory=dict)  # build -> label -> per seed
    first_difference: dict[str, int] = field(default_factory=dict)  # label -> the lowest differing seed found
    mismatches: list[str] = field(default_factory=list)  # the first differing decision of each, in words
    cpu_s: dict[str, dict[str, float]] = field(default_factory=dict)  # build -> label -> CPU seconds playing


def run(
    configs: list[int],
    games: int,
    *,
    builds: tuple[str, ...] = BUILDS,
    jobs: int = 1,
    progress: Callable[[str], None] | None = None,
    report: Callable[[str], None] | None = None,
) -> Outcome:
    """Play seeds ``0..games-1`` of each configuration (indices into ``CONFIGURATIONS``) in each of ``builds``,
    ``jobs`` processes at a time; where two builds differ, replay the first differing seed to name the decision.

    ``progress`` gets a line now and then; ``report`` gets each configuration's result as it is known."""
    workers = _Workers(jobs)
    out = Outcome()
    chunk = max(1, min(100, -(-games // jobs)))
    tasks = [(i, start, b) for i in configs for start in range(0, games, chunk) for b in builds]
    for b in builds:
        out.cpu_s[b] = {}
        out.digests[b] = {label(*CONFIGURATIONS[i]): [None] * games for i in configs}
    remaining = {label(*CONFIGURATIONS[i]): len(range(0, games, chunk)) * len(builds) for i in configs}
    done_games = 0
    total = games * len(configs) * len(builds)
    started = last = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {
                pool.submit(workers.request, b, [i, start, min(games, start + chunk)]): (i, start, b)
                for i, start, b in tasks
            }
            for future in as_completed(futures):
                i, start, b = futures[future]
                name = label(*CONFIGURATIONS[i])
                answer = future.result()
                found = answer["digests"]
                out.digests[b][name][start : start + len(found)] = found
                out.cpu_s[b][name] = out.cpu_s[b].get(name, 0.0) + answer["cpu_s"]
                done_games += len(found)
                remaining[name] -= 1
                _check(out, name, builds)
                if remaining[name] == 0:
                    _finish(out, workers, i, builds, report)
                now = time.monotonic()
                if progress is not None and (now - last >= 5 or done_games == total):
                    last = now
                    rate = done_games / (now - started)
                    eta = (total - done_games) / rate if rate else 0
                    spent = now - started
                    progress(f"differential: {done_games:,}/{total:,} games, {spent:,.0f} s, ~{eta:,.0f} s left")
    finally:
        out.builds = dict(workers.words)
        workers.close()
    return out


def _check(out: Outcome, name: str, builds: tuple[str, ...]) -> None:
    """Record the lowest seed that both builds played and that differs."""
    if len(builds) < 2:
        return
    a, b = (out.digests[x][name] for x in builds[:2])
    first = next((s for s, (x, y) in enumerate(zip(a, b)) if x is not None and y is not None and x != y), None)
    if first is not None:
        out.first_difference[name] = min(first, out.first_difference.get(name, first))


def _finish(
    out: Outcome, workers: _Workers, index: int, builds: tuple[str, ...], report: Callable[[str], None] | None
) -> None:
    """A configuration is played in every build: say so, and name its first differing decision if any."""
    name = label(*CONFIGURATIONS[index])
    games = len(out.digests[builds[0]][name])
    seed = out.first_difference.get(name)
    if seed is None:
        cpu = ", ".join(f"{b} {out.cpu_s[b][name]:,.1f}" for b in builds)
        line = f"{name}: {games} games" + (" identical" if len(builds) > 1 else "") + f" (CPU s: {cpu})"
    else:
        traces = {b: workers.request(b, ["trace", index, seed]) for b in builds[:2]}
        line = f"{name}: games differ, first at seed {seed}: " + first_decision(traces)
        out.mismatches.append(line)
    if report is not None:
        report(line)


def first_decision(traces: dict[str, list[list[Any]]]) -> str:
    """The first event where two builds' traces of one game differ, in words, with the action each build took."""
    (name_a, a), (name_b, b) = traces.items()
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            step, what = x[0], x[1]
            seat = next((e[2].rstrip("|") for e in a[: k + 1] if e[0] == step and e[1] == "seat"), "?")
            act_a = next((e[2] for e in a[k:] if e[0] == step and e[1] == "action"), "(none)")
            act_b = next((e[2] for e in b[k:] if e[0] == step and e[1] == "action"), "(none)")
            differs = f"the {what} differs" + ("" if what == "action" else f" ({_excerpt(x[2], y[2])})")
            return f"step {step} (seat {seat}): {differs}; {name_a} played {act_a}, {name_b} played {act_b}"
    return f"one game is longer: {name_a} {len(a)} events, {name_b} {len(b)} events"


def _excerpt(x: str, y: str, width: int = 60) -> str:
    """Both texts around their first differing character."""
    at = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
    lo = max(0, at - width // 2)
    return f"…{x[lo : at + width // 2]}… against …{y[lo : at + width // 2]}…"


def write_golden(path: Path, games: int, *, jobs: int = 1) -> None:
    """The pure build's digests of seeds ``0..games-1`` of every configuration, as the test's golden file."""
    outcome = run(list(range(len(CONFIGURATIONS))), games, builds=("pure",), jobs=jobs)
    data = {"games": games, "digests": outcome.digests["pure"]}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def golden_differences(golden: dict[str, Any], found: Mapping[str, Sequence[str | None]]) -> list[str]:
    """Where ``found`` (a build's digests) differs from the golden file's, one line per configuration."""
    lines = []
    for name, expected in golden["digests"].items():
        got = found.get(name)
        if got is None:
            lines.append(f"{name}: not played")
            continue
        seed = next((s for s, (x, y) in enumerate(zip(expected, got)) if x != y), None)
        if seed is not None:
            lines.append(f"{name}: differs from the golden file, first at seed {seed}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardarena.arena.differential", description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="seeded games per configuration (seeds 0..N-1)")
    parser.add_argument("--only", help="only the configurations whose label starts with this (e.g. torabato)")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once (each runs one build)")
    parser.add_argument(
        "--write-golden", type=Path, metavar="FILE", help="write the pure build's digests to FILE (the test's golden)"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _serve()
    if args.write_golden is not None:
        write_golden(args.write_golden, args.games, jobs=args.jobs)
        print(f"wrote {args.write_golden}: {args.games} games per configuration")
        return 0
    configs = [i for i, c in enumerate(CONFIGURATIONS) if args.only is None or label(*c).startswith(args.only)]
    if not configs:
        parser.error(f"no configuration starts with {args.only!r}")
    probe = _Worker("compiled")
    probe.close()
    if not probe.compiled:
        print("no compiled build runs in this checkout (none built, or older than its sources): `make compiled`")
        return 2
    started = time.monotonic()
    outcome = run(
        configs,
        args.games,
        jobs=args.jobs,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
        report=lambda line: print(line, flush=True),
    )
    print(f"pure:     {outcome.builds.get('pure')}\ncompiled: {outcome.builds.get('compiled')}")
    print(f"{time.monotonic() - started:,.0f} s, {args.jobs} process(es)")
    return 1 if outcome.mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
