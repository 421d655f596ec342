"""``cardarena``: games, rules, play, simulate, replay, bench."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import signal
import sys
import threading
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from .. import BUILD, engine
from ..agents import make_agent
from ..agents.analysis import DEFAULT_AGENT as DEFAULT_ANALYST
from ..agents.analysis import analyst
from ..arena import bench_agent, bench_game, simulate
from ..engine.options import parse_option_pairs
from .advice import DEFAULT_HINT
from .common import agent_specs, agents_option, fail, runner_options
from .play import check_opponent, help_lines, model_line, opponent_spec, run_play
from .progress import GameProgress
from .screen import Screen
from .stepper import step_through

console = Console(highlight=False)

OPTION_HELP = "game option name=value (repeatable); `cardarena rules GAME` lists them"


def _jsonable(value: object) -> object:
    """An option's value as JSON shows it (paths as text)."""
    return value if isinstance(value, (str, int, float, bool, type(None))) else str(value)


def _load(game_id: str, pairs: tuple[str, ...]) -> engine.Game:
    try:
        return engine.load(game_id, **parse_option_pairs(pairs))
    except engine.RulesError as e:
        fail(str(e))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardarena", message=f"%(prog)s %(version)s, {BUILD}")
def cli() -> None:
    """cardarena: play and simulate tabletop card battle games."""


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="print JSON")
def games(as_json: bool) -> None:
    """List the games: ids, names, versions, player counts."""
    rows = [engine.game_class(g) for g in engine.games()]
    if as_json:
        click.echo(
            json.dumps(
                [{"id": c.id, "name": c.name, "version": c.version, "players": list(c.player_counts)} for c in rows],
                ensure_ascii=False,
            )
        )
        return
    table = Table("id", "name", "version", "players")
    for c in rows:
        table.add_row(c.id, c.name, c.version, ", ".join(map(str, c.player_counts)))
    console.print(table)


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option("--option", "-o", "options", multiple=True, help=OPTION_HELP)
def rules(game_id: str, options: tuple[str, ...]) -> None:
    """Print the rules of GAME (from the top, paged in a terminal), the terminal's commands and the options."""
    game = _load(game_id, options)
    text = game.rules_text()
    commands = ["## Terminal commands (`cardarena play`, every game)", "", "```"]
    commands += [*help_lines(has_pass=game.has_passes), "```", "", ""]
    at = text.find(game.options_text())  # after the game's own page, before the options (and what follows them)
    at = len(text) if at < 0 else at
    text = text[:at].rstrip() + "\n\n" + "\n".join(commands) + text[at:]
    if _interactive():
        click.echo_via_pager(text)
    else:
        click.echo(text)


def _interactive() -> bool:
    """Whether a person sits at a terminal (stdin and stdout both ttys): only then are outputs paged."""
    return sys.stdin.isatty() and sys.stdout.isatty()


@cli.command()
@click.argument("game_id", metavar="GAME")
@click.option("--seat", default=0, show_default=True, help="your seat")
@click.option(
    "--vs",
    "opponent",
    default="random",
    show_default=True,
    help="the other seats: a strength (easy, normal, hard, expert: the browser's), an agent spec (random, heuristic,"
    " ismcts:iterations=500, expert:iterations=400, ...), or 'human' to share the terminal",
)
@click.option("--seed", default=None, type=int, help="seed (default: random)")
@click.option("--option", "-o", "options", multiple=True, help=OPTION_HELP)
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    help="write the game record here once the game is over (a record shows every seat's hidden choices, so a game"
    " left unfinished is not written)",
)
@click.option("--no-auto", is_flag=True, help="ask even when there is a single choice")
@click.option("--hint", "hint_spec", default=DEFAULT_HINT, show_default=True, help="agent spec that ':hint' asks")
@click.option("--allow-cheating", is_flag=True, help="allow an opponent that reads the true state (an analysis agent)")
def play(
    game_id: str,
    seat: int,
    opponent: str,
    seed: int | None,
    options: tuple[str, ...],
    record: Path | None,
    no_auto: bool,
    hint_spec: str,
    allow_cheating: bool,
) -> None:
    """Play GAME in the terminal (type ? while playing for help)."""
    game = _load(game_id, options)
    if not 0 <= seat < game.num_players:
        fail(f"--seat must be in 0..{game.num_players - 1}")
    try:
        check_opponent(opponent_spec(opponent, game.id), allow_cheating=allow_cheating)
        if opponent != "human":
            model_line(opponent_spec(opponent, game.id), game)  # an expert's model file that cannot be read
    except engine.RulesError as e:
        fail(f"--vs: {e}")
    try:
        make_agent(hint_spec, 0)
    except engine.RulesError as e:
        fail(f"--hint: {e}")
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
        click.echo(f"seed {seed}")

    def ask(prompt: str) -> str:
        return input(prompt)

    screen = Screen(click.echo, console=Console(highlight=False), ask=ask, interactive=_interactive())
    try:
        run_play(
            game,
            seat=seat,
            opponent=opponent,
            seed=seed,
            auto=not no_auto,
            record=record,
            ask=ask,
            echo=click.echo,
            screen=screen,
            hint=hint_spec,
            allow_cheating=allow_cheating,
        )
    except KeyboardInterrupt:  # Ctrl-C while an agent thinks: leave as ':quit' does
        click.echo("\nYou left the game.")


