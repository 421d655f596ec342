"""The games' options as the lobby shows them: a label and a help line in a player's words (issue 28, point 7).

The engine's option help is written for the terminal and for tools ("seat 0's deck: starter deck name ... or path
to a deck TOML file"); the lobby numbers its players from 1 ("Player 1 (you)") and takes no files, so it says
"Player 1's deck" and leaves the files out. An option with no entry here gets its name in words ("max_turns" ->
"Max turns") and the engine's help with every "seat N" made "player N+1".
"""

from __future__ import annotations

import re

from ..engine import Option

_LONG_GAME = "A safety stop on very long games: reaching this many turns ends the game as a draw."

#: (game id, option name) -> (label, help)
WORDS: dict[tuple[str, str], tuple[str, str]] = {
    ("dicebattle", "max_turns"): ("Turn limit", _LONG_GAME),
    ("dicebattle", "deck0"): ("Player 1's deck", "One of the starter decks: horde, arcana or vanguard."),
    ("dicebattle", "deck1"): ("Player 2's deck", "One of the starter decks: horde, arcana or vanguard."),
    ("laplaplace", "max_turns"): (
        "Turn limit",
        "A safety stop; the judgement after turn 30 ends every battle first, so it never matters in play.",
    ),
    ("laplaplace", "build"): (
        "How builds are made",
        "blind: both build in secret; open: 4 cards shown, then 4 hidden added; league: both builds fixed below.",
    ),
    ("laplaplace", "build0"): (
        "Player 1's fixed build",
        "A ready-made build for player 1, who then makes no build decisions (unset: player 1 builds).",
    ),
    ("laplaplace", "build1"): (
        "Player 2's fixed build",
        "A ready-made build for player 2, who then makes no build decisions (unset: player 2 builds).",
    ),
    ("laplaplace", "identical"): (
        "Identical builds",
        "draw: identical builds are a draw (the rule); coin: a coin picks the winner instead.",
    ),
    ("lyabi", "max_turns"): ("Turn limit", _LONG_GAME),
    ("lyabi", "circle_replace"): (
        "Circles may replace circles",
        "With two circles on your field, placing a third may remove one of yours from the game to make room.",
    ),
    ("tashkalar", "max_turns"): ("Turn limit", _LONG_GAME),
    ("tashkalar", "mode"): (
        "Mode",
        "deathmatch: the duel (or two teams); highform: points from tasks and legends; melee: 3 or 4, each alone.",
    ),
    ("tashkalar", "players"): ("Players", "2 for deathmatch and highform (4 with teams), 3 or 4 for melee."),
    ("tashkalar", "teams"): ("Teams", "Two teams of two (4 players): players 1 and 3 against players 2 and 4."),
    ("tashkalar", "school0"): ("Player 1's school", "The school (deck) of player 1, or random."),
    ("tashkalar", "school1"): ("Player 2's school", "The school (deck) of player 2, or random."),
    ("tashkalar", "school2"): ("Player 3's school", "The school (deck) of player 3 (3-4 players), or random."),
    ("tashkalar", "school3"): ("Player 4's school", "The school (deck) of player 4 (4 players), or random."),
    ("tashkalar", "resign"): (
        "Offer resigning",
        "Offer 'resign' at every decision; unset: where the rulebook allows it (2 players or 2 teams).",
    ),
    ("torabato", "max_turns"): ("Turn limit", _LONG_GAME),
    ("torabato", "lasting_boosts"): (
        "Boosts last until recovery",
        "'This turn' effects (8, 10, K, 7, Q's tap) end with the next recovery, so a soldier saved by a boost"
        " never dies when it ends (the rulebook's examples).",
    ),
    ("torabato", "recovery_priority"): (
        "Priority in the recovery phase",
        "Both players also get priority in the recovery phase (off: the first priority of a turn is after the draw).",
    ),
}

_SEAT = re.compile(r"\b([Ss])eat(s?) (\d+)\b")


def _players(text: str) -> str:
    """``text`` with each "seat N" as "player N+1" (the lobby numbers players from 1)."""
    return _SEAT.sub(lambda m: f"{'P' if m.group(1) == 'S' else 'p'}layer{m.group(2)} {int(m.group(3)) + 1}", text)


def option_words(game_id: str, option: Option) -> tuple[str, str]:
    """The label and help line the lobby shows for ``option`` of ``game_id``."""
    known = WORDS.get((game_id, option.name))
    if known is not None:
        return known
    label = option.name.replace("_", " ").strip().capitalize()
    return label, _players(option.help or "")
