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
    "Type a number or an action's text. The command line's own commands start with ':' — ':help' (or '?') lists"
    " the actions again, ':board' redraws, ':skip' passes whenever you may until the next turn, ':quit' leaves."
    " Without the ':' they work too, unless the game reads the text as one of its own actions (it always wins)."
)
QUIT = "quit"
SKIP = "skip"
PREFIX = ":"
# the command line's own commands (typed with the prefix; bare only where the game has no action of that text)
COMMANDS = {
    "quit": QUIT,
    "q": QUIT,
    "exit": QUIT,
    "skip": SKIP,
    "help": "help",
    "h": "help",
    "?": "help",
    "board": "board",
}


def command_words() -> list[str]:
    """Every text that is the command line's own command whatever the game: the prefixed words."""
    return [PREFIX + w for w in COMMANDS]


class Refusal(str):
    """What to tell the person when an answer is neither a legal action nor a command."""

    __slots__ = ()


def interpret(state: State, legal: list[Action], answer: str) -> Action | str:
    """An answer read as a legal action, a command (``quit``, ``skip``, ``help``, ``board``) or a :class:`Refusal`.

    The order makes sure the command line never shadows a game's action text: a number picks a listed action (no
    game has an action whose text is a number); ``:word`` is the command line's own command; any other text the
    game reads as one of its actions is that action (refused with the reason when it is not legal now); only a
    text the game cannot read as an action may be a bare command word (``quit``).
    """
    if answer.isdigit():
        k = int(answer)
        if 1 <= k <= len(legal):
            return legal[k - 1]
        return Refusal(f"no action number {k}: choose 1 to {len(legal)}.")
    if answer.startswith(PREFIX):
        command = COMMANDS.get(answer[len(PREFIX) :].strip().lower())
        return Refusal(f"no command {answer!r}. {HELP}") if command is None else command
    try:
        state.game.parse_action(state, answer)
    except RulesError as e:
        command = COMMANDS.get(answer.lower())
        return Refusal(f"not accepted: {e}. {HELP}") if command is None else command
    try:
        return state.parse_legal(answer)
    except RulesError as e:
        word = answer.lower()
        hint = f" (the command line's own {word!r} is '{PREFIX}{word}')" if word in COMMANDS else ""
        return Refusal(f"not accepted: {e}{hint}.")


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
        reply = interpret(state, legal, answer)
        if isinstance(reply, Refusal):
            echo(f"  {reply}")
        elif not isinstance(reply, str):
            return reply
        elif reply == QUIT:
            return QUIT
        elif reply == SKIP:
            if any(game.is_pass(a) for a in legal):
                return SKIP
            echo(f"  '{PREFIX}skip' needs a pass among your choices; choose one of them.")
        elif reply == "help":
            echo(HELP)
            _list_actions(game, state, legal, echo)
        else:
            echo(game.render(state, seat))


def _list_actions(game: Game, state: State, legal: list[Action], echo: Callable[[str], None]) -> None:
    echo("Your choices:")
    for k, a in enumerate(legal, 1):
        echo(f"  {k:>3}. {_with_text(str(a), game.describe_action(state, a))}")


def _with_text(text: str, description: str) -> str:
    """The canonical text followed by the description, without saying the text twice."""
    return description if description.startswith(text) else f"{text} — {description}"


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
                passes = [a for a in legal if game.is_pass(a)]
                if passes:
                    _apply_and_narrate(state, passes[0], seat, f"seat {who}", echo, own=True)
                    continue
            skipping.pop(who, None)
            if auto and len(legal) == 1:
                if not game.is_pass(legal[0]):
                    echo(f"seat {who}: {legal[0]} (the only choice)")
                _apply_and_narrate(state, legal[0], seat, f"seat {who}", echo, own=True)
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
            _apply_and_narrate(state, action, seat, f"seat {who}", echo, own=True)
        else:
            action = agents[who].act(SeatView(state, who))
            _apply_and_narrate(state, action, seat, f"seat {who} ({opponent})", echo, own=False)
    if state.is_terminal():
        echo("")
        echo(game.render(state, seat))
        echo(_result_line(state, seat))
    if record is not None:
        write_record(state, record, echo)
    return state


def _apply_and_narrate(
    state: State, action: Action, seat: int, who: str, echo: Callable[[str], None], *, own: bool
) -> None:
    """Apply ``action`` and tell ``seat`` what it saw: the action (not its own: it just chose it) and every
    outcome, as the game narrates them."""
    before = state.clone()
    state.apply(action)
    lines = state.game.narrate(before, action, state, seat)
    if not lines:
        return
    first, outcomes = lines[0], lines[1:]
    if not own:
        echo(f"{who}: {first}")
    for line in outcomes:
        echo(f"  {line}")


def write_record(state: State, path: Path, echo: Callable[[str], None]) -> None:
    """Write the record of a finished game; an unfinished game's record is not written.

    A record holds every action of every seat in full (the cards put under a deck, the hidden sets and builds,
    the other seats' choices): once the game is over that is its public score sheet, but the record of a game
    left unfinished would show what the table has not revealed yet, a secret of the whole table.
    """
    if not state.is_terminal():
        echo(
            f"no record written to {path}: the game is unfinished, and a record holds every seat's hidden choices"
            " (records are written only for finished games)"
        )
        return
    path.write_text(json.dumps(state.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    echo(f"record written to {path}")


def _result_line(state: State, seat: int) -> str:
    returns = state.returns()
    if max(returns) == min(returns):
        return f"Game over: a draw after {state.turn} turns."
    winners = [s for s, v in enumerate(returns) if v == max(returns)]
    you = " — you win!" if seat in winners else " — you lose."
    return f"Game over after {state.turn} turns: seat(s) {', '.join(map(str, winners))} win{you}"
