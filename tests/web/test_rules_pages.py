"""The games' pages for the browser (``GET /rules/{game}``, docs/web.md, Browser pages) and the lobby's
catalogue fields that describe each game: a page per game, as HTML under the server's Content-Security-Policy,
with the goal, a turn, what to click on this table and the notation, and no terminal command in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardarena.engine import game_class
from cardarena.web.lobby import catalogue
from cardarena.web.markdown import render

from .server_fixtures import server

STATIC = Path(__file__).resolve().parents[2] / "src" / "cardarena" / "web" / "static"

#: what a page for the terminal says and a page for the browser must not
TERMINAL = ("cardarena ", ":skip", ":hint", ":odds", ":help", ":quit", "--vs", "--seat", "--option", "terminal", "$ ")
#: the sections every page has (its headings' ids), and Tash-Kalar's modes besides
SECTIONS = ("the-goal", "on-this-table", "the-notation", "options")
TASHKALAR_MODES = ("high-form", "the-free-for-all-melee", "teams-of-two")
#: the five games (the test suite registers toy games of its own besides, with no page)
GAMES = ("dicebattle", "laplaplace", "lyabi", "tashkalar", "torabato")


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_has_a_browser_page_without_terminal_commands(game_id: str) -> None:
    with server() as client:
        answer = client.get(f"/rules/{game_id}")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "script-src" not in answer.headers["content-security-policy"]  # no exception for this page
    page = answer.text
    assert "<script" not in page and "style=" not in page and "<style" not in page
    assert [word for word in TERMINAL if word in page.lower()] == []
    ids = re.findall(r'<h2 id="([^"]+)"', page)
    assert [s for s in SECTIONS if s not in ids] == [], ids
    assert any(i.startswith(("a-turn", "a-round")) for i in ids), ids
    if game_id == "tashkalar":
        assert [m for m in TASHKALAR_MODES if m not in ids] == [], ids
    assert game_class(game_id).name.split(" ")[0] in page
    # a picture of the table, served from the static folder (scripts/rules_pictures.py takes them)
    pictures = re.findall(r'<img src="(/static/rules/[a-z]+\.png)" alt="([^"]+)"', page)
    assert pictures and all((STATIC / src.removeprefix("/static/")).is_file() for src, _ in pictures), pictures


def test_an_unknown_game_has_no_page() -> None:
    with server() as client:
        assert client.get("/rules/chess").status_code == 404
        assert client.get("/rules/..%2Fapp.py").status_code == 404


def test_the_catalogue_describes_each_game() -> None:
    rows = {row["id"]: row for row in catalogue()["games"]}
    for row in (rows[g] for g in GAMES):
        assert len(row["description"]) > 80 and "\n" not in row["description"], row["id"]
        assert "decisions" in row["length"], row["id"]
        assert row["rules_page"] == f"/rules/{row['id']}"


def test_the_markdown_subset_escapes_everything() -> None:
    html = render("# T <b>\n\nA <script>x</script> **b** `c<d>` [ok](/rules/x) [bad](javascript:alert(1))\n")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<h1 id="t-b">T &lt;b&gt;</h1>' in html
    assert "<strong>b</strong>" in html and "<code>c&lt;d&gt;</code>" in html
    assert '<a href="/rules/x">ok</a>' in html
    assert 'href="javascript' not in html
    pictures = render("![a <b>](/static/rules/x.png)\n\n![no](https://elsewhere.example/x.png)\n")
    assert pictures.startswith('<p class="picture"><img src="/static/rules/x.png" alt="a &lt;b&gt;" loading="lazy">')
    assert pictures.count("<img") == 1  # a picture from anywhere else is not shown
    assert render("- a\n  - b\n  more\n1. c\n") == "<ul><li>a<ul><li>b more</li></ul></li></ul>\n<ol><li>c</li></ol>\n"