@cli.command("simulate")
@click.argument("game_id", metavar="GAME")
@click.option("-n", "n", default=100, show_default=True, help="number of games")
@click.option("--seed", default=0, show_default=True, help="seed of the whole run")
@agents_option("agent per seat (one: every seat), e.g. --agents ismcts:iterations=200,random.", default="random")
@click.option("--option", "-o", "options", multiple=True, help=OPTION_HELP)
@runner_options(jobs_default=1)
@click.option("--record", "record_dir", type=click.Path(file_okay=False), help="write every record to DIR")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def simulate_cmd(
    game_id: str,
    n: int,
    seed: int,
    agents: tuple[str, ...],
    options: tuple[str, ...],
    jobs: int,
    backend: str,
    address: str | None,
    record_dir: str | None,
    as_json: bool,
) -> None:
    """Play N seeded games between agents and summarise the results."""
    if n < 0 or jobs < 1:
        fail("-n must be ≥ 0 and --jobs ≥ 1")
    try:
        with GameProgress(f"{game_id} simulate") as bar:
            summary = simulate(
                game_id,
                n=n,
                seed=seed,
                agents=agent_specs(agents) or ["random"],
                options=parse_option_pairs(options),
                jobs=jobs,
                record_dir=record_dir,
                backend=backend,
                address=address,
                progress=bar,
            )
    except engine.RulesError as e:
        fail(str(e))
    except KeyboardInterrupt:
        click.echo("\ninterrupted: simulate keeps no results (a tournament's --out does)", err=True)
        sys.exit(130)
    game = _load(game_id, options)
    summary["wins_by_seat"] = {f"seat {s}": w for s, w in enumerate(summary["wins"])}
    summary["options_in_force"] = {k: _jsonable(v) for k, v in game.options.items()}
    written = None
    if record_dir is not None:
        written = sum(1 for _ in Path(record_dir).glob(f"{game.id}-*.json"))
        summary["records"] = {"dir": str(Path(record_dir).resolve()), "files": written}
    if as_json:
        click.echo(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return
    table = Table(title=f"{summary['game']}: {summary['games']} games, seed {seed}")
    table.add_column("what")
    table.add_column("value", justify="right")
    for s, w in enumerate(summary["wins"]):
        table.add_row(f"seat {s} ({summary['agents'][s]}) wins", str(w))
    for key in ("draws", "mean_turns", "median_turns", "mean_decisions", "errors"):
        table.add_row(key.replace("_", " "), str(summary[key]))
    console.print(table)
    click.echo("options: " + ", ".join(f"{k}={v}" for k, v in summary["options_in_force"].items()))
    if written is not None:
        click.echo(f"{written} record(s) in {summary['records']['dir']} ({game.id}-NNNNNN.json, one per finished game)")
    for sample in summary.get("error_samples", []):
        console.print(f"[red]error[/red] in game {sample['game']} (seed {sample['seed']}): {sample['error']}")


@cli.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--verify", is_flag=True, help="fail if the replayed result differs from the recorded one")
@click.option(
    "--seat",
    default=None,
    type=int,
    help="show the game as this seat saw it (default: a spectator); with --analyse, analyse this seat only",
)
@click.option(
    "--step",
    is_flag=True,
    help="show every position and action (Enter for the next one in a terminal; printed whole otherwise)",
)
@click.option(
    "--analyse",
    "--analyze",
    "analyse",
    is_flag=True,
    help="estimate each decision's win probability, played and best move, from the seat's information only; "
    "flag the mistakes (docs/agents.md, Post-game analysis)",
)
@click.option(
    "--agent",
    "agent_spec",
    default=DEFAULT_ANALYST,
    show_default=True,
    help="--analyse: the analysing search (expert or ismcts spec, e.g. expert:iterations=400)",
)
@click.option("--seed", "analysis_seed", default=0, show_default=True, help="--analyse: the searches' seed")
@click.option("--json", "as_json", is_flag=True, help="--analyse: print the analysis as JSON")
def replay_cmd(
    file: Path,
    verify: bool,
    seat: int | None,
    step: bool,
    analyse: bool,
    agent_spec: str,
    analysis_seed: int,
    as_json: bool,
) -> None:
    """Re-run a game record; --analyse rates the decisions in it."""
    try:
        state = engine.replay(file, verify=verify)
    except engine.RulesError as e:
        fail(str(e))
    if seat is not None and not 0 <= seat < state.game.num_players:
        fail(f"--seat must be in 0..{state.game.num_players - 1}")
    if as_json and not analyse:
        fail("--json goes with --analyse")
    if analyse:
        from .analysis import run_analysis  # the searches are loaded only when asked for

        run_analysis(file, state, seat, agent_spec, analysis_seed, as_json=as_json, console=console)
        return
    if step:
        interactive = _interactive()
        ask = input if interactive else None
        screen = Screen(click.echo, console=Console(highlight=False), ask=ask, interactive=interactive)
        step_through(state, seat, screen, ask=ask)
    else:
        click.echo(state.game.render(state, seat))
    result = state.returns() if state.is_terminal() else None
    click.echo(f"{len(state.history)} actions replayed; result {result}" + (" (verified)" if verify else ""))


@cli.command()
@click.argument("game_ids", metavar="[GAME]...", nargs=-1)
@click.option("--seconds", default=3.0, show_default=True, help="time per game")
@click.option("--option", "-o", "options", multiple=True, help=OPTION_HELP + " (applied to every GAME)")
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@click.option(
    "--agent", "agent_spec", default=None, help="measure this agent's search instead (e.g. ismcts:iterations=500)"
)
@click.option(
    "--rl",
    "rl",
    is_flag=True,
    help="measure the RL environments instead: steps/s with encodings and masks (docs/rl.md)",
)
@click.option(
    "--compare",
    is_flag=True,
    help="the pure and the compiled build side by side, each in its own process, with compiled/pure ratios and "
    "OpenSpiel's C++ hearts beside them; without GAME every game and Tash-Kalar's modes (docs/speed.md)",
)
@click.option("--markdown", "as_markdown", is_flag=True, help="--compare: print the table as Markdown (docs/speed.md)")
@click.option(
    "--repeat", default=1, show_default=True, type=click.IntRange(1, 20), help="--compare: runs per build, best kept"
)
@click.option(
    "--simulate-games",
    default=500,
    show_default=True,
    type=click.IntRange(0),
    help="--compare: games of the timed `cardarena simulate` (random agents, one worker; 0: not timed)",
)
@click.option(
    "--report-games",
    default=30,
    show_default=True,
    type=click.IntRange(0),
    help="--compare: games of the timed `cardarena report` (heuristic agents, one worker; 0: not timed)",
)
def bench(
    game_ids: tuple[str, ...],
    seconds: float,
    options: tuple[str, ...],
    as_json: bool,
    agent_spec: str | None,
    rl: bool,
    compare: bool,
    as_markdown: bool,
    repeat: int,
    simulate_games: int,
    report_games: int,
) -> None:
    """Random-playout speed on one core: games/s, decisions/s, clone µs (or an agent's search speed, or --rl).

    With --compare: the pure and the compiled build side by side in one run (docs/speed.md)."""
    if compare:
        _bench_compare(
            game_ids, options, seconds, as_json, as_markdown, agent_spec, repeat, simulate_games, report_games
        )
        return
    if not as_json:
        console.print(f"build: {BUILD}")
    ids = list(game_ids) or engine.games()
    if rl:
        _bench_rl(ids, options, seconds, as_json)
        return
    if agent_spec is not None:
        try:
            make_agent(agent_spec, 0)
        except engine.RulesError as e:
            fail(str(e))
        rows = [bench_agent(_load(g, options), agent_spec) for g in ids]
        if as_json:
            click.echo(json.dumps({"build": BUILD, "results": rows}))
            return
        timed = any("overshoot_pct" in r for r in rows)
        heads = ["game", "agent", "positions", "s/decision", "iterations/s", "rollout decisions/s"]
        table = Table(*heads, *(["overshoot %"] if timed else []), title="search at mid-game positions")
        for r in rows:
            its = "-" if r["iterations_per_s"] is None else f"{r['iterations_per_s']:,.0f}"
            dps = "-" if r["rollout_decisions_per_s"] is None else f"{r['rollout_decisions_per_s']:,.0f}"
            over = [f"{r['overshoot_pct']:+.1f}"] if timed else []
            table.add_row(
                r["game"], r["agent"], str(r["positions"]), f"{r['seconds_per_decision']:.3f}", its, dps, *over
            )
        console.print(table)
        return
    results = [bench_game(_load(g, options), seconds=seconds) for g in ids]
    if as_json:
        click.echo(json.dumps({"build": BUILD, "results": results}))
        return
    table = Table("game", "games/s", "decisions/s", "clone µs", title=f"random playouts, {seconds:g} s per game")
    for r in results:
        table.add_row(r["game"], f"{r['games_per_s']:,.1f}", f"{r['decisions_per_s']:,.0f}", f"{r['clone_us']:.2f}")
    console.print(table)


def _bench_compare(
    game_ids: tuple[str, ...],
    options: tuple[str, ...],
    seconds: float,
    as_json: bool,
    as_markdown: bool,
    agent_spec: str | None,
    repeat: int,
    simulate_games: int,
    report_games: int,
) -> None:
    """``bench --compare``: both builds, each in its own process (cardarena.cli.bench_compare)."""
    from . import bench_compare as bc

    if game_ids:
        configs = [(g, dict(parse_option_pairs(options))) for g in game_ids]
        for g in game_ids:
            _load(g, options)  # every check before the first measure
    elif options:
        fail("--option applies to the GAMEs given: name them (without GAME, --compare measures its own list)")
    else:
        configs = list(bc.CONFIGURATIONS)
    spec = agent_spec or bc.Plan.agent
    try:
        make_agent(spec, 0)
    except engine.RulesError as e:
        fail(str(e))
    plan = bc.Plan(seconds=seconds, agent=spec, repeat=repeat, simulate_games=simulate_games, report_games=report_games)
    result = bc.compare(configs, plan, progress=lambda what: click.echo(f"measuring {what}", err=True))
    if as_json:
        click.echo(json.dumps(result))
        return
    if as_markdown:
        click.echo(bc.markdown(result), nl=False)
        return
    for table in bc.tables(result):
        console.print(table)
    for line in bc.notes(result):
        console.print(line)


def _bench_rl(ids: list[str], options: tuple[str, ...], seconds: float, as_json: bool) -> None:
    """``bench --rl``: PettingZoo environment steps/s with encodings and masks (cardarena.rl.bench)."""
    try:
        from ..rl.bench import bench_env
    except ImportError as e:
        fail(f"the RL environments need the rl extra (pip install -e '.[rl]'): {e}")
    results = [bench_env(_load(g, options), seconds=seconds) for g in ids]
    if as_json:
        click.echo(json.dumps({"build": BUILD, "results": results}))
        return
    title = f"RL environment (PettingZoo AEC, random masked play), {seconds:g} s per game"
    table = Table("game", "steps/s", "decisions/s", "episodes/s", "observation", "actions", "load", title=title)
    for r in results:
        table.add_row(
            r["game"],
            f"{r['steps_per_s']:,.0f}",
            f"{r['decisions_per_s']:,.0f}",
            f"{r['episodes_per_s']:,.1f}",
            str(r["observation_size"]),
            f"{r['action_width']} x {r['action_depth']}",
            f"{r['load_1min']:.1f}",
        )
    console.print(table)
    console.print("load: the 1-minute load average while measuring (2 cores: above 1 means shared cores)")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, help="port to listen on")
