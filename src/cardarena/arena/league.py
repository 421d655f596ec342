"""A league of build files: every build in a folder battles every other, in both seat orders.

For any game that plays fixed builds (:class:`FixedBuildGame`: Laplaplace's mail-in league, 参加者は、構成に必要な
情報を添えて主催者にメールします). The league reaches the game only through its public API and the state protocol:
each pairing is a game loaded with the options that play the two files, whose initial state is already over. Each
pairing's only chance comes from ``seed`` and the pair's position, so a league is reproducible. Points: win 3,
draw 1; then wins, then the HP left in the battles won (where the final observation's ``result`` has ``hp``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..engine import CardDataError, State, derive_seed, load

WIN_POINTS, DRAW_POINTS = 3, 1
CSV_FIELDS = ("rank", "build", "file", "played", "wins", "draws", "losses", "points", "hp_left")


@runtime_checkable
class FixedBuildGame(Protocol):
    """A game whose seats can play builds read from files, with no decision left to make."""

    def fixed_build_options(self, path0: str | Path, path1: str | Path) -> dict[str, str]:
        """The options under which seat 0 plays the file ``path0`` and seat 1 ``path1``."""
        ...

    def build_name(self, seat: int) -> str | None:
        """The name of the build ``seat`` plays from a file."""
        ...


@dataclass
class Standing:
    build: str
    file: str
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    hp_left: int = 0  # total HP left in the battles it won: a measure of how clearly it won
    results: dict[str, str] = field(default_factory=dict)

    @property
    def points(self) -> int:
        return WIN_POINTS * self.wins + DRAW_POINTS * self.draws


@dataclass(frozen=True)
class Match:
    seat0: str
    seat1: str
    winner: int | None
    turns: int
    reason: str


@dataclass
class LeagueResult:
    game: str  # the game's name
    standings: list[Standing]
    matches: list[Match]


@dataclass(frozen=True)
class Entry:
    name: str
    path: str


def fixed_build_game(game_id: str, options: dict[str, Any] | None = None) -> FixedBuildGame:
    """The game ``game_id`` (with ``options``), checked to play fixed builds."""
    game = load(game_id, **(options or {}))
    if not isinstance(game, FixedBuildGame):
        raise CardDataError(game_id, "this game does not play builds from files, so it has no league")
    return game


def load_entries(game_id: str, directory: str | Path, options: dict[str, Any] | None = None) -> list[Entry]:
    """Every ``*.toml`` build in ``directory``, sorted by file name, checked by the game; names must differ."""
    base = fixed_build_game(game_id, options)
    folder = Path(directory)
    if not folder.is_dir():
        raise CardDataError(str(folder), "not a folder of build files")
    entries = []
    for p in sorted(folder.glob("*.toml")):
        game = fixed_build_game(game_id, {**(options or {}), **base.fixed_build_options(p, p)})
        entries.append(Entry(game.build_name(0) or p.stem, str(p)))
    if len(entries) < 2:
        raise CardDataError(str(folder), "a league needs at least 2 build files (*.toml)")
    names: dict[str, str] = {}
    for e in entries:
        if e.name in names:
            raise CardDataError(e.path, f"build name {e.name!r} is also used by {names[e.name]}", field="name")
        names[e.name] = e.path
    return entries


def play_pairing(
    game_id: str, base: FixedBuildGame, a: Entry, b: Entry, seed: int, options: dict[str, Any] | None = None
) -> State:
    """The final state of ``a`` (seat 0) against ``b`` (seat 1); ``base`` is the game with ``options``."""
    game = load(game_id, **{**(options or {}), **base.fixed_build_options(a.path, b.path)})
    state = game.new_initial_state(seed)
    if not state.is_terminal():
        raise CardDataError(a.path, f"{game.name} asks for decisions even with both builds from files")
    return state


def run_league(
    game_id: str,
    directory: str | Path,
    *,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    csv_path: str | Path | None = None,
) -> LeagueResult:
    """Battle every pair of builds both ways; return the standings (best first) and write them as CSV."""
    base = fixed_build_game(game_id, options)
    entries = load_entries(game_id, directory, options)
    table_rows = {e.name: Standing(e.name, Path(e.path).name) for e in entries}
    matches: list[Match] = []
    name = ""
    for i, a in enumerate(entries):
        for j, b in enumerate(entries):
            if i == j:
                continue
            state = play_pairing(game_id, base, a, b, derive_seed(seed, i, j), options)
            name = state.game.name
            winner = _winner(state)
            result = state.observation(None).get("result", {})
            matches.append(Match(a.name, b.name, winner, state.turn, str(result.get("reason", ""))))
            for s, me in ((0, a), (1, b)):
                _score(table_rows[me.name], s, winner, result.get("hp"))
    standings = sorted(table_rows.values(), key=lambda r: (-r.points, -r.wins, -r.hp_left, r.build))
    if csv_path is not None:
        write_csv(standings, csv_path)
    return LeagueResult(name, standings, matches)


def _winner(state: State) -> int | None:
    r = state.returns()
    best = max(r)
    winners = [s for s, v in enumerate(r) if v == best]
    return winners[0] if len(winners) == 1 else None


def _score(row: Standing, seat: int, winner: int | None, hp: list[int] | None) -> None:
    row.played += 1
    if winner is None:
        row.draws += 1
    elif winner == seat:
        row.wins += 1
        row.hp_left += max(0, hp[seat]) if hp else 0
    else:
        row.losses += 1


def write_csv(standings: list[Standing], path: str | Path) -> None:
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(CSV_FIELDS)
        for rank, r in enumerate(standings, 1):
            w.writerow([rank, r.build, r.file, r.played, r.wins, r.draws, r.losses, r.points, r.hp_left])


def standings_text(standings: list[Standing]) -> str:
    """A plain-text standings table."""
    head = f"{'#':>3}  {'build':<24} {'P':>3} {'W':>3} {'D':>3} {'L':>3} {'Pts':>4} {'HP left':>7}"
    lines = [head, "-" * len(head)]
    for rank, r in enumerate(standings, 1):
        lines.append(
            f"{rank:>3}  {r.build[:24]:<24} {r.played:>3} {r.wins:>3} {r.draws:>3} {r.losses:>3} "
            f"{r.points:>4} {r.hp_left:>7}"
        )
    return "\n".join(lines)


__all__ = ["FixedBuildGame", "LeagueResult", "Match", "Standing", "run_league", "standings_text"]
