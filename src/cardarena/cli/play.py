"""Terminal play: a person (or several, sharing the keyboard) against agents.

The shell is generic over the per-game hooks (``Game.choice_label`` groups the menu, ``Game.board`` draws the table,
``Game.narrate`` reports every action and its outcomes, ``Game.hidden_facts`` feeds ``odds``); it works with the
kernel's defaults and gets better as each game supplies its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from ..agents import SeatView, make_agent, parse_spec
from ..agents.expert import model_for, model_path
from ..agents.levels import LEVELS, level_spec
from ..engine import Action, Game, OptionError, RulesError, State, UndoRefused, derive_seed, undo
from .advice import DEFAULT_HINT, ODDS_WORLDS, hint_lines, odds_lines
from .menu import Ambiguous, Menu, Opened
from .screen import Screen, board_lines

Prompt = Callable[[str], str]

QUIT = "quit"
SKIP = "skip"
HELP = "help"
BOARD = "board"
BACK = "back"
HINT = "hint"
ODDS = "odds"
UNDO = "undo"
PREFIX = ":"
# the command line's own commands (typed with the prefix; bare only where the game has no action of that text)
COMMANDS = {
    "quit": QUIT,
    "q": QUIT,
    "exit": QUIT,
    "skip": SKIP,
    "help": HELP,
    "h": HELP,
    "?": HELP,
    "board": BOARD,
    "back": BACK,
    "hint": HINT,
    "odds": ODDS,
    "undo": UNDO,
}
#: a table unchanged since the seat's last decision is not drawn again when fewer lines than this came between
UNCHANGED_TOLD = 8
_TAG_HINT = 0x68696E74  # derive_seed paths: "hint", "odds"
_TAG_ODDS = 0x6F646473


def command_words() -> list[str]:
    """Every text that is the command line's own command whatever the game: the prefixed words."""
    return [PREFIX + w for w in COMMANDS]


def help_lines(*, has_pass: bool, hint_spec: str = DEFAULT_HINT) -> list[str]:
    """The terminal's help (``?`` in play, and the "Terminal commands" of ``cardarena rules``); ``:skip`` is
    mentioned only for a game that has passes."""
    lines = [
        "How to choose: 'Your choices' lists one line per group of actions (a card, a kind of action).",
        "  3          the group numbered 3: taken at once when it is a single action, else its actions are listed",
        "             as a sub-menu, where a number picks one",
        "  3.2        the second action of group 3 (the numbers that '?' shows)",
        "  name       a group's name or its first letters, any case ('pl' for 'play ...'), or the first letters of",
        "             a word of it (a card's name): opens that group; when several groups fit you are told which",
        "  text       the first letters of actions' texts ('place e') list those actions (one alone is taken);",
        "             an action's full text, as '?' shows it, takes it at every prompt",
        "  :back      (or an empty line) leaves a sub-menu",
        "  ?          (or ':help') this help and every choice, numbered",
        "  :board     draws the table again; lines changed since your last decision are highlighted (marked '*')",
        f"  :hint      what a short search ({hint_spec}) would play: its top 3, share of visits, win rate",
        f"  :odds      chances of facts about cards you cannot see, from {ODDS_WORLDS} worlds consistent with what"
        " you know",
    ]
    lines.append(
        "  :undo      take your last action back, while no one else has acted since, no chance was drawn and"
        " nothing hidden was shown by it (you are told why when not)"
    )
    if has_pass:
        lines.append("  :skip      pass whenever you may until the turn ends")
    lines += [
        "  :quit      leaves the game (so does the end of the input)",
        "Commands work without the ':' as well, unless the game reads the word as one of its own actions",
        "(the game's action always wins). Everything the other seats do is reported as you may see it, with",
        "what it caused; long reports are paged in a terminal (Enter for more, q to stop reading).",
    ]
    return lines


class Refusal(str):
    """What to tell the person when an answer is neither a legal action nor a command."""

    __slots__ = ()


