"""The lobby page against stand-ins of the REST API (Playwright routes; no server runs): the catalogue gives the
game list, each game's options as form fields and its seat range; creating a game posts what the form says and
shows one invitation link per human seat (private to that player) and the spectator link; the list of games
shows names as text; the player's name is kept in localStorage."""

from __future__ import annotations

import json
import re
from typing import Any

from cardarena.games.laplaplace.cards import SHIPPED_BUILDS
from cardarena.web.lobby import catalogue as server_catalogue

from .browser import ORIGIN, PHONE, PageErrors, route_static

GAMES = ("torabato", "laplaplace", "tashkalar")
MARKUP = "<img src=x onerror=window.__pwned=1>Eve"


def catalogue(agent_specs: bool = True) -> dict[str, Any]:
    """The server's own catalogue of ``GAMES`` (the options as the server lists them)."""
    games = [g for g in server_catalogue(agent_specs=agent_specs)["games"] if g["id"] in GAMES]
    return {
        "games": games,
        "strengths": {"easy": "heuristic", "normal": "ismcts:iterations=300", "hard": "ismcts:iterations=2000"},
        "agent_specs": agent_specs,
    }


class FakeLobby:
    def __init__(self, agent_specs: bool = True) -> None:
        self.created: list[dict[str, Any]] = []
        self.agent_specs = agent_specs  # whether the server takes agent specs (its operator's flag)

    def api(self, route: Any, path: str) -> bool:
        method = route.request.method
        if path == "/api/catalogue":
            body: Any = catalogue(self.agent_specs)
        elif path == "/api/games" and method == "POST":
            self.created.append(json.loads(route.request.post_data))
            humans = [i for i, s in enumerate(self.created[-1]["seats"]) if s["kind"] == "human"]
            body = {
                "key": "K3y",
                "watch": "/watch/K3y",
                "invitations": [{"seat": i, "url": f"/play/K3y#token{i}"} for i in humans],
            }
            route.fulfill(status=201, content_type="application/json", body=json.dumps(body))
            return True
        elif path == "/api/games":
            body = self.games_list()
        else:
            return False
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        return True

    @staticmethod
    def games_list() -> list[dict[str, Any]]:
        """One listed ToraBato game, its player's name holding markup, one seat open."""
        seats = [
            {"seat": 0, "name": MARKUP, "kind": "human", "label": None, "taken": True, "connected": True},
            {"seat": 1, "name": "", "kind": "human", "label": None, "taken": False, "connected": False},
        ]
        game = {"key": "Listed1", "game": "torabato", "title": "ToraBato", "status": "open", "seats": seats, "ply": 0}
        return [{**game, "created": "2026-01-01T00:00:00Z"}]


def open_lobby(
    browser: Any, fixtures: dict[str, Any], viewport: dict[str, int] | None = None, *, agent_specs: bool = True
) -> tuple[Any, PageErrors, FakeLobby]:
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    lobby = FakeLobby(agent_specs)
    route_static(page, fixtures, lobby.api)
    page.goto(f"{ORIGIN}/")
    page.wait_for_selector("#game option", state="attached")
    return page, errors, lobby


