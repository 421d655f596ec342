"""The balance report's page: ``DIR/index.html``, one self-contained file built from ``report.json``'s dict.

This first version lays out the tables only; the page with plots and explanations replaces it (issue 17).
"""

from __future__ import annotations

import html
import json
from typing import Any


def render_page(report: dict[str, Any]) -> str:
    """The whole page for ``report`` (the dict written as report.json) as HTML text."""
    title = f"Balance report: {report.get('game_name', report.get('game', '?'))}"
    body = html.escape(json.dumps(report, ensure_ascii=False, indent=1))
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
        f"<body><h1>{html.escape(title)}</h1><pre>{body}</pre></body></html>\n"
    )
