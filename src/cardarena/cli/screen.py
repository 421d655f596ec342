"""What the terminal shows: boards drawn from a game's panels, narration, and a pager for long outputs.

In a terminal (stdin and stdout both ttys) boards are drawn with rich (a panel per zone, the seat's own zones and
the others' in different colours, the lines changed since the seat's last decision highlighted) and long outputs
are paged. Anywhere else (tests, pipes, scripted input) the same content is printed as plain lines and nothing is
paged, so scripted input is never eaten by a pager.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence

import click
from rich.columns import Columns
from rich.console import Console
from rich.panel import Panel as RichPanel
from rich.text import Text

from ..engine import Panel

Echo = Callable[[str], None]
Prompt = Callable[[str], str]
MORE = "-- more: Enter, q to skip --"
PLAIN_WIDTH = 100  # the width plain output is fitted to
CHANGED = "* "  # plain output marks a changed line with it (rich highlights it instead)
SEAT_STYLES = ("cyan", "magenta", "yellow", "blue")


class Screen:
    """The terminal of one ``cardarena play`` (or ``replay --step``) session.

    ``echo`` prints a plain line; ``console`` (rich) is used for boards and its size when ``interactive``;
    ``ask`` reads the pager's answer. Narration is gathered with :meth:`tell` and shown by :meth:`flush` (paged
    in a terminal) before the next decision, so a long battle log is read page by page.
    """

    def __init__(
        self, echo: Echo, *, console: Console | None = None, ask: Prompt | None = None, interactive: bool = False
    ) -> None:
        self.echo = echo
        self.console = console
        self.ask = ask
        self.interactive = interactive and console is not None and ask is not None
        self.pending: list[str] = []

    @property
    def width(self) -> int:
        return self.console.width if self.interactive and self.console is not None else PLAIN_WIDTH

    @property
    def cut(self) -> bool:
        """Whether lines too wide are cut (a terminal) or left whole (plain output, read by programs)."""
        return self.interactive

    @property
    def height(self) -> int:
        return self.console.height if self.interactive and self.console is not None else 0

    # -- narration and paging ------------------------------------------------------------------------------
    def tell(self, lines: Sequence[str]) -> None:
        """Queue lines of narration (shown by the next :meth:`flush`)."""
        self.pending.extend(lines)

    def flush(self) -> None:
        lines, self.pending = self.pending, []
        self.page(lines)

    def page(self, lines: Sequence[str]) -> None:
        """Print ``lines``; in a terminal, a screenful at a time with a "more" prompt (``q`` skips the rest)."""
        page = self.height - 2
        if not self.interactive or len(lines) <= max(page, 1):
            for line in lines:
                self.echo(line)
            return
        assert self.ask is not None
        for start in range(0, len(lines), page):
            for line in lines[start : start + page]:
                self.echo(line)
            if start + page >= len(lines):
                return
            try:
                answer = self.ask(MORE + " ")
            except (EOFError, KeyboardInterrupt, click.Abort):
                answer = "q"
            if answer.strip().lower().startswith("q"):
                self.echo(f"({len(lines) - start - page} more line(s) skipped)")
                return

    # -- boards --------------------------------------------------------------------------------------------
    def board(self, panels: Sequence[Panel], seat: int | None, before: dict[str, tuple[str, ...]] | None) -> None:
        """Draw ``panels`` as ``seat`` sees them; lines changed since ``before`` (the panels' lines by ident at
        the seat's previous decision; ``None``: nothing to compare with) are highlighted."""
        marked = [(p, changed_lines(p, before)) for p in panels]
        if self.interactive and self.console is not None:
            boxes = [self._rich_panel(p, seat, changed) for p, changed in marked]
            for row in _rows(self.console, boxes):
                self.console.print(Columns(row, expand=False, padding=(0, 1)))
            return
        for p, changed in marked:
            self.echo(f"── {panel_title(p, seat)} ──")
            for k, line in enumerate(p.lines):
                self.echo((CHANGED if k in changed else "  ") + line)

    def _rich_panel(self, panel: Panel, seat: int | None, changed: set[int]) -> RichPanel:
        text = Text(overflow="fold")  # long lines wrap: a card's text stays whole on a narrow screen
        for k, line in enumerate(panel.lines):
            if k:
                text.append("\n")
            text.append(line, style="bold reverse" if k in changed else "")
        if panel.seat is None:
            border = "white"
        elif panel.seat == seat:
            border = "green"
        else:
            border = SEAT_STYLES[panel.seat % len(SEAT_STYLES)]
        return RichPanel(text, title=panel_title(panel, seat), border_style=border, expand=False)


def _rows(console: Console, boxes: list[RichPanel]) -> list[list[RichPanel]]:
    """The panels in their order, as many side by side on a row as the console's width holds."""
    rows: list[list[RichPanel]] = []
    used = console.width + 1
    for box in boxes:
        width = console.measure(box).maximum + 1  # the gap between two panels
        if rows and used + width <= console.width + 1:
            rows[-1].append(box)
            used += width
        else:
            rows.append([box])
            used = width
    return rows


def panel_title(panel: Panel, seat: int | None) -> str:
    """A panel's title with whose zone it is (the same in rich and plain output), unless the title says it."""
    title = panel.title
    said = title.casefold()
    if panel.seat is None:
        return title
    if panel.seat == seat:
        return title if "you" in said else f"{title} (yours)"
    return title if f"seat {panel.seat}" in said else f"{title} (seat {panel.seat})"


def board_lines(panels: Sequence[Panel]) -> dict[str, tuple[str, ...]]:
    """The panels' lines by ident: what the next decision compares with."""
    return {p.ident: p.lines for p in panels}


def changed_lines(panel: Panel, before: dict[str, tuple[str, ...]] | None) -> set[int]:
    """Indices of ``panel``'s lines that are new or changed since ``before`` (a panel unseen before: all of them;
    no ``before`` at all, the first drawing: none)."""
    if before is None:
        return set()
    old = before.get(panel.ident)
    if old is None:
        return set(range(len(panel.lines)))
    out: set[int] = set()
    for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(a=old, b=panel.lines, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            out.update(range(j1, j2))
    return out