@click.option(
    "--db",
    default=None,
    help="database URL: sqlite:///PATH, postgresql+psycopg://user:password@host/dbname, or memory:// (nothing kept) "
    "[sqlite:///$CARDARENA_DATA/cardarena.db, CARDARENA_DATA defaulting to ./data]",
)
@click.option(
    "--ai-workers",
    default=None,
    type=click.IntRange(0, 64),
    help="processes for AI searches, plus one kept for the cheap agents [min(4, cores)]",
)
@click.option(
    "--ai-budget",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 600),
    help="seconds an AI decision may think: a search stops then and plays its best action so far",
)
@click.option(
    "--allow-agent-specs",
    is_flag=True,
    help="let a new game's AI seats give an agent spec ('agent': 'ismcts:iterations=500') instead of a strength "
    "(easy, normal, hard); each decision still thinks at most --ai-budget seconds",
)
@click.option(
    "--open-games-per-address",
    default=5,
    show_default=True,
    type=click.IntRange(0),
    help="games waiting for players one client address may have, and games of AI seats only it may run (0: no "
    "cap; behind a proxy see docs/web.md)",
)
@click.option(
    "--expire-open-after",
    default=3600.0,
    show_default=True,
    type=click.FloatRange(0, min_open=True),
    help="seconds after which a game that has not started (not every human seat joined) is abandoned",
)
@click.option(
    "--unload-idle-after",
    default=600.0,
    show_default=True,
    type=click.FloatRange(0, min_open=True),
    help="seconds after which a table nothing uses (no connection, no AI to act, no clock) leaves memory",
)
@click.option(
    "--analysis-agent",
    default=DEFAULT_ANALYST,
    show_default=True,
    help="the search that analyses finished games on the replay page (expert or ismcts spec)",
)
def serve(
    host: str,
    port: int,
    db: str | None,
    ai_workers: int | None,
    ai_budget: float,
    allow_agent_specs: bool,
    open_games_per_address: int,
    expire_open_after: float,
    unload_idle_after: float,
    analysis_agent: str,
) -> None:
    """Serve the browser platform: the lobby, the tables, AI seats (docs/web.md)."""
    from ..web.app import serve as run_server  # the web extra is imported only by this command
    from ..web.capacity import Capacity
    from ..web.store import StoreError, default_database_url

    if db is None:
        db = default_database_url()
    if db.startswith("sqlite:///"):  # the data directory of the default database
        Path(db.removeprefix("sqlite:///").partition("?")[0]).parent.mkdir(parents=True, exist_ok=True)
    try:
        analyst(analysis_agent)
    except engine.OptionError as e:
        fail(f"--analysis-agent: {e}")
    try:
        capacity = Capacity(open_games_per_address, expire_open_after, unload_idle_after)
        run_server(
            host=host,
            port=port,
            db=db,
            ai_workers=ai_workers,
            echo=click.echo,
            ai_budget=ai_budget,
            allow_agent_specs=allow_agent_specs,
            capacity=capacity,
            analysis_agent=analysis_agent,
        )
    except StoreError as e:
        fail(str(e))


