"""Issue 32's done-test, as two people do it: Ada and Bo each register in the lobby's account bar (in their own
browsers); Ada creates a rated Laplaplace game from the lobby's form ("Rated"), sits down, and sends Bo the
invitation; Bo, signed in, takes the seat; they play to the end by clicking. Both tables then say how both ratings
moved, by exactly what Glicko-2 gives for that result between two new accounts; Ada's page shows the rating with
its history and the game, and the leaderboard lists both beside the bots. Screenshots of the profile and the
leaderboard go to ``CARDARENA_SHOTS``."""

from __future__ import annotations

import random
from typing import Any

from cardarena.web.glicko import Outcome, update
from cardarena.web.ratings import START

from .browser import PageErrors
from .test_live import WAIT_MS, play_to_the_end, sit_down
from .test_rated_table import SHOTS, served  # noqa: F401 - the fixture


def person(browser: Any, base: str, name: str) -> tuple[Any, PageErrors]:
    """A browser of its own, signed in to a new account ``name`` from the lobby's account bar."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(f"localStorage.setItem('cardarena.name', {name!r})")
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{base}/")
    page.wait_for_selector("#account-form:not([hidden])")
    page.fill("#account-user", name)
    page.fill("#account-password", "correct horse battery")
    page.click("#register")
    page.wait_for_selector("#account-signed:not([hidden])")
    return page, errors


def expected_line(name: str, you: bool, score: float) -> str:
    after = update(START, [Outcome(START, score)])  # two new accounts: each the other's opponent at 1500/350
    delta = round(after.rating) - 1500
    sign = "+" if delta > 0 else "−" if delta < 0 else "±"
    return f"{name}{' (you)' if you else ''}: 1500 → {round(after.rating)}? ({sign}{abs(delta)})"


def test_two_accounts_play_a_rated_game_and_see_both_ratings_move(browser: Any, served: tuple[str, Any]) -> None:  # noqa: F811
    base, app = served
    ada, ada_errors = person(browser, base, "Ada")
    bo, bo_errors = person(browser, base, "Bo")
    try:
        # the Rated box is offered to someone signed in
        ada.wait_for_selector("#game option", state="attached")
        ada.select_option("#game", "laplaplace")
        ada.select_option('[data-seat-kind="1"]', "human")
        assert ada.locator("#rated-field").is_visible()
        ada.check("#rated")
        ada.click("#create button[type=submit]")
        ada.wait_for_selector("#created:not([hidden])")
        invitation = ada.input_value('[data-invitation="1"]')
        sit_down(ada)
        bo.goto(invitation)
        bo.wait_for_function("() => document.querySelector('#status')?.dataset.status === 'connected'")
        key = ada.url.split("/play/", 1)[1].split("#", 1)[0]
        row = app.state.tables.live(key).row
        assert row.rated and all(s.account is not None for s in row.seats)
        play_to_the_end([ada, bo], "laplaplace", random.Random(11))
        returns = ada.evaluate("window.__table.state().returns")
        ada_score = 1.0 if returns[0] > returns[1] else 0.5 if returns[0] == returns[1] else 0.0
        lines = {
            "Ada": expected_line("Ada", True, ada_score),
            "Bo": expected_line("Bo", False, 1.0 - ada_score),
        }
        shown = ada.locator("#result .rating-changes li")
        shown.first.wait_for()
        assert sorted(shown.all_text_contents()) == sorted(lines.values())
        bo_shown = bo.locator("#result .rating-changes li")
        bo_shown.first.wait_for()
        assert sorted(bo_shown.all_text_contents()) == sorted(
            [expected_line("Ada", False, ada_score), expected_line("Bo", True, 1.0 - ada_score)]
        )
        # Ada's page: the rating, its history, the game with its outcome and change, the replay link
        ada.goto(f"{base}/players/Ada")
        ada.wait_for_selector("#ratings li[data-key='laplaplace']")
        rating = round(update(START, [Outcome(START, ada_score)]).rating)
        assert f"{rating}?" in ada.locator("#ratings li").first.text_content()
        assert ada.locator("#ratings svg.history circle").count() == 2  # before and after the game
        game = ada.locator(f"#finished li[data-key='{key}']")
        assert "Bo" in game.text_content() and "rated" in game.text_content()
        assert game.locator("a", has_text="Replay").get_attribute("href") == f"/replay/{key}?seat=0"
        SHOTS.mkdir(parents=True, exist_ok=True)
        ada.screenshot(path=str(SHOTS / "s32-profile.png"), full_page=True)
        ada.goto(f"{base}/leaderboard/laplaplace")
        ada.wait_for_selector("#board tbody tr")
        rows = ada.locator("#board tbody tr").all_text_contents()
        assert any("Ada" in r for r in rows) and any("Bo" in r for r in rows)
        ada.screenshot(path=str(SHOTS / "s32-leaderboard-two.png"), full_page=True)
        assert ada_errors == [] and bo_errors == []
    finally:
        ada.context.close()
        bo.context.close()