def test_creating_a_game_posts_the_form_and_shows_the_links(browser: Any, fixtures: dict[str, Any]) -> None:
    page, errors, lobby = open_lobby(browser, fixtures)
    try:
        page.fill("#my-name", "Ada")
        page.dispatch_event("#my-name", "change")
        page.select_option("#game", "laplaplace")
        page.click("#options summary")
        assert page.eval_on_selector_all("#opt-build option", "els => els.map(e => e.value)") == [
            "blind",
            "open",
            "league",
        ]
        # a fixed build is a shipped one, offered by name; unset by default (the seat builds in play)
        assert page.eval_on_selector_all("#opt-build1 option", "els => els.map(e => e.value)") == ["", *SHIPPED_BUILDS]
        assert page.input_value("#opt-build1") == ""
        page.select_option("#opt-build", "open")
        page.select_option('[data-seat-kind="1"]', "ai:hard")
        page.uncheck("#private")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#created:not([hidden])")
        assert lobby.created == [
            {
                "game": "laplaplace",
                "options": {"build": "open"},
                "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "strength": "hard"}],
                "private": False,
            }
        ]
        assert page.input_value('[data-invitation="0"]') == f"{ORIGIN}/play/K3y#token0"
        assert page.locator("#created", has_text="Private to that player").count() == 1
        assert page.locator("#created button", has_text="Copy").count() == 2  # the invitation and the spectator link
        assert page.input_value("[data-watch]") == f"{ORIGIN}/watch/K3y"
        # the name is kept for the next visit
        page.reload()
        page.wait_for_selector("#game option", state="attached")
        assert page.input_value("#my-name") == "Ada"
        assert errors == []
    finally:
        page.context.close()


def test_seat_counts_follow_the_game_and_seats_may_be_agent_specs(browser: Any, fixtures: dict[str, Any]) -> None:
    page, errors, lobby = open_lobby(browser, fixtures)
    try:
        page.select_option("#game", "tashkalar")
        assert page.eval_on_selector_all("#seat-count option", "els => els.map(e => e.value)") == ["2", "3", "4"]
        page.select_option("#seat-count", "3")
        assert page.locator("[data-seat-kind]").count() == 3
        page.select_option('[data-seat-kind="0"]', "ai:spec")
        page.fill('[data-seat-spec="0"]', "flatmc:worlds=8")
        page.select_option('[data-seat-kind="2"]', "human")
        page.click("#options summary")
        page.check("#opt-teams")
        page.click("#create button[type=submit]")
        page.wait_for_selector("#created:not([hidden])")
        created = lobby.created[0]
        assert created["seats"] == [
            {"kind": "ai", "agent": "flatmc:worlds=8"},
            {"kind": "ai", "strength": "normal"},
            {"kind": "human"},
        ]
        assert created["options"] == {"teams": True}
        assert page.locator("[data-invitation]").count() == 1
        assert errors == []
    finally:
        page.context.close()


def test_agent_specs_are_offered_only_where_the_server_takes_them(browser: Any, fixtures: dict[str, Any]) -> None:
    page, errors, _ = open_lobby(browser, fixtures, agent_specs=False)
    try:
        values = page.eval_on_selector_all('[data-seat-kind="1"] option', "els => els.map(e => e.value)")
        assert values == ["human", "ai:easy", "ai:normal", "ai:hard"]
        assert errors == []
    finally:
        page.context.close()


def test_the_game_list_shows_names_as_text_and_fits_a_phone(browser: Any, fixtures: dict[str, Any]) -> None:
    page, errors, _ = open_lobby(browser, fixtures, viewport=PHONE)
    try:
        page.wait_for_selector("#games li")
        assert MARKUP in page.locator("#games li").text_content()
        assert page.locator("#games img").count() == 0
        assert page.evaluate("window.__pwned") is None
        assert page.locator('#games a[href="/watch/Listed1"]').count() == 1
        assert page.locator('#games [data-join="Listed1"]').count() == 1  # an open human seat
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # joining takes an invitation link of this server
        page.fill("#invitation", "https://elsewhere.example/play/x#y")
        page.click("#join-link button")
        assert page.locator(".toast", has_text="not an invitation link").count() == 1
        assert errors == []
    finally:
        page.context.close()