def _add_game_commands() -> None:
    """Registered per-game command groups: each module ``cli/<game id>_cmd.py`` gives its click group as ``COMMAND``
    (``cardarena laplaplace league DIR``). Such a module reaches its game only through the arena and the state
    protocol, never through the game package's internals."""
    package = sys.modules[__package__]
    for module_info in pkgutil.iter_modules(package.__path__):
        if module_info.name.endswith("_cmd"):
            module = importlib.import_module(f"{__package__}.{module_info.name}")
            cli.add_command(module.COMMAND)


_add_game_commands()


TERM_GRACE_SECONDS = 20.0  # how long a terminated command may take to unwind before it is ended where it stands


def _terminated(signum: int, frame: object) -> None:
    # Python ignores an exception raised where it cannot propagate (a finaliser, a fork hook): should the unwinding
    # not happen, or hang, the signal is sent again after a grace period, and then ends the process (the default).
    signal.signal(signum, signal.SIG_DFL)
    backstop = threading.Timer(TERM_GRACE_SECONDS, os.kill, (os.getpid(), signum))
    backstop.daemon = True  # an exit that unwinds does not wait for it
    backstop.start()
    raise SystemExit(128 + signum)


def main() -> None:
    """The console script: a user's mistake (a bad option, a broken data file) is an error line, not a traceback.

    SIGTERM (``kill``, a service manager, a batch system's time limit) exits with status 143 as it would, but through
    Python's unwinding, so what a command holds is released on the way out: its worker processes stopped, temporary
    folders removed, stores closed. (Python's default would end the process where it stands.)"""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        cli()
    except engine.RulesError as e:
        fail(str(e))
    except ModuleNotFoundError as e:
        extra = EXTRA_OF.get((e.name or "").partition(".")[0])
        if extra is None:
            raise
        fail(
            f"this command needs {e.name}, from cardarena's '{extra}' extra, which is not installed here "
            f"(`make run` installs only the server's): .venv/bin/pip install -e '.[{extra}]', or `make test`, "
            "which installs every extra"
        )


#: The optional packages of pyproject.toml's extras, by import name: a command that needs one that is missing says
#: which extra to install (`make run` installs only `web`).
EXTRA_OF = {
    "numpy": "arena",
    "scipy": "arena",
    "statsmodels": "arena",
    "matplotlib": "arena",
    "jinja2": "arena",
    "threadpoolctl": "arena",
    "tomli_w": "arena",
    "optuna": "arena",
    "ray": "arena",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "openspiel",
    "open_spiel": "openspiel",
    "jax": "train",
    "optax": "train",
    "fastapi": "web",
    "uvicorn": "web",
    "sqlalchemy": "web",
    "alembic": "web",
    "psycopg": "web",
}


if __name__ == "__main__":
    main()
