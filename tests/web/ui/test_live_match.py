"""Finding an opponent in a real browser against the real server (issue 28, part 8): two browser contexts find
each other through the lobby's "Play anyone" and play a Laplaplace game to the end, then a rematch (the asker goes
to the new table, the other is offered their seat on their own page); a stranger joins a listed
game's open seat from the lobby's list; "Play the normal AI now" while waiting goes to a table against the AI; a
rematch goes straight to the new table. The server is test_live's (``cardarena serve`` on a loopback port)."""

from __future__ import annotations

import random
from typing import Any

from .test_live import create_game, held_secret, new_page, play_to_the_end, server, sit_down

__all__ = ["server"]  # the module's server fixture, shared with test_live

CONNECTED = "() => document.querySelector('#status')?.dataset.status === 'connected'"


def key_of(page: Any) -> str:
    return str(page.url.split("/play/", 1)[1].split("#", 1)[0])


def wait_in_lobby(page: Any, base: str, game: str, ai_after: str = "0") -> None:
    """Open the lobby and ask to play ``game`` with anyone (``ai_after``: the AI choice, 0 = keep waiting)."""
    page.goto(f"{base}/")
    page.wait_for_selector(f'[data-anyone="{game}"]')
    page.select_option("#anyone-ai", ai_after)
    page.click(f'[data-anyone="{game}"]')


def test_two_players_find_each_other_through_play_anyone_and_play_to_the_end(browser: Any, server: str) -> None:
    ada, ada_errors = new_page(browser, "Ada")
    bo, bo_errors = new_page(browser, "Bo")
    try:
        wait_in_lobby(ada, server, "laplaplace")
        ada.wait_for_selector("#waiting:not([hidden])")
        assert "Waiting for someone to play Laplaplace" in ada.locator("#waiting").text_content()
        wait_in_lobby(bo, server, "laplaplace")
        for page in (ada, bo):
            page.wait_for_function(CONNECTED)
        key = key_of(ada)
        assert key_of(bo) == key
        seats = {ada.evaluate("window.__table.seat()"), bo.evaluate("window.__table.seat()")}
        assert seats == {0, 1}
        ada.wait_for_function(
            "() => [...document.querySelectorAll('#seats .name')].some((e) => e.textContent === 'Bo')"
        )
        play_to_the_end([ada, bo], "laplaplace", random.Random(4))
        for page in (ada, bo):
            assert page.locator("#result").is_visible()
        # each page holds its own seat's secret only
        ada_secret = held_secret(ada, key, ada.evaluate("window.__table.seat()"))
        bo_secret = held_secret(bo, key, bo.evaluate("window.__table.seat()"))
        assert ada_secret != bo_secret
        assert ada_secret not in bo.content() and bo_secret not in ada.content()
        # a rematch: Bo asks and goes to the new table; Ada's page offers her own seat of it
        bo.click("#result button:has-text('Rematch')")
        bo.wait_for_url(lambda url: "/play/" in url and key not in url)
        bo.wait_for_function(CONNECTED)
        ada.click("[data-rematch-offer]")
        ada.wait_for_url(lambda url: "/play/" in url and key not in url and "#seat=" in url)
        ada.wait_for_function(CONNECTED)
        assert key_of(ada) == key_of(bo)
        assert ada_errors == [] and bo_errors == []
    finally:
        ada.context.close()
        bo.context.close()


def test_a_stranger_joins_a_listed_game_from_the_lobby(browser: Any, server: str) -> None:
    ada, ada_errors = new_page(browser, "Ada")
    bo, bo_errors = new_page(browser, "Bo")
    try:
        create_game(ada, server, "laplaplace", "human", listed=True)  # its open seat is offered to anyone
        sit_down(ada)
        key = key_of(ada)
        bo.goto(f"{server}/")
        bo.click(f'#games [data-join="{key}"]')
        bo.wait_for_function(CONNECTED)
        assert key_of(bo) == key and bo.url.endswith("#seat=1")
        ada.wait_for_function(
            "() => [...document.querySelectorAll('#seats .name')].some((e) => e.textContent === 'Bo')"
        )
        assert bo.evaluate("window.__table.seat()") == 1
        assert ada_errors == [] and bo_errors == []
    finally:
        ada.context.close()
        bo.context.close()


def test_nobody_came_so_the_waiter_plays_the_normal_ai(browser: Any, server: str) -> None:
    page, errors = new_page(browser, "Cy")
    try:
        wait_in_lobby(page, server, "tashkalar", "15")
        page.wait_for_selector("#waiting:not([hidden])")
        assert "within 15 s" in page.locator("#waiting").text_content()
        page.click("[data-anyone-ai]")  # or wait the 15 s chosen
        page.wait_for_function(CONNECTED)
        names = page.eval_on_selector_all("#seats .name", "els => els.map(e => e.textContent)")
        assert "Cy" in names and len(names) == 2
        assert errors == []
    finally:
        page.context.close()
