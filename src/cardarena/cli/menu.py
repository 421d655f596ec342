"""The terminal's menu of legal actions: grouped by ``Game.choice_label``, numbered, short enough to read.

A decision lists one line per group (a card, a kind of action) with a summary of its details; a group with several
actions opens as a numbered sub-menu. A person picks by number (``3``, or ``3.2`` for the second detail of group 3),
by a group's name or an unambiguous prefix of it, by a prefix of an action's text, or by the full text of an
action. The menu itself is plain data and plain text, so it is tested without a terminal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine import Action, Game, State

#: At most this many lines (the header included) are printed for one menu before the prompt.
MAX_MENU_LINES = 20
#: Up to this many items a menu gives one line each; more are packed into columns.
MAX_ITEM_LINES = MAX_MENU_LINES - 2
#: How many details a group's line names before eliding the rest.
SUMMARY_DETAILS = 6
ELLIPSIS = "…"
_CODE = re.compile(r"^(\d+)(?:\.(\d+))?$")


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action as the menu shows it."""

    action: Action
    text: str  # the canonical text (typing it always works)
    detail: str  # what tells it apart within its group ("" when alone)
    description: str  # the game's longer description (describe_action)


@dataclass(frozen=True, slots=True)
class Group:
    """The actions of one group, in the state's order of legal actions."""

    name: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class Opened:
    """A group (or part of one: the actions a prefix matched) opened as a sub-menu."""

    group: Group
    choices: tuple[Choice, ...]
    number: int  # the group's number in the main menu (0: the actions a typed text begins, from several groups)


class Ambiguous(str):
    """A prefix that matches several groups or actions: the message names them."""

    __slots__ = ()


