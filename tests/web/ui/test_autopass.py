"""Less clicking, clear buttons (issue 28, point 3), in a real browser against the real server (the ``server``
fixture of test_live.py: ``cardarena serve`` on a loopback port).

A whole ToraBato game against the AI with auto-pass on (the default): every decision of the player's seat is either
clicked, and then it was a real choice (more than one legal action) announced by "Your turn.", or taken by the page
(auto-pass, or "Pass until something happens"); no decision with a single legal action needed a click. The pass
and done buttons say what they do in this step, as the game words it. Before the opponent has joined, the page
does not say "Your turn.".
"""

from __future__ import annotations

import json
import random
import re
import urllib.request
from typing import Any

from .browser import click_action
from .test_live import create_game, new_page, server, sit_down

__all__ = ["server"]  # the fixture, used by name below

#: What ToraBato's pass and done do in each step (games/torabato/render.py, step_words)
STEP_WORDS = {
    "Pass",
    "Let it resolve",
    "Go on to the draw",
    "Go on to the main phase",
    "End main phase",
    "End the turn",
    "Go on to choosing attackers",
    "Go on to blocks",
    "Go on to combat damage",
    "Deal combat damage",
    "No blocks",
    "Done blocking",
    "Attack with these",
    "No attack after all",
    "Done",
}

#: the player's decision: "Your turn." shows (at a ply not answered yet), or the game is over
DECIDE = """(last) => {
  const s = window.__table && window.__table.state();
  if (!s) return false;
  if (s.terminal) return true;
  const turn = document.querySelector('#turn');
  return s.ply !== last && turn.classList.contains('mine') && !document.body.classList.contains('sending');
}"""


def test_a_torabato_game_with_auto_pass_needs_no_click_on_a_forced_decision(browser: Any, server: str) -> None:
    page, errors = new_page(browser, "Ada")
    rng = random.Random(5)
    try:
        create_game(page, server, "torabato", "ai:easy")
        sit_down(page)
        clicks = skips = 0
        labels: set[str] = set()
        last = -1
        skipped: list[tuple[int, int, dict[str, Any]]] = []  # (ply, turn) at each "Pass until…", the next decision
        for _ in range(3000):
            page.wait_for_function(DECIDE, arg=last)
            s = page.evaluate("window.__table.state()")
            if s["terminal"]:
                break
            last = s["ply"]
            if skipped and skipped[-1][2] == {}:
                skipped[-1][2].update(s)  # the decision "Pass until something happens" stopped at
            assert page.locator("#turn").text_content() == "Your turn."
            choices = [a for a in s["legal"] if not a.get("resign")]
            assert len(choices) > 1, f"'Your turn.' with a single choice, not taken by auto-pass: {choices}"
            for a in s["legal"]:
                if a["text"] in ("pass", "done"):
                    shown = page.locator(f'#table .controls [data-action="{a["text"]}"]').text_content()
                    assert shown == a["detail"] and shown in STEP_WORDS, (a, shown)
                    listed = page.locator(f'#actions [data-action="{a["text"]}"]').text_content()
                    assert listed == a["detail"], (a, listed)
                    labels.add(shown)
            if page.locator("#skip").is_visible() and rng.random() < 0.25:
                page.click("#skip")  # pass until something happens
                skipped.append((s["ply"], s["turn"], {}))
                skips += 1
                continue
            click_action(page, "torabato", rng.choice(choices)["text"])
            clicks += 1
        else:
            raise AssertionError("the game did not end")
        assert page.locator("#result").is_visible()
        assert page.locator("#autopass").is_checked()  # on by default
        auto = page.evaluate("window.__table.autoSent()")
        assert page.evaluate("window.__table.clicks()") == clicks
        # every action of the seat was a click on a real choice or sent by the page; the server's record agrees
        key = page.url.split("/play/", 1)[1].split("#", 1)[0].strip("/")
        with urllib.request.urlopen(f"{server}/api/games/{key}/replay?seat=0", timeout=60) as r:
            log = json.load(r)["log"]
        mine = [e for e in log if e["seat"] == 0]
        assert len(mine) == clicks + auto
        # "Pass until something happens" (the terminal's :skip) passed, and stopped only at a new turn, an
        # opponent's action other than a pass, or a decision without a pass
        for ply, turn, then in skipped:
            if not then:
                continue  # the game ended while passing
            between = [e for e in log if ply < e["n"] <= then["ply"]]
            assert all(e["text"] == "pass" for e in between if e["seat"] == 0), between
            acted = any(e["text"] != "pass" for e in between if e["seat"] != 0)
            passes = any(a.get("pass") for a in then["legal"])
            assert then["turn"] != turn or acted or not passes, (ply, turn, between)
        assert auto > clicks, (auto, clicks)  # most of ToraBato's decisions are forced passes
        assert skips > 0 and "End main phase" in labels and labels - {"End main phase"}
        assert "pass" not in labels
        assert errors == []
    finally:
        page.context.close()