def test_the_lobby_describes_each_game_and_links_its_rules_page(browser: Any, fixtures: dict[str, Any]) -> None:
    """Every game of the server's own catalogue is listed with its one-paragraph description, its players, its
    typical length and a link to its page for the browser; the chosen game's description sits by the form."""
    games = [g for g in server_catalogue()["games"] if not g["id"].startswith("toy")]
    assert len(games) == 5

    def api(route: Any, path: str) -> bool:
        if path == "/api/catalogue":
            body: Any = {"games": games, "strengths": {}, "agent_specs": False}
        elif path == "/api/games":
            body = []
        else:
            return False
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        return True

    context = browser.new_context()
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures, api)
    try:
        page.goto(f"{ORIGIN}/")
        page.wait_for_selector("#game option", state="attached")
        for game in games:
            item = page.locator(f'#catalogue [data-game="{game["id"]}"]')
            assert item.is_visible()
            text = item.text_content() or ""
            assert game["description"] and game["description"] in text
            low, high = game["players"]
            assert (f"{low} players" if low == high else f"{low}-{high} players") in text
            assert game["length"] and game["length"] in text
            assert item.locator("a").get_attribute("href") == f"/rules/{game['id']}"
        page.select_option("#game", "lyabi")
        lyabi = next(g for g in games if g["id"] == "lyabi")
        assert lyabi["description"] in (page.locator("#game-about").text_content() or "")
        assert page.locator("#game-about a").get_attribute("href") == "/rules/lyabi"
        assert errors == []
    finally:
        context.close()


#: seat numbers, the returns, an agent spec: none may show in the lobby's texts (issue 28, point 7)
JARGON = re.compile(r"\b[Ss]eat \d|\bseat |returns|\bP[01]\b|ismcts|flatmc|iterations=|heuristic")


def test_the_lobby_words_strengths_players_and_options_and_fits_a_phone(browser: Any, fixtures: dict[str, Any]) -> None:
    """Every game of the server's own catalogue, on a phone: the players are numbered from 1 in words, each AI
    strength is its title and time a move with what it means below it (never an agent spec), every option has a
    label and help in words, and no label wraps letter by letter; Tash-Kalar's strengths follow its mode."""
    games = [g for g in server_catalogue()["games"] if not g["id"].startswith("toy")]

    def api(route: Any, path: str) -> bool:
        if path == "/api/catalogue":
            body: Any = {"games": games, "strengths": {}, "agent_specs": False}
        elif path == "/api/games":
            body = FakeLobby().games_list()
        else:
            return False
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        return True

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    route_static(page, fixtures, api)
    try:
        page.goto(f"{ORIGIN}/")
        page.wait_for_selector("#game option", state="attached")
        page.wait_for_selector("#games li")
        for game in games:
            page.select_option("#game", game["id"])
            page.select_option("#seat-count", str(game["players"][1]))
            if page.locator("#options summary").count():
                page.click("#options summary")
            words = game["strength_words"]
            titles = page.eval_on_selector_all('[data-seat-kind="1"] option', "els => els.map(e => e.textContent)")
            assert titles == [
                "Person (invite someone)",
                *(words[s]["title"] for s in ("easy", "normal", "hard", "expert")),
            ]
            page.select_option('[data-seat-kind="1"]', "ai:hard")
            assert page.locator('[data-seat-help="1"]').inner_text() == words["hard"]["words"]
            text = page.evaluate("document.body.innerText")
            assert "Player 1" in text and "Player 2" in text
            assert not JARGON.search(text), (game["id"], JARGON.search(text))
            # a label keeps whole words: none is taller than three lines or narrower than its longest word
            for label in page.locator("#options label").all():
                box = label.bounding_box()
                assert box is not None and box["height"] < 70, (game["id"], label.inner_text(), box)
                assert label.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), label.inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # Tash-Kalar's melee has figures of its own: the menu follows the mode
        tash = next(g for g in games if g["id"] == "tashkalar")
        page.select_option("#game", "tashkalar")
        page.click("#options summary")
        page.select_option("#opt-mode", "melee")
        melee = tash["strength_words_by"]["mode"]["melee"]
        assert page.locator('[data-seat-kind="1"] option[value="ai:hard"]').text_content() == melee["hard"]["title"]
        assert errors == []
    finally:
        context.close()