def interpret(
    state: State, legal: list[Action], answer: str, *, menu: Menu | None = None, opened: Opened | None = None
) -> Action | Opened | str:
    """An answer read as a legal action, a group to open (:class:`Opened`), a command (``quit``, ``skip``,
    ``help``, ``board``, ``back``, ``hint``, ``odds``, ``undo``) or a :class:`Refusal`.

    The order makes sure the command line never shadows a game's action text: a number is a menu number (no
    game has an action whose text is a number); ``:word`` is the command line's own command; any text the game
    reads as one of its actions is that action (refused with the reason when it is not legal now); a text the
    game cannot read may be a bare command word (``quit``), else a group's name or a prefix of one.
    """
    if answer[:1].isdigit():
        menu = menu if menu is not None else Menu(state.game, state, legal)
        coded = menu.by_code(answer, opened)
        if coded is not None:
            return Refusal(coded) if isinstance(coded, str) else coded
    if answer.startswith(PREFIX):
        command = COMMANDS.get(answer[len(PREFIX) :].strip().lower())
        return Refusal(f"no command {answer!r}; type ? for help.") if command is None else command
    try:
        state.game.parse_action(state, answer)
    except RulesError as e:
        command = COMMANDS.get(answer.lower())
        if command is not None:
            return command
        menu = menu if menu is not None else Menu(state.game, state, legal)
        named = menu.by_name(answer, opened)
        if isinstance(named, Ambiguous):
            return Refusal(named)
        if named is not None:
            return named
        return Refusal(f"not accepted: {e}. Type a number, a name's first letters, or ? for help.")
    try:
        return state.parse_legal(answer)
    except RulesError as e:
        word = answer.lower()
        hint = f" (the command line's own {word!r} is '{PREFIX}{word}')" if word in COMMANDS else ""
        return Refusal(f"not accepted: {e}{hint}.")