class Menu:
    """The legal actions of one decision, grouped by ``game.choice_label``; numbers start at 1."""

    def __init__(self, game: Game, state: State, legal: list[Action]) -> None:
        order: dict[str, list[Choice]] = {}
        for action in legal:
            text = str(action)
            name, detail = game.choice_label(state, action)
            name = name.strip() or text
            order.setdefault(name, []).append(Choice(action, text, detail.strip(), game.describe_action(state, action)))
        self.groups: tuple[Group, ...] = tuple(Group(n, tuple(cs)) for n, cs in order.items())
        self.size = len(legal)

    # -- reading what a person typed -------------------------------------------------------------------------
    def by_code(self, answer: str, opened: Opened | None = None) -> Action | Opened | str | None:
        """A number (``3``; ``3.2``; in a sub-menu ``2`` is its second detail) as an action or an opened group,
        a message when the number is out of range, ``None`` when ``answer`` is not a number."""
        m = _CODE.match(answer)
        if m is None:
            return None
        if opened is not None and m.group(2) is None:
            k = int(m.group(1))
            if 1 <= k <= len(opened.choices):
                return opened.choices[k - 1].action
            return f"no choice number {k} here: choose 1 to {len(opened.choices)}, or ':back'."
        g = int(m.group(1))
        if not 1 <= g <= len(self.groups):
            return f"no choice number {g}: choose 1 to {len(self.groups)}."
        group = self.groups[g - 1]
        if m.group(2) is None:
            return self._open(group, group.choices, g)
        d = int(m.group(2))
        if not 1 <= d <= len(group.choices):
            return f"no choice {g}.{d}: {group.name!r} has {len(group.choices)} choice(s)."
        return group.choices[d - 1].action

    def by_name(self, answer: str, opened: Opened | None = None) -> Action | Opened | Ambiguous | None:
        """A group's name or an action's text, or an unambiguous case-insensitive prefix of one, or of a word of a
        group's name (a card's name): the action when it names exactly one, the group (or the matching part of it)
        as a sub-menu, an :class:`Ambiguous` message, or ``None`` when nothing matches. In a sub-menu its own
        details are tried first."""
        key = answer.strip().casefold()
        if not key:
            return None
        if opened is not None:
            own = [c for c in opened.choices if _label(opened.group, c).casefold().startswith(key)]
            exact = [c for c in own if _label(opened.group, c).casefold() == key]
            if len(exact) == 1 or len(own) == 1:
                return (exact or own)[0].action
            if own:
                return Ambiguous(_ambiguity(answer, [_label(opened.group, c) for c in own]))
        numbered = list(enumerate(self.groups, 1))
        tiers: list[list[tuple[int, Group, tuple[Choice, ...]]]] = [
            [(k, g, g.choices) for k, g in numbered if g.name.casefold() == key],
            [(k, g, g.choices) for k, g in numbered if g.name.casefold().startswith(key)],
            _text_hits(numbered, key),
            [(k, g, g.choices) for k, g in numbered if any(w.startswith(key) for w in _words(g.name))],
        ]
        for tier, hits in enumerate(tiers):
            if not hits:
                continue
            if len(hits) == 1:
                k, group, choices = hits[0]
                return self._open(group, choices, k)
            actions = [c for _, _, cs in hits for c in cs]
            if tier == 2 and len(actions) <= MAX_ITEM_LINES:  # the actions whose text it begins, from several groups
                found = tuple(Choice(c.action, c.text, c.text, c.description) for c in actions)
                return Opened(Group(f"actions beginning {answer.strip()!r}", found), found, 0)
            names = [f"{k}. {g.name}" for k, g, _ in hits]
            return Ambiguous(_ambiguity(answer, names))
        return None

    @staticmethod
    def _open(group: Group, choices: tuple[Choice, ...], number: int) -> Action | Opened:
        if len(choices) == 1:
            return choices[0].action
        return Opened(group, choices, number)

    # -- what is printed -------------------------------------------------------------------------------------
    def lines(self, width: int, *, cut: bool = True) -> list[str]:
        """The main menu: a header and one line per group (packed into columns when there are many), at most
        :data:`MAX_MENU_LINES` lines. Lines are made of whole texts (names, details, descriptions): a summary
        names the details that fit in ``width``; with ``cut`` (a terminal) a line still too wide is cut, without
        (plain output, read by programs) it is left whole."""
        head = f"Your choices ({self.size}; a number, a name or its first letters; ? lists them all):"
        if len(self.groups) <= MAX_ITEM_LINES:
            return [head] + [_summary(k, g, width, cut=cut) for k, g in enumerate(self.groups, 1)]
        cells = [
            f"{k}. {g.name}" + (f" ({len(g.choices)})" if len(g.choices) > 1 else "")
            for k, g in enumerate(self.groups, 1)
        ]
        return [head, *_columns(cells, width, cut=cut)]

    def opened_lines(self, opened: Opened, width: int, *, cut: bool = True) -> list[str]:
        """A sub-menu: its header and one line per action (packed into columns when there are many)."""
        number = f"{opened.number}. " if opened.number else ""
        head = f"{number}{opened.group.name}: choose one (':back' or an empty line goes back):"
        if len(opened.choices) <= MAX_ITEM_LINES:
            body = [f"{k:>3}. {_detail_line(opened.group, c)}" for k, c in enumerate(opened.choices, 1)]
            return [head, *(_fit(line, width) if cut else line for line in body)]
        cells = [f"{k}. {_label(opened.group, c)}" for k, c in enumerate(opened.choices, 1)]
        return [head, *_columns(cells, width, cut=cut)]

    def full_lines(self) -> list[str]:
        """Every legal action, numbered as ``group.detail`` (what ``?`` shows; pages in a terminal)."""
        out = [f"All {self.size} choices (type the number, e.g. 2 or 2.1, or the text):"]
        for g, group in enumerate(self.groups, 1):
            for d, c in enumerate(group.choices, 1):
                code = f"{g}" if len(group.choices) == 1 else f"{g}.{d}"
                out.append(f"{code:>7}  {_described(c)}")
        return out

    def opened_full_lines(self, opened: Opened) -> list[str]:
        """Every action of a sub-menu, numbered as it is there, in full (what ``?`` shows inside a group)."""
        out = [f"All {len(opened.choices)} choices of {opened.group.name!r} (type the number, or the text):"]
        for k, c in enumerate(opened.choices, 1):
            label, desc = _label(opened.group, c), _described(c)
            out.append(f"{k:>5}. {label}" + (f"  ({desc})" if desc != label else ""))
        return out

    def code_of(self, action: Action) -> str:
        """The number a person types for ``action`` (``3`` or ``3.2``)."""
        for g, group in enumerate(self.groups, 1):
            for d, c in enumerate(group.choices, 1):
                if c.action == action:
                    return f"{g}" if len(group.choices) == 1 else f"{g}.{d}"
        return "?"


