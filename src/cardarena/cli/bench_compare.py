"""``cardarena bench --compare``: the pure and the compiled build side by side, in one run, on one core (docs/speed.md).

Each build is measured in its own process (the pure one with ``CARDARENA_PURE=1``; the choice is made once per
process, at import), configuration by configuration, the two builds back to back so that both see the same load:
random playouts (``bench_game``: decisions/s, games/s, clone µs), ISMCTS at mid-game positions (``bench_agent``:
iterations/s), the RL environment (``bench_env``: steps/s with encodings and masks, where the rl extra is installed),
then the wall time of a fixed ``cardarena simulate`` and a small fixed ``cardarena report``, each run as a user runs
it (a fresh interpreter, imports included, one worker). OpenSpiel's C++ hearts (``pyspiel``, where installed) is
played beside them from Python with the same random loop: it is the anchor that tells how far from C++ we are.

``python -m cardarena.cli.bench_compare --emit GAME OPTIONS_JSON`` measures the build that runs in that process and
prints JSON; ``compare`` starts those processes. This module is never compiled.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click
from rich.table import Column, Table

#: What ``bench --compare`` measures without GAME: every game, and Tash-Kalar in each mode that changes its work.
CONFIGURATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("dicebattle", {}),
    ("laplaplace", {}),
    ("lyabi", {}),
    ("tashkalar", {}),
    ("tashkalar", {"mode": "highform"}),
    ("tashkalar", {"mode": "melee", "players": 4}),
    ("tashkalar", {"mode": "deathmatch", "players": 4, "teams": True}),
    ("torabato", {}),
)
BUILDS = ("pure", "compiled")
#: The measures, as (key in the JSON, heading, whether more is better, format).
MEASURES: tuple[tuple[str, str, bool, str], ...] = (
    ("decisions_per_s", "decisions/s", True, "{:,.0f}"),
    ("games_per_s", "games/s", True, "{:,.1f}"),
    ("clone_us", "clone µs", False, "{:.2f}"),
    ("iterations_per_s", "ISMCTS it/s", True, "{:,.0f}"),
    ("rl_steps_per_s", "RL steps/s", True, "{:,.0f}"),
    ("simulate_s", "simulate s", False, "{:.2f}"),
    ("report_s", "report s", False, "{:.2f}"),
)


@dataclass(frozen=True)
class Plan:
    """What one ``bench --compare`` run measures: seconds per timed loop, the search agent, the fixed CLI runs."""

    seconds: float = 3.0
    agent: str = "ismcts:iterations=300"
    positions: int = 4
    simulate_games: int = 500
    report_games: int = 30
    repeat: int = 1  # each build measured this many times, the best kept (a busy machine only ever slows a run)


def label(game_id: str, options: dict[str, Any]) -> str:
    """A configuration in words: ``tashkalar mode=melee players=4``."""
    return game_id + "".join(f" {k}={v}" for k, v in sorted(options.items()))


def measure(game_id: str, options: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """Measure this process's build on one configuration: random play, clone, ISMCTS, the RL environment."""
    import cardarena

    from ..arena.bench import bench_agent, bench_game
    from ..engine import load

    game = load(game_id, **options)
    random_play = bench_game(game, seconds=plan.seconds)
    search = bench_agent(game, plan.agent, positions=plan.positions)
    try:
        from ..rl.bench import bench_env
    except ImportError:  # the rl extra is not installed
        rl_steps = None
    else:
        rl_steps = bench_env(game, seconds=plan.seconds)["steps_per_s"]
    return {
        "build": cardarena.BUILD,
        "compiled": cardarena.COMPILED,
        "decisions_per_s": random_play["decisions_per_s"],
        "games_per_s": random_play["games_per_s"],
        "clone_us": random_play["clone_us"],
        "iterations_per_s": search["iterations_per_s"],
        "rl_steps_per_s": rl_steps,
    }


def _env(build: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CARDARENA_PURE", None)
    if build == "pure":
        env["CARDARENA_PURE"] = "1"
    return env


def _run(cmd: list[str], build: str) -> str:
    """Run ``cmd`` in a process running ``build``; its standard output, or an error that shows its own."""
    done = subprocess.run(cmd, env=_env(build), capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-15:])
        raise click.ClickException(f"the {build} build's process failed ({' '.join(cmd[1:])}):\n{tail}")
    return done.stdout


