"""The lobby's strength choice in a browser: each AI strength with its ladder rating and time a move (issue 31,
point 4). The catalogue is the server's own, computed with a ladder file rating ToraBato (the fixture of
tests/web/test_server_ladder.py); a person picks the Expert AI for player 2 and reads its rating under it.
Set ``CARDARENA_SCREENSHOTS=DIR`` to keep the screenshot (docs/screenshots/lobby-ratings.png was taken so)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from cardarena.agents import levels
from cardarena.web.lobby import catalogue as server_catalogue

from ..test_server_ladder import ladder_fixture
from .browser import ORIGIN, PageErrors, route_static


def rated_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    (tmp_path / "ladder.json").write_text(json.dumps(ladder_fixture()), encoding="utf-8")
    monkeypatch.setattr(levels, "MODELS", tmp_path)
    levels.reload()
    try:
        return server_catalogue(agent_specs=False)
    finally:
        monkeypatch.undo()
        levels.reload()


def test_the_lobby_shows_each_strength_with_its_rating(
    browser: Any, fixtures: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = rated_catalogue(tmp_path, monkeypatch)

    def api(route: Any, path: str) -> bool:
        if path == "/api/catalogue":
            answer: Any = body
        elif path == "/api/games":
            answer = []
        else:
            return False
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))
        return True

    context = browser.new_context(viewport={"width": 900, "height": 700})
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures, api)
    try:
        page.goto(f"{ORIGIN}/")
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "torabato")
        titles = page.eval_on_selector_all('[data-seat-kind="1"] option', "els => els.map(e => e.textContent)")
        assert titles == [
            "Person (invite someone)",
            "Easy AI — rated 655, under 0.1 s a move",
            titles[2],
            "Hard AI — rated 1210, about 0.4 s a move",
            "Expert AI — rated 1480, about 0.4 s a move",
        ]
        assert titles[2].startswith("Normal AI — not yet rated")  # the ladder rated another spec as normal
        page.select_option('[data-seat-kind="1"]', "ai:expert")
        help_text = page.locator('[data-seat-help="1"]').inner_text()
        assert "rated 1480 [1390, 1570] on this game's ladder, where random play is 0" in help_text
        page.select_option("#game", "lyabi")  # a game the ladder does not rate yet
        lyabi = page.eval_on_selector_all('[data-seat-kind="1"] option', "els => els.map(e => e.textContent)")
        assert all("not yet rated" in t for t in lyabi[1:]), lyabi
        page.select_option("#game", "torabato")
        page.select_option('[data-seat-kind="1"]', "ai:expert")
        shot = tmp_path / "lobby-ratings.png"
        page.locator("#create").screenshot(path=str(shot))
        assert shot.stat().st_size > 5000
        keep = os.environ.get("CARDARENA_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            (Path(keep) / shot.name).write_bytes(shot.read_bytes())
        assert errors == []
    finally:
        context.close()
