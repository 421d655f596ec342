"""The games' player's pages for the browser (``GET /rules/{game}``): each game's ``browser.md`` (the goal, a
turn, what to click on this table, the notation; :meth:`Game.browser_rules`) rendered to HTML, followed by the
options a new game offers in the lobby (from the game's ``option_spec``, so they never drift from the code).

The page is a whole HTML document with no script and no inline style (the server's Content-Security-Policy);
the lobby links each game to it and the table's Rules panel leads to it (docs/web.md, Browser pages).
"""

from __future__ import annotations

import html

from ..engine import game_class, games
from .lobby import offered
from .markdown import render


def rules_page(game_id: str) -> str | None:
    """The page of ``game_id``; ``None`` for a game this server does not have (or one without a browser page)."""
    if game_id not in games():
        return None
    cls = game_class(game_id)
    source = cls.browser_rules()
    if not source:
        return None
    title = html.escape(cls.name)
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <link rel="icon" href="data:,">
  <title>How to play {title} · cardarena</title>
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules-page">
  <header class="bar">
    <a class="home" href="/">Lobby</a>
    <span>How to play</span>
  </header>
  <main class="box browser-rules" data-game="{html.escape(game_id)}">
{render(source)}{_options(game_id)}
  </main>
</body>
</html>
"""


def _options(game_id: str) -> str:
    """The options section: each option the lobby offers, with its default, its values and its help."""
    rows = []
    for o in game_class(game_id).option_spec:
        if not offered(o):
            continue
        values = o.named if o.path else o.choices
        extra = f" One of: {', '.join(map(str, values))}." if values else ""
        default = "the game decides" if o.default is None else str(o.default)
        rows.append(
            f"<li><strong>{html.escape(o.name)}</strong> (default: {html.escape(default)}): "
            f"{html.escape(o.help)}.{html.escape(extra)}</li>"
        )
    body = f"<ul>{''.join(rows)}</ul>" if rows else "<p>This game has no options.</p>"
    return (
        '<h2 id="options">Options</h2>\n<p>Set them in the lobby under "Options" when you create a game; the '
        f"defaults are the rulebook's game.</p>\n{body}\n"
    )
