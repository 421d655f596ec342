"""The AI strengths in words, with what each means: how long it thinks and how often it beats the next one down.

The lobby's seat menu and the table's "an AI plays on" menu show these words, never an agent spec (issue 28,
point 7): "Hard AI — about 0.4 s a move", and below it "Hard: a longer search of what may happen; about 0.4 s a
move (never over 2.5 s); won 8 of 12 test games against Normal.".
The figures are measured, not guessed: ``scripts/ai_timings.py`` plays whole games of every game between the
strengths, as the server runs them, and writes ``strengths.json`` beside this file (docs/web.md, Strength labels).
A game or mode the file does not cover gets the words without figures.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from .ai import STRENGTH_SECONDS, STRENGTHS

FIGURES_FILE = Path(__file__).with_name("strengths.json")

#: each label's title and what it is, in a player's words
ABOUT: dict[str, tuple[str, str]] = {
    "easy": ("Easy", "plays the game's rule of thumb, without searching"),
    "normal": ("Normal", "a short search of what may happen"),
    "hard": ("Hard", "a longer search of what may happen"),
}
#: the strength each label is measured against (the next one down)
BELOW: dict[str, str] = {"normal": "easy", "hard": "normal"}
#: the fewest test games of a matchup the words quote (fewer say nothing a player could use; the file keeps them)
MIN_GAMES = 6
#: the options that change a game's figures (Tash-Kalar's modes): measured apart, under ``GAME/VALUE`` keys
MEASURED_OPTIONS: dict[str, str] = {"tashkalar": "mode"}


@cache
def figures() -> dict[str, Any]:
    """The measured figures by configuration key (``torabato``, ``tashkalar/highform``), or ``{}`` without a file."""
    try:
        data = json.loads(FIGURES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    games = data.get("games", {})
    return games if isinstance(games, dict) else {}


def config_key(game_id: str, options: dict[str, Any] | None = None) -> str:
    """The key of a game's figures for ``options``: ``tashkalar/highform`` for that mode, else the game's id (the
    default mode's figures are under the bare id)."""
    name = MEASURED_OPTIONS.get(game_id)
    value = (options or {}).get(name) if name else None
    key = f"{game_id}/{value}"
    return key if value is not None and key in figures() else game_id


def seconds_text(seconds: float) -> str:
    return "under 0.1 s" if seconds < 0.1 else f"about {seconds:.1f} s"


def score_text(score: float, games: int, below: str) -> str:
    """ "won 4 of 6 test games against Normal"; with draws (half a point each) "scored 4½ of 6 ..."."""
    whole = int(score)
    if score == whole:
        return f"won {whole} of {games} test games against {below}"
    return f"scored {whole}½ of {games} test games against {below} (a draw counts ½)"


def strength_words(label: str, game_id: str, options: dict[str, Any] | None = None) -> dict[str, str]:
    """``label`` in words for ``game_id`` with ``options``: ``title`` for a menu ("Hard AI — about 0.4 s a move")
    and ``words``: what it does, its measured time a move and how it did against the next strength down in the
    test games (where measured)."""
    title, what = ABOUT[label]
    cap = STRENGTH_SECONDS[label]
    measured = figures().get(config_key(game_id, options), {})
    timing = measured.get("strengths", {}).get(label, {})
    if timing.get("decisions"):
        time_text = f"{seconds_text(timing['cpu_s']['median'])} a move"
        parts = [f"{time_text} (never over {cap:g} s)"]
    else:
        time_text = f"at most {cap:g} s a move"
        parts = [time_text]
    below = BELOW.get(label)
    match = measured.get("matchups", {}).get(f"{label}-{below}", {}) if below else {}
    if match.get("games", 0) >= MIN_GAMES:
        parts.append(score_text(match["score"], match["games"], ABOUT[str(below)][0]))
    return {"title": f"{title} AI — {time_text}", "words": f"{title}: {what}; " + "; ".join(parts) + "."}


def words_for(game_id: str, options: dict[str, Any] | None = None) -> dict[str, dict[str, str]]:
    """Every label's words for ``game_id`` with ``options``."""
    return {label: strength_words(label, game_id, options) for label in STRENGTHS}


def words_by_option(game_id: str, choices: list[Any] | None) -> dict[str, dict[str, dict[str, dict[str, str]]]]:
    """For a game whose figures depend on an option (:data:`MEASURED_OPTIONS`): option -> value -> label -> words,
    one entry per value of ``choices`` (the lobby switches the seat menu's words when the option changes)."""
    name = MEASURED_OPTIONS.get(game_id)
    if name is None or not choices:
        return {}
    return {name: {str(value): words_for(game_id, {name: value}) for value in choices}}