def _measure_in(build: str, game_id: str, options: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """``measure`` in a fresh process running ``build``."""
    cmd = [
        sys.executable,
        "-m",
        "cardarena.cli.bench_compare",
        "--emit",
        game_id,
        json.dumps(options),
        json.dumps(plan.__dict__),
    ]
    result: dict[str, Any] = json.loads(_run(cmd, build))
    return result


def _cli_seconds(build: str, args: list[str]) -> float:
    """Wall seconds of ``cardarena ARGS`` in a fresh process running ``build`` (imports included)."""
    start = time.perf_counter()
    _run([sys.executable, "-m", "cardarena.cli.main", *args], build)
    return round(time.perf_counter() - start, 3)


def _cli_runs(game_id: str, options: dict[str, Any], plan: Plan) -> tuple[list[str], list[str]]:
    """The fixed ``simulate`` and ``report`` command lines of one configuration (the report's folder left out)."""
    opts = [a for k, v in sorted(options.items()) for a in ("-o", f"{k}={str(v).lower() if v is True else v}")]
    simulate = ["simulate", game_id, *opts, "-n", str(plan.simulate_games), "--seed", "1", "--json", "--jobs", "1"]
    report = ["report", game_id, *opts, "-n", str(plan.report_games), "--seed", "1", "--jobs", "1", "--fresh"]
    return simulate, report


def _best_seconds(build: str, args: list[str], plan: Plan) -> float:
    return min(_cli_seconds(build, args) for _ in range(plan.repeat))


def _better(a: dict[str, Any] | None, b: dict[str, Any]) -> dict[str, Any]:
    """Each measure's better value of two runs of one build."""
    if a is None:
        return b
    out = dict(b)
    for key, _, more, _ in MEASURES:
        x, y = a.get(key), b.get(key)
        if x is not None and y is not None:
            out[key] = max(x, y) if more else min(x, y)
    return out


def compiled_present() -> bool:
    """Whether a process that does not force pure Python runs the compiled build (built and not stale)."""
    cmd = [sys.executable, "-W", "ignore", "-c", "import cardarena; print(int(cardarena.COMPILED))"]
    return _run(cmd, "compiled").strip() == "1"


def compare_configuration(game_id: str, options: dict[str, Any], plan: Plan, *, compiled: bool) -> dict[str, Any]:
    """One configuration measured in both builds (or the pure one only, when ``compiled`` is false)."""
    builds = BUILDS if compiled else ("pure",)
    best: dict[str, dict[str, Any] | None] = {b: None for b in builds}
    for _ in range(plan.repeat):
        for build in builds:
            best[build] = _better(best[build], _measure_in(build, game_id, options, plan))
    simulate, report_args = _cli_runs(game_id, options, plan)
    with tempfile.TemporaryDirectory(prefix="cardarena-bench-") as tmp:
        for build in builds:
            row = best[build]
            assert row is not None
            row["simulate_s"] = _best_seconds(build, simulate, plan) if plan.simulate_games else None
            out = ["--out", os.path.join(tmp, build)]
            row["report_s"] = _best_seconds(build, report_args + out, plan) if plan.report_games else None
    row_out: dict[str, Any] = {"configuration": label(game_id, options), "game": game_id, "options": options}
    row_out.update({b: best[b] for b in builds})
    if compiled:
        row_out["ratio"] = ratios(best["pure"], best["compiled"])
    return row_out


def ratios(pure: dict[str, Any] | None, compiled: dict[str, Any] | None) -> dict[str, float | None]:
    """compiled / pure for each measure: above 1 is faster for rates, below 1 is faster for times."""
    out: dict[str, float | None] = {}
    for key, _, _, _ in MEASURES:
        p = None if pure is None else pure.get(key)
        c = None if compiled is None else compiled.get(key)
        out[key] = round(c / p, 2) if p and c is not None else None
    return out


def openspiel_anchor(seconds: float, *, game_name: str = "hearts", seed: int = 1) -> dict[str, Any] | None:
    """OpenSpiel's C++ ``game_name`` played from Python by the random loop of ``bench_game`` (None without pyspiel).

    Chance nodes (hearts' pass direction and deal) draw a uniform outcome among those allowed; ``decisions_per_s``
    counts the players' decisions only, as ours do (our games deal from the seed, without chance nodes), over the
    whole time, dealing included; ``steps_per_s`` counts the chance steps too.
    """
    try:
        import pyspiel
    except ImportError:
        return None
    import random

    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)
    games = decisions = chance = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "game": f"openspiel {game_name}",
        "decisions_per_s": round(decisions / elapsed, 1),
        "steps_per_s": round((decisions + chance) / elapsed, 1),
        "games_per_s": round(games / elapsed, 1),
    }


