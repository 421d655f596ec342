"""A mail-in league: every build file in a folder battles every other, in both seat orders.

Each battle is the same automatic battle as in play; its only chance (the coin of the last first-player
tie-break) comes from ``seed`` and the pair's position, so a league is reproducible. Points: win 3, draw 1.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from cardarena.engine import CardDataError, Rng, derive_seed

from ..games.laplaplace.cards.builds import Build, load_build
from ..games.laplaplace.cards.table import CardTable, load_cards
from ..games.laplaplace.rules.battle import Battle

WIN_POINTS, DRAW_POINTS = 3, 1
CSV_FIELDS = ("rank", "build", "file", "played", "wins", "draws", "losses", "points", "hp_left")


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
    standings: list[Standing]
    matches: list[Match]


def load_folder(directory: str | Path, table: CardTable) -> list[Build]:
    """Every ``*.toml`` build in ``directory``, sorted by file name; names must differ."""
    folder = Path(directory)
    if not folder.is_dir():
        raise CardDataError(str(folder), "not a folder of build files")
    builds = [load_build(p, table) for p in sorted(folder.glob("*.toml"))]
    if len(builds) < 2:
        raise CardDataError(str(folder), "a league needs at least 2 build files (*.toml)")
    names: dict[str, str] = {}
    for b in builds:
        if b.name in names:
            raise CardDataError(b.source, f"build name {b.name!r} is also used by {names[b.name]}", field="name")
        names[b.name] = b.source
    return builds


def run_league(
    directory: str | Path,
    *,
    cards: str | Path | None = None,
    seed: int = 0,
    csv_path: str | Path | None = None,
) -> LeagueResult:
    """Battle every pair of builds both ways; return the standings (best first) and write them as CSV."""
    table = load_cards(cards)
    builds = load_folder(directory, table)
    table_rows = {b.name: Standing(b.name, Path(b.source).name) for b in builds}
    matches: list[Match] = []
    for i, a in enumerate(builds):
        for j, b in enumerate(builds):
            if i == j:
                continue
            out = Battle([list(a.cards), list(b.cards)], Rng(derive_seed(seed, i, j))).run()
            matches.append(Match(a.name, b.name, out.winner, out.turns, out.reason))
            for s, me in ((0, a), (1, b)):
                row = table_rows[me.name]
                row.played += 1
                if out.winner is None:
                    row.draws += 1
                elif out.winner == s:
                    row.wins += 1
                    row.hp_left += max(0, out.hp[s])
                else:
                    row.losses += 1
    standings = sorted(table_rows.values(), key=lambda r: (-r.points, -r.wins, -r.hp_left, r.build))
    if csv_path is not None:
        write_csv(standings, csv_path)
    return LeagueResult(standings, matches)


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