class Shell:
    """One game of ``cardarena play``: the loop, the boards each person saw last, the hint and odds seeds."""

    def __init__(
        self,
        game: Game,
        *,
        seat: int,
        opponent: str,
        seed: int,
        auto: bool,
        ask: Prompt,
        screen: Screen,
        hint_spec: str,
    ) -> None:
        self.game = game
        self.seat = seat
        self.opponent = opponent
        self.seed = seed
        self.auto = auto
        self.ask = ask
        self.screen = screen
        self.echo = screen.echo
        self.hint_spec = hint_spec
        self.humans = set(range(game.num_players)) if opponent == "human" else {seat}
        self.agents = {
            s: make_agent(opponent, derive_seed(seed, s + 1)) for s in range(game.num_players) if s not in self.humans
        }
        self.boards: dict[int, dict[str, tuple[str, ...]]] = {}  # seat -> its board at its last decision
        self.baseline: dict[int, dict[str, tuple[str, ...]] | None] = {}  # seat -> the one before that
        self.decisions = 0  # the people's decisions so far (seeds the hints: known to them, unlike the history)
        self.seen_pass = game.has_passes
        self.told = 0  # lines of narration since the last decision drawn
        self.before: State | None = None  # the state before the last action (``:undo``), when kept

    def help(self) -> list[str]:
        return help_lines(has_pass=self.seen_pass, hint_spec=self.hint_spec)

    def run(self, state: State) -> State:
        game = self.game
        echo = self.echo
        echo(
            f"{game.name} — you are seat {self.seat}"
            if len(self.humans) == 1
            else f"{game.name} — players share this terminal"
        )
        echo("Type ? for help (numbers, names, :board, :hint, :odds, :quit).")
        last_shown: tuple[int, int] | None = None
        skipping: dict[int, int] = {}  # seat -> the turn during which it passes whenever it may
        while not state.is_terminal():
            who = state.current_player
            assert who is not None
            if who not in self.humans:
                action = self.agents[who].act(SeatView(state, who))
                self.apply(state, action, f"seat {who} ({self.opponent})", own=False)
                continue
            legal = state.legal_actions()
            if any(game.is_pass(a) for a in legal):
                self.seen_pass = True
            if skipping.get(who) == state.turn:
                passes = [a for a in legal if game.is_pass(a)]
                if passes:
                    self.apply(state, passes[0], f"seat {who}", own=who == self.seat)
                    continue
            skipping.pop(who, None)
            if self.auto and len(legal) == 1:
                if who == self.seat and not game.is_pass(legal[0]):
                    self.screen.tell([f"seat {who}: {legal[0]} (the only choice)"])
                self.apply(state, legal[0], f"seat {who}", own=who == self.seat)
                continue
            self.screen.flush()
            if last_shown != (who, len(state.history)):
                echo("")
                self.draw(state, who, fresh=True, again=False)
                last_shown = (who, len(state.history))
                self.told = 0
            answer = self.choose(state, who, legal)
            self.decisions += 1
            if answer == QUIT:
                echo("You left the game.")
                break
            if answer == UNDO:
                state = self.take_back(state, who)
                last_shown = None
                continue
            if answer == SKIP:
                skipping[who] = state.turn
                echo(f"seat {who}: passing whenever possible until turn {state.turn} ends")
                continue
            assert isinstance(answer, Action)
            self.apply(state, answer, f"seat {who}", own=who == self.seat)
        self.screen.flush()
        if state.is_terminal():
            echo("")
            self.draw(state, self.seat, fresh=True)
            echo(_result_line(state, self.seat))
        return state

    def draw(self, state: State, who: int, *, fresh: bool, again: bool = True) -> None:
        """Draw the board as ``who`` sees it; ``fresh``: a new decision (what it saw last becomes the baseline);
        ``again=False``: say so instead when it is the board ``who`` saw at its last decision, still on screen."""
        panels = self.game.board(state, who)
        if fresh:
            lines = board_lines(panels)
            if not again and lines == self.boards.get(who) and self.told < UNCHANGED_TOLD:
                self.echo("(the table has not changed since your last decision: ':board' draws it)")
                return
            self.baseline[who] = self.boards.get(who)
            self.boards[who] = lines
        self.screen.board(panels, who, self.baseline.get(who))

    def apply(self, state: State, action: Action, who: str, *, own: bool) -> None:
        """Apply ``action`` and tell the person at ``self.seat`` what it saw: the action (not its own: it just
        chose it) and every outcome, as the game narrates them."""
        before = state.clone()
        state.apply(action)
        self.before = before
        lines = self.game.narrate(before, action, state, self.seat)
        if not lines:
            return
        first, outcomes = lines[0], lines[1:]
        told = ([] if own else [f"{who}: {first}"]) + [f"  {line}" for line in outcomes]
        self.told += len(told)
        self.screen.tell(told)

    def take_back(self, state: State, seat: int) -> State:
        """``:undo``: the state before ``seat``'s last action when the kernel's policy allows it (told why not
        otherwise, and ``state`` is kept)."""
        try:
            restored = undo(state, seat, before=self.before)
        except UndoRefused as e:
            self.echo(f"  cannot undo: {e.reason}.")
            return state
        self.echo(f"seat {seat}: took back {state.history[-1]}")
        self.before = None  # a further undo rebuilds the state before from the record
        return restored

    def choose(self, state: State, seat: int, legal: list[Action]) -> Action | str:
        """Ask the person at ``seat`` until they give a legal action, or the command ``quit``/``skip``/``undo``."""
        game = self.game
        echo = self.echo
        menu = Menu(game, state, legal)
        width = self.screen.width
        opened: Opened | None = None

        cut = self.screen.cut

        def show() -> None:
            lines = menu.lines(width, cut=cut) if opened is None else menu.opened_lines(opened, width, cut=cut)
            for line in lines:
                echo(line)

        show()
        while True:
            prompt = f"seat {seat}> " if opened is None else f"seat {seat} {opened.group.name}> "
            try:
                answer = self.ask(prompt).strip()
            except (EOFError, KeyboardInterrupt, click.Abort):
                return QUIT
            if not answer:
                if opened is not None:
                    opened = None
                    show()
                continue
            reply = interpret(state, legal, answer, menu=menu, opened=opened)
            if isinstance(reply, Refusal):
                echo(f"  {reply}")
            elif isinstance(reply, Opened):
                opened = reply
                show()
            elif isinstance(reply, Action):
                return reply
            elif reply in (QUIT, UNDO):
                return str(reply)
            elif reply == SKIP:
                if any(game.is_pass(a) for a in legal):
                    return SKIP
                echo(f"  '{PREFIX}skip' needs a pass among your choices; choose one of them.")
            elif reply == HELP:
                full = menu.full_lines() if opened is None else menu.opened_full_lines(opened)
                self.screen.page([*self.help(), "", *full])
                show()
            elif reply == BOARD:
                self.draw(state, seat, fresh=False)
                show()
            elif reply == BACK:
                opened = None
                show()
            elif reply == HINT:
                echo("  thinking…")
                seed = derive_seed(self.seed, _TAG_HINT, self.decisions)
                for line in hint_lines(state, seat, spec=self.hint_spec, seed=seed, code_of=menu.code_of):
                    echo(line)
            elif reply == ODDS:
                for line in odds_lines(state, seat, seed=derive_seed(self.seed, _TAG_ODDS, self.decisions)):
                    echo(line)


