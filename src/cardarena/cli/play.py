"""Terminal play: a person (or two, sharing the keyboard) against agents."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from ..agents import SeatView, make_agent
from ..engine import Action, Game, RulesError, State, derive_seed

Prompt = Callable[[str], str]

HELP = (
    "Type a number or an action's text. '?' lists the actions again, 'board' redraws, 'skip' passes whenever"
    " you may until the next turn, 'quit' leaves."
)
QUIT = "quit"
SKIP = "skip"


def choose(state: State, seat: int, ask: Prompt, echo: Callable[[str], None]) -> Action | str:
    """Ask the person at ``seat`` for a legal action until they give one, or the command ``quit``/``skip``."""
    game = state.game
    legal = state.legal_actions()
    _list_actions(game, state, legal, echo)
    while True:
        try:
            answer = ask(f"seat {seat}> ").strip()
        except (EOFError, click.Abort):
            return QUIT
        if not answer:
            continue
        if answer in {"quit", "exit", "q"}:
            return QUIT
        if answer == SKIP:
            if any(_is_pass(a) for a in legal):
                return SKIP
            echo("  'skip' needs 'pass' among your choices; choose one of them.")
            continue
        if answer in {"?", "help", "h"}:
            echo(HELP)
            _list_actions(game, state, legal, echo)
            continue
        if answer == "board":
            echo(game.render(state, seat))
            continue
        if answer.isdigit():
            k = int(answer)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            echo(f"  no action number {k}: choose 1 to {len(legal)}.")
            continue
        try:
            return state.parse_legal(answer)
        except RulesError as e:
            echo(f"  not accepted: {e}. {HELP}")


def _list_actions(game: Game, state: State, legal: list[Action], echo: Callable[[str], None]) -> None:
    echo("Your choices:")
    for k, a in enumerate(legal, 1):
        echo(f"  {k:>3}. {_with_text(str(a), game.describe_action(state, a))}")


def _with_text(text: str, description: str) -> str:
    """The canonical text followed by the description, without saying the text twice."""
    return description if description.startswith(text) else f"{text} — {description}"


def _is_pass(action: Action) -> bool:
    return str(action) == "pass"


def run_play(
    game: Game,
    *,
    seat: int,
    opponent: str,
    seed: int,
    auto: bool,
    record: Path | None,
    ask: Prompt,
    echo: Callable[[str], None],
) -> State:
    """The interactive loop. ``opponent`` is an agent name, or ``human`` for players sharing one terminal."""
    state = game.new_initial_state(seed)
    humans = set(range(game.num_players)) if opponent == "human" else {seat}
    agents = {s: make_agent(opponent, derive_seed(seed, s + 1)) for s in range(game.num_players) if s not in humans}
    echo(f"{game.name} — you are seat {seat}" if len(humans) == 1 else f"{game.name} — players share this terminal")
    echo(HELP)
    last_shown: tuple[int, int] | None = None
    skipping: dict[int, int] = {}  # seat -> the turn during which it passes whenever it may
    while not state.is_terminal():
        who = state.current_player
        assert who is not None
        if who in humans:
            legal = state.legal_actions()
            if skipping.get(who) == state.turn:
                passes = [a for a in legal if _is_pass(a)]
                if passes:
                    state.apply(passes[0])
                    continue
            skipping.pop(who, None)
            if auto and len(legal) == 1:
                if not _is_pass(legal[0]):
                    echo(f"seat {who}: {legal[0]} (the only choice)")
                state.apply(legal[0])
                continue
            if last_shown != (who, len(state.history)):
                echo("")
                echo(game.render(state, who))
                last_shown = (who, len(state.history))
            action = choose(state, who, ask, echo)
            if action == QUIT:
                echo("You left the game.")
                break
            if action == SKIP:
                skipping[who] = state.turn
                echo(f"seat {who}: passing whenever possible until turn {state.turn} ends")
                continue
            assert not isinstance(action, str)
            state.apply(action)
        else:
            action = agents[who].act(SeatView(state, who))
            seen = game.action_seen_by(state, action, seat)
            if seen and not _is_pass(action):
                echo(f"seat {who} ({opponent}): {seen}")
            state.apply(action)
    if state.is_terminal():
        echo("")
        echo(game.render(state, seat))
        echo(_result_line(state, seat))
    if record is not None:
        record.write_text(json.dumps(state.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        echo(f"record written to {record}")
    return state


def _result_line(state: State, seat: int) -> str:
    returns = state.returns()
    if max(returns) == min(returns):
        return f"Game over: a draw after {state.turn} turns."
    winners = [s for s, v in enumerate(returns) if v == max(returns)]
    you = " — you win!" if seat in winners else " — you lose."
    return f"Game over after {state.turn} turns: seat(s) {', '.join(map(str, winners))} win{you}"