def compare(
    configs: list[tuple[str, dict[str, Any]]],
    plan: Plan,
    *,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every configuration in both builds, then the anchor; the result ``bench --compare --json`` prints."""
    compiled = compiled_present()
    rows = []
    for game_id, options in configs:
        if progress is not None:
            progress(label(game_id, options))
        rows.append(compare_configuration(game_id, options, plan, compiled=compiled))
    if progress is not None:
        progress("openspiel hearts")
    return {
        "compiled_present": compiled,
        "plan": plan.__dict__,
        "load_1min": round(os.getloadavg()[0], 2),
        "results": rows,
        "anchor": openspiel_anchor(plan.seconds),
    }


def _cell(value: float | None, form: str) -> str:
    return "-" if value is None else form.format(value)


def tables(result: dict[str, Any]) -> list[Table]:
    """``bench --compare``'s tables: each configuration's pure, compiled and ratio rows; the anchor below."""
    plan = result["plan"]
    title = (
        f"pure and compiled builds, one core: {plan['seconds']:g} s per timed loop, {plan['agent']} at "
        f"{plan['positions']} positions, simulate -n {plan['simulate_games']}, report -n {plan['report_games']}"
    )
    numbers = (Column(m[1], justify="right", overflow="fold") for m in MEASURES)
    table = Table(Column("configuration", overflow="fold"), "build", *numbers, title=title)
    for row in result["results"]:
        name = row["configuration"]
        for build in BUILDS:
            values = row.get(build)
            if values is None:
                table.add_row(name, build, *("-" for _ in MEASURES))  # not built: the notes say so
            else:
                table.add_row(name, build, *(_cell(values.get(k), f) for k, _, _, f in MEASURES))
            name = ""
        if "ratio" in row:
            table.add_row("", "ratio", *(_cell(row["ratio"][k], "×{:.2f}") for k, _, _, _ in MEASURES))
        table.add_section()
    anchor = result.get("anchor")
    if anchor is not None:
        cells = {"decisions_per_s": anchor["decisions_per_s"], "games_per_s": anchor["games_per_s"]}
        table.add_row(anchor["game"] + " (C++)", "", *(_cell(cells.get(k), f) for k, _, _, f in MEASURES))
    return [table]


def markdown(result: dict[str, Any]) -> str:
    """The table as Markdown (``--markdown``, for docs/speed.md): one row per configuration, each measure as
    ``pure → compiled (×ratio)``, the anchor last."""
    heads = ["configuration", *(m[1] for m in MEASURES)]
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
    for row in result["results"]:
        cells = [row["configuration"]]
        for key, _, _, form in MEASURES:
            pure = row["pure"].get(key)
            compiled = row.get("compiled") or {}
            text = _cell(pure, form)
            if compiled.get(key) is not None:
                text += f" → {_cell(compiled[key], form)} (**{_cell(row['ratio'][key], '×{:.2f}')}**)"
            cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    anchor = result.get("anchor")
    if anchor is not None:
        cells = [anchor["game"] + " (C++)", _cell(anchor["decisions_per_s"], "{:,.0f}")]
        cells += [_cell(anchor["games_per_s"], "{:,.1f}"), *("" for _ in MEASURES[2:])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def notes(result: dict[str, Any]) -> list[str]:
    """The lines printed under the table: what the ratios mean, the build that was missing, the load."""
    if result["compiled_present"]:
        lines = ["ratio: compiled/pure, above 1 is faster for rates (/s), below 1 is faster for times (µs, s)."]
    else:
        lines = ["no compiled build runs in this checkout (none built, or older than its sources): `make compiled`"]
    anchor = result.get("anchor")
    if anchor is None:
        lines.append("OpenSpiel's hearts not measured: pyspiel is not installed (the interop extra)")
    else:
        lines.append(
            f"openspiel hearts: decisions/s counts the players' moves; with the 52 dealt cards (chance nodes) "
            f"{anchor['steps_per_s']:,.0f} steps/s"
        )
    lines.append(f"load: {result['load_1min']:.1f} (the 1-minute load average at the end; above 1 means shared cores)")
    return lines


def _emit(argv: list[str]) -> int:
    game_id, options, plan = argv[0], json.loads(argv[1]), Plan(**json.loads(argv[2]))
    print(json.dumps(measure(game_id, options, plan)))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] != ["--emit"] or len(sys.argv) != 5:
        sys.exit("usage: python -m cardarena.cli.bench_compare --emit GAME OPTIONS PLAN (cardarena bench --compare)")
    sys.exit(_emit(sys.argv[2:]))