def opponent_spec(opponent: str, game_id: str) -> str:
    """``--vs``: a strength label (``easy``, ``normal``, ``hard``, ``expert``: :data:`~cardarena.agents.levels.
    LEVELS`) stands for its agent spec in the game, the same as in the browser's lobby; anything else is a spec.

    >>> opponent_spec("hard", "lyabi"), opponent_spec("expert:iterations=8", "lyabi")
    ('ismcts:iterations=2000', 'expert:iterations=8')
    """
    return level_spec(opponent, game_id) if opponent in LEVELS else opponent


def model_line(spec: str, game: Game) -> str | None:
    """For an ``expert`` opponent, which evaluation it plays with: the trained model shipped for this game (or the
    file its spec names), or the game's own when none fits (``None`` for another agent)."""
    name, params = parse_spec(spec)
    if name != "expert":
        return None
    try:
        net = model_for(game, params.get("model"))
    except (OSError, ValueError) as e:
        raise OptionError(f"the expert's model {params.get('model')!r} cannot be read: {e}") from e
    if net is None:
        return "The expert has no trained model for this game: it searches with the game's own evaluation."
    where = params.get("model") or model_path(game).name
    return f"The expert plays with its trained model {net.meta.get('key', where)} ({where})."


def check_opponent(spec: str, *, allow_cheating: bool) -> None:
    """Refuse an unknown agent spec, and an agent that reads the true state (its class says ``cheats = True``)
    unless cheating is allowed; ``human`` is always accepted."""
    if spec == "human":
        return
    agent = make_agent(spec, 0)
    if getattr(type(agent), "cheats", False) and not allow_cheating:
        raise OptionError(
            f"agent {spec!r} reads the true state, hidden cards included (it cheats: for analysis only);"
            " add --allow-cheating to play against it anyway"
        )


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
    screen: Screen | None = None,
    hint: str = DEFAULT_HINT,
    allow_cheating: bool = False,
) -> State:
    """The interactive loop. ``opponent`` is an agent spec, or ``human`` for players sharing one terminal; ``hint``
    the agent spec that ``:hint`` asks; a strength label stands for its spec (:func:`opponent_spec`). Without a
    ``screen`` output is plain lines through ``echo`` (no pager)."""
    opponent = opponent_spec(opponent, game.id)
    check_opponent(opponent, allow_cheating=allow_cheating)
    make_agent(hint, 0)  # a bad hint spec is refused before the game starts
    screen = screen if screen is not None else Screen(echo)
    note = None if opponent == "human" else model_line(opponent, game)
    if note is not None:
        screen.echo(note)
    shell = Shell(game, seat=seat, opponent=opponent, seed=seed, auto=auto, ask=ask, screen=screen, hint_spec=hint)
    state = shell.run(game.new_initial_state(seed))
    if record is not None:
        write_record(state, record, screen.echo)
    return state


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
