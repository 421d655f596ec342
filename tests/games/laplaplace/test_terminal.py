"""Whole games through `cardarena play` (issue 13): scripted "1" answers, both seats, blind and open scenes.

Each game is replayed alongside from its record: every action of the other seat must appear as its
``action_seen_by`` line, every narrated outcome must be printed, every kind of outcome shows up in some game, and
no printed line (the menus of the seat's own choices aside, which list the public card list) names a card that
``observation(seat)`` has not shown by then.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

import cardarena
from cardarena.cli.main import cli
from cardarena.engine import State
from cardarena.games.laplaplace.state import LaplaplaceState

GAMES = [(seed, seat, scene) for seed in (1, 2, 3) for seat in (0, 1) for scene in ("blind", "open")]
NAMES = {c.name: re.compile(rf"\b{re.escape(c.name)}\b") for c in cardarena.load("laplaplace").table.cards}  # type: ignore[attr-defined]


def _play(tmp: Path, seed: int, seat: int, scene: str) -> tuple[str, dict[str, object]]:
    record = tmp / f"{scene}-{seed}-{seat}.json"
    args = ["play", "laplaplace", "--vs", "random", "--seed", str(seed), "--seat", str(seat), "-o", f"build={scene}"]
    result = CliRunner().invoke(cli, [*args, "--record", str(record)], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    return result.output, json.loads(record.read_text(encoding="utf-8"))


def _visible(state: LaplaplaceState, seat: int) -> set[str]:
    obs = state.observation(seat)
    if "result" in obs:
        return set(NAMES)
    table = state.game.table
    return {table.find(c).name for v in obs["seats"] for k in ("build", "open") for c in (v.get(k) or [])}  # type: ignore[union-attr]


def _flat(text: str) -> str:
    """Text with every run of white space as one space: a line the terminal wrapped or indented reads the same."""
    return " ".join(text.split())


def _menu_texts(state: State) -> list[str]:
    """The texts by which menus list actions (the seat's own choices: the whole public card list), longest first."""
    game = state.game
    actions = [game.action_from_index(i) for i in range(game.num_distinct_actions)]
    texts = {_flat(t) for a in actions for t in (game.describe_action(state, a), game.choice_label(state, a)[1]) if t}
    return sorted(texts, key=len, reverse=True)


def test_whole_games_through_play_report_everything_and_leak_nothing(tmp_path: Path) -> None:
    kinds_seen: set[str] = set()
    for seed, seat, scene in GAMES:
        raw, record = _play(tmp_path, seed, seat, scene)
        output = _flat(raw)
        assert "Game over" in output and record["result"] is not None
        game = cardarena.load("laplaplace", build=scene)
        state = game.new_initial_state(seed)
        assert isinstance(state, LaplaplaceState)
        menus = _menu_texts(state)
        pos = 0
        allowed = _visible(state, seat)
        for text in record["actions"]:  # type: ignore[attr-defined]
            before = state.clone()
            action = game.parse_action(state, text)
            actor = state.current_player
            state.apply(action)
            told = game.narrate(before, action, state, seat)
            seen = game.action_seen_by(before, action, seat)
            if actor != seat:
                assert told[:1] == ([seen] if seen else [])
            # the other seat's action as it sees it (its own first line is not echoed: it chose it), then outcomes
            for line in told if actor != seat else told[1:]:
                found = output.find(_flat(line), pos)
                assert found >= 0, (seed, seat, scene, text, line)
                segment = output[pos:found]
                for m in menus:
                    segment = segment.replace(m, " ")
                assert {n for n, rx in NAMES.items() if rx.search(segment)} <= allowed, (text, line)
                pos = found + len(_flat(line))
                allowed = _visible(state, seat) | _visible(before, seat)
            for kind in ("your build", "your open cards", "open cards revealed", "battle: ", "full battle log"):
                if any(line.startswith(kind) for line in told):
                    kinds_seen.add(kind)
            for key in ("removed", "downed", "upped", "ignores the effect", "negates", "reflects", "recovers"):
                if any(line.startswith("battle: Turn") and key in line for line in told):
                    kinds_seen.add(key)
        assert state.is_terminal()
        assert any(line.startswith("battle: Result: ") for line in told)
        assert output.count("battle: Turn") >= 1 and f"full battle log ({len(state.log)} lines):" in output
        assert "Game over" in output
    assert kinds_seen >= {
        "your build",
        "your open cards",
        "open cards revealed",
        "battle: ",
        "full battle log",
        "removed",
        "downed",
        "upped",
    }, kinds_seen