def test_no_your_turn_before_the_opponent_joined(browser: Any, server: str) -> None:
    page, errors = new_page(browser, "Ada")
    try:
        create_game(page, server, "torabato", "human")
        sit_down(page)
        page.wait_for_function("() => window.__table.state() !== null")
        turn = page.locator("#turn")
        assert turn.text_content() == "Waiting for the other players to join."
        assert "mine" not in (turn.get_attribute("class") or "")
        assert errors == []
    finally:
        page.context.close()


#: the result line: who won (or a draw) and why, in words (issue 28, point 7)
RESULT = re.compile(r"^(?:You win|.+ wins?|Draw) — \S.+$")
#: what no text of the shell may show: seat numbers, the returns, an agent spec
JARGON = re.compile(r"\b[Ss]eat \d|\bseat |returns|\bP[01]\b|ismcts|iterations=|heuristic")


#: the shell's own texts (header, turn line and its buttons, players, result): the game's table is its module's
SHELL_TEXT = "[...document.querySelectorAll('.bar, .turn-row, #seats, #result')].map(e => e.innerText).join(' | ')"


def test_pass_until_my_turn_passes_through_the_opponents_turn_and_stops_at_mine(browser: Any, server: str) -> None:
    """A whole ToraBato game in which the player mostly presses "Pass until my turn": from then on every action of
    the seat is a pass, taken by the page, until a later turn is the player's own (``turn_player``) or a decision
    has no pass; whatever the opponent does meanwhile. The game then ends with the result in words."""
    page, errors = new_page(browser, "Ada")
    rng = random.Random(28)
    try:
        create_game(page, server, "torabato", "ai:easy")
        sit_down(page)
        last = -1
        started: list[tuple[int, int, int | None, dict[str, Any]]] = []  # (ply, turn, turn player, where it stopped)
        for _ in range(2000):
            page.wait_for_function(DECIDE, arg=last)
            s = page.evaluate("window.__table.state()")
            if s["terminal"]:
                break
            last = s["ply"]
            if started and started[-1][3] == {}:
                started[-1][3].update(s)
            # the shell names the players and speaks no engine words, at every decision
            shell = page.evaluate(SHELL_TEXT)
            assert not JARGON.search(shell), shell
            if page.locator("#skip-turn").is_visible() and rng.random() < 0.8:
                page.click("#skip-turn")
                started.append((s["ply"], s["turn"], s["turn_player"], {}))
                continue
            choices = [a for a in s["legal"] if not a.get("resign")]
            click_action(page, "torabato", rng.choice(choices)["text"])
        else:
            raise AssertionError("the game did not end")
        key = page.url.split("/play/", 1)[1].split("#", 1)[0].strip("/")
        with urllib.request.urlopen(f"{server}/api/games/{key}/replay?seat=0", timeout=60) as r:
            log = json.load(r)["log"]
        stopped_at_my_turn = 0
        for ply, turn, _, then in started:
            if not then:
                continue  # the game ended while passing
            between = [e for e in log if ply < e["n"] <= then["ply"]]
            assert all(e["text"] == "pass" for e in between if e["seat"] == 0), between
            passes = any(a.get("pass") and not a.get("confirm") for a in then["legal"])
            mine = then["turn"] != turn and then["turn_player"] == 0
            assert mine or not passes, (ply, turn, then["turn"], then["turn_player"])
            stopped_at_my_turn += mine
        assert started and stopped_at_my_turn > 0, started
        # the result says who won and why, with names
        line = page.locator("#result .result-line").text_content() or ""
        assert RESULT.match(line), line
        assert not JARGON.search(page.locator("#result").inner_text()), line
        assert errors == []
    finally:
        page.context.close()
