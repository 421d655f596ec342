"""The AI strengths in words, with what each means: its rating, how long it thinks and how it did in test games.

The lobby's seat menu and the table's "an AI plays on" menu show these words, never an agent spec (issue 28,
point 7): "Hard AI — rated 1210, about 0.4 s a move", and below it "Hard: a longer search of what may happen;
rated 1210 [1150, 1270] on ToraBato's ladder (random = 0); about 0.4 s a move (never over 2.5 s); won 8 of 12 test
games against Normal.".
The figures are measured, not guessed. The rating and its time a move are the game's ladder
(``cardarena ladder GAME --write``: ``agents/models/ladder.json``, read by :func:`cardarena.agents.levels.ladder`);
a strength the ladder does not rate is "not yet rated". ``scripts/ai_timings.py`` plays whole games of every game
between the strengths, as the server runs them, and writes ``strengths.json`` beside this file (docs/web.md,
Strength labels): the time a move where the ladder has none, and the test games against the next strength down.
A game or mode neither file covers gets the words without figures.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..agents import parse_spec
from ..agents.levels import LEVEL_SECONDS, LEVELS, ladder, level_spec, model_key
from ..arena.ladder import model_digest
from ..engine import Game, RulesError, game_class, load

FIGURES_FILE = Path(__file__).with_name("strengths.json")

#: each label's title and what it is, in a player's words
ABOUT: dict[str, tuple[str, str]] = {
    "easy": ("Easy", "plays the game's rule of thumb, without searching"),
    "normal": ("Normal", "a short search of what may happen"),
    "hard": ("Hard", "a longer search of what may happen"),
    "expert": ("Expert", "a search that judges positions by what it learned from many games"),
}
#: the strength each label is measured against (the next one down)
BELOW: dict[str, str] = {"normal": "easy", "hard": "normal", "expert": "hard"}
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


@cache
def _game(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game | None:
    """``game_id`` with ``options``; a mode that needs a number of seats the options do not give (Tash-Kalar's
    melee) is taken at its most seats; ``None`` where the options do not make a game."""
    for extra in ({}, {"players": max(game_class(game_id).player_counts)}):
        try:
            return load(game_id, **{**extra, **dict(options)})
        except (RulesError, OSError, ValueError, TypeError):
            continue
    return None


def rating(label: str, game_id: str, options: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """``label``'s row of the game's ladder (``elo``, ``low``, ``high``, ``seconds_per_decision``, ``spec``;
    :func:`~cardarena.agents.levels.ladder` under the game's :func:`~cardarena.agents.levels.model_key`), or
    ``None`` where the ladder does not rate it: not rated there, rated as another agent spec than the label's now,
    or (the expert) with another model than the one shipped now."""
    try:
        game = _game(game_id, tuple(sorted((options or {}).items())))
    except TypeError:  # an option value that cannot be a cache key (none today): no rating rather than an error
        game = None
    if game is None:
        return None
    entry = ladder(model_key(game))
    row = (entry or {}).get("strengths", {}).get(label)
    if not isinstance(row, dict) or row.get("elo") is None:
        return None
    spec = level_spec(label, game_id)
    if row.get("spec") != spec:
        return None
    if ("model" in row or parse_spec(spec)[0] == "expert") and row.get("model") != model_digest(game, spec):
        return None
    return row


def seconds_text(seconds: float) -> str:
    return "under 0.1 s" if seconds < 0.1 else f"about {seconds:.1f} s"


def score_text(score: float, games: int, below: str) -> str:
    """ "won 4 of 6 test games against Normal"; with draws (half a point each) "scored 4½ of 6 ..."."""
    whole = int(score)
    if score == whole:
        return f"won {whole} of {games} test games against {below}"
    return f"scored {whole}½ of {games} test games against {below} (a draw counts ½)"


def strength_words(label: str, game_id: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``label`` in words for ``game_id`` with ``options``: ``title`` for a menu ("Hard AI — rated 1210, about
    0.4 s a move") and ``words``: what it does, its rating on the game's ladder ("not yet rated" without one), its
    measured time a move and how it did against the next strength down in the test games (where measured);
    ``rating``: the ladder's row (Elo, interval, seconds per decision) or ``None``."""
    title, what = ABOUT[label]
    cap = LEVEL_SECONDS[label]
    rated = rating(label, game_id, options)
    measured = figures().get(config_key(game_id, options), {})
    timing = measured.get("strengths", {}).get(label, {})
    if rated is not None and rated.get("seconds_per_decision") is not None:
        time_text = f"{seconds_text(float(rated['seconds_per_decision']))} a move"
        time_part = f"{time_text} (never over {cap:g} s)"
    elif timing.get("decisions"):
        time_text = f"{seconds_text(timing['cpu_s']['median'])} a move"
        time_part = f"{time_text} (never over {cap:g} s)"
    else:
        time_text = f"at most {cap:g} s a move"
        time_part = time_text
    if rated is not None:
        rating_title = f"rated {rated['elo']}"
        rating_part = (
            f"rated {rated['elo']} [{rated['low']}, {rated['high']}] on this game's ladder, where random play is 0"
        )
    else:
        rating_title = rating_part = "not yet rated"
    parts = [rating_part, time_part]
    below = BELOW.get(label)
    match = measured.get("matchups", {}).get(f"{label}-{below}", {}) if below else {}
    if match.get("games", 0) >= MIN_GAMES:
        parts.append(score_text(match["score"], match["games"], ABOUT[str(below)][0]))
    return {
        "title": f"{title} AI — {rating_title}, {time_text}",
        "words": f"{title}: {what}; " + "; ".join(parts) + ".",
        "rating": rated,
    }


def words_for(game_id: str, options: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Every label's words for ``game_id`` with ``options``."""
    return {label: strength_words(label, game_id, options) for label in LEVELS}


def words_by_option(game_id: str, choices: list[Any] | None) -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
    """For a game whose figures depend on an option (:data:`MEASURED_OPTIONS`): option -> value -> label -> words,
    one entry per value of ``choices`` (the lobby switches the seat menu's words when the option changes)."""
    name = MEASURED_OPTIONS.get(game_id)
    if name is None or not choices:
        return {}
    return {name: {str(value): words_for(game_id, {name: value}) for value in choices}}
