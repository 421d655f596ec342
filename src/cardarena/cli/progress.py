"""The live progress bar of long runs (``simulate``, ``tournament``, ``report``): games done, games/s and the time
left.

It draws on standard error, so ``--json`` on standard output stays clean, and only when standard error is a
terminal (a log gets the summary alone). Games found already played when a run resumes count as done but not
into the speed, which is measured over the games of this session.

A run in phases (the balance report: its games, then its statistics, which can take as long) calls the bar with a
third argument, the phase: ``"games"``, then ``"statistics"`` or ``"statistics: card strengths"`` (what is being
computed), then any other words (``"writing the page"``). Each phase gets a line of its own, "playing games" then
"computing statistics: card strengths 40/100", whose rate and time left are measured over that phase alone, so
the time left is never that of a phase already over.
"""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _Speed(ProgressColumn):
    """Games per second over this session (rich's own speed forgets all but the last 30 s); nothing on the line
    of a phase that is not games."""

    def __init__(self, bar: GameProgress) -> None:
        super().__init__()
        self.bar = bar

    def render(self, task: Task) -> Text:
        if task.fields.get("phase", GAMES) != GAMES:
            return Text("")
        speed = self.bar.speed()
        return Text("-- games/s" if speed is None else f"{speed:,.1f} games/s", style="progress.data.speed")


class _Remaining(TimeRemainingColumn):
    """The time left of the line's phase: for games, at this session's rate (games found stored when a run resumes
    are done, not fast); for a computing phase, rich's estimate over its recent steps."""

    def __init__(self, bar: GameProgress) -> None:
        super().__init__()
        self.bar = bar

    def render(self, task: Task) -> Text:
        if task.fields.get("phase", GAMES) != GAMES or task.finished or task.total is None:
            return super().render(task)
        speed = self.bar.speed()
        if speed is None:
            return Text("-:--:--", style="progress.remaining")
        left = int(max(0.0, task.total - task.completed) / speed)
        return Text(f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}", style="progress.remaining")


GAMES = "games"  # the phase of a run's games; any other phase is computing


def describe(label: str, phase: str) -> str:
    """The words of a phase on the bar: the games are played, statistics computed, anything else as it is said.

    >>> describe("lyabi report", "games"), describe("lyabi report", "statistics: card strengths")
    ('lyabi report: playing games', 'lyabi report: computing statistics: card strengths')
    >>> describe("lyabi report", "writing the page")
    'lyabi report: writing the page'
    """
    if phase == GAMES:
        return f"{label}: playing games"
    return f"{label}: computing {phase}" if phase.startswith("statistics") else f"{label}: {phase}"


class GameProgress:
    """``with GameProgress("tournament") as bar: ... bar(done, total)``: a callback for the arena's runs."""

    def __init__(self, label: str, *, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True)
        self.enabled = self.console.is_terminal
        self.label = label
        self._start = time.perf_counter()
        self._first: int | None = None
        self._done = 0
        self._games_over: float | None = None  # when the games were all played, or a later phase began
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            _Speed(self),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            _Remaining(self),
            console=self.console,
            disable=not self.enabled,
        )
        self._task = self._progress.add_task(describe(label, GAMES), total=None, phase=GAMES)
        self._phase = GAMES

    def speed(self) -> float | None:
        """Games per second since the first report of this session."""
        elapsed = (self._games_over or time.perf_counter()) - self._start
        if self._first is None or elapsed <= 0 or self._done == self._first:
            return None
        return (self._done - self._first) / elapsed

    def played(self) -> int:
        """Games finished in this session."""
        return 0 if self._first is None else self._done - self._first

    def resumed(self) -> int:
        """Games found done when the run began (stored by an earlier, interrupted run)."""
        return self._first or 0

    @property
    def phase(self) -> str:
        """The phase the bar shows now (``"games"`` until a run says otherwise)."""
        return self._phase

    def __call__(self, done: int, total: int, phase: str = GAMES) -> None:
        if phase != self._phase:
            # a new phase: the last one's line is left complete, and the new one measures its own rate and time
            # left, so no "ETA 0:00:00" stands while the statistics are computed
            last = next(t for t in self._progress.tasks if t.id == self._task)
            self._progress.update(self._task, completed=last.total or last.completed)
            if self._phase == GAMES:  # the games are over (for now): their rate stays what it was
                self._games_over = self._games_over or time.perf_counter()
            self._task = self._progress.add_task(describe(self.label, phase), total=total, phase=phase)
            self._phase = phase
        if phase == GAMES:
            if self._first is None:
                self._first = done
                self._start = time.perf_counter()
            self._done = done
            # the rate of a run whose games are all played stays what it was, whatever comes after them
            self._games_over = (self._games_over or time.perf_counter()) if done >= total else None
        self._progress.update(self._task, completed=done, total=total)

    def __enter__(self) -> GameProgress:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._progress.stop()