def _label(group: Group, choice: Choice) -> str:
    return choice.detail or choice.text


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[\s,;:/()\[\]]+", name.casefold()) if w]


def _text_hits(numbered: list[tuple[int, Group]], key: str) -> list[tuple[int, Group, tuple[Choice, ...]]]:
    """Groups having actions whose text starts with ``key`` (only those actions)."""
    out = []
    for k, g in numbered:
        hits = tuple(c for c in g.choices if c.text.casefold().startswith(key))
        if hits:
            out.append((k, g, hits))
    return out


def _ambiguity(answer: str, names: list[str]) -> str:
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    return f"{answer!r} matches {len(names)} choices: {shown}. Type more of the name, or a number."


def _described(c: Choice) -> str:
    """An action's description, preceded by its text when the description does not start with it."""
    return c.description if c.description.startswith(c.text) else f"{c.text} — {c.description}"


def _detail_line(group: Group, c: Choice) -> str:
    """An action in a sub-menu: its detail, or its description when that says more (whole texts only)."""
    label = _label(group, c)
    desc = c.description
    if desc in (c.text, label):
        return label
    if label.casefold() in desc.casefold():
        return desc
    return f"{label} — {desc}"


def _summary(k: int, group: Group, width: int, *, cut: bool) -> str:
    """A group's one line: the action itself when alone, else its name, its count and the first details that fit,
    each whole, and always the first (cut to the width when ``cut``)."""
    if len(group.choices) == 1:
        c = group.choices[0]
        # an action described by its bare text shows its detail (ToraBato's "pass — End main phase": what the
        # pass does in this step)
        alone = f"{c.text} — {c.detail}" if c.description == c.text and c.detail else _described(c)
        line = f"{k:>3}. {alone}"
        return _fit(line, width) if cut else line
    line = f"{k:>3}. {group.name} ({len(group.choices)})"
    labels = [_label(group, c) for c in group.choices[:SUMMARY_DETAILS]]
    shown = 0
    for n, label in enumerate(labels):
        sep = ": " if n == 0 else ", "
        room = width - (0 if n + 1 == len(group.choices) else len(", …"))
        if len(line) + len(sep) + len(label) > room and n > 0:
            break
        line += sep + label
        shown += 1
    if shown < len(group.choices):
        line += ", …"
    return _fit(line, width) if cut else line


def _fit(line: str, width: int) -> str:
    """``line`` cut to ``width`` characters, with an ellipsis where it was cut."""
    return line if len(line) <= width else line[: max(1, width - 1)].rstrip() + ELLIPSIS


def _columns(cells: list[str], width: int, *, cut: bool) -> list[str]:
    """Cells laid out in columns, row by row, in at most :data:`MAX_ITEM_LINES` lines (the rest elided); a cell
    wider than the screen is cut when ``cut``, else left whole on its own row."""
    width -= 2  # the indent
    cell_w = min(max(len(c) for c in cells) + 2, max(8, width))
    per_row = max(1, width // cell_w)
    rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
    out = ["  " + "".join((_fit(c, cell_w - 2) if cut else c).ljust(cell_w) for c in row).rstrip() for row in rows]
    if len(out) > MAX_ITEM_LINES:
        shown = (MAX_ITEM_LINES - 1) * per_row
        more = f"  … and {len(cells) - shown} more: type ? for the full list, or a name"
        out = [*out[: MAX_ITEM_LINES - 1], _fit(more, width + 2)]
    return out
