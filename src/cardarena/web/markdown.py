"""A small, safe subset of Markdown rendered to HTML, for the games' browser pages (``browser.md``).

What it reads: ``#``/``##``/``###`` headings, paragraphs, ``- `` and ``1. `` lists (a line indented under an item
continues it; an indented ``- `` line starts a sub-item, one level deep), and inline `` `code` ``, ``**bold**``,
``*emphasis*`` and ``[text](address)`` links, and a picture alone on its line, ``![what it shows](/static/...)``
(only this server's static files). Everything else is text. Every character of the source is escaped
before any markup is added, so no source can put a tag, an attribute, a script or a style in the page (the pages
run under the server's Content-Security-Policy, with no inline script or style); a link's address must be a path
on this server (``/...``), a fragment (``#...``) or ``https://``, anything else is shown as plain text. Headings
get an ``id`` (their words, lower case, joined by ``-``) so that a page can link to its own sections.
"""

from __future__ import annotations

import html
import re

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\(([^)\s]+)\)")
_SAFE_HREF = re.compile(r"^(/[^/]|#|https://)")
_ITEM = re.compile(r"^(-|\d+\.) (.*)$")
_PICTURE = re.compile(r"^!\[([^\]]+)\]\((/static/[A-Za-z0-9_./-]+)\)$")


def inline(text: str) -> str:
    """One line's (or paragraph's) text with its inline markup, everything escaped."""
    out: list[str] = []
    last = 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[last : m.start()]))
        code, bold, em, label, href = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{inline(bold)}</strong>")
        elif em is not None:
            out.append(f"<em>{inline(em)}</em>")
        elif _SAFE_HREF.match(href):
            out.append(f'<a href="{html.escape(href)}">{inline(label)}</a>')
        else:
            out.append(html.escape(m.group(0)))
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def anchor(title: str) -> str:
    """A heading's ``id``: its letters and digits, lower case, words joined by ``-``."""
    return "-".join(re.findall(r"[a-z0-9]+", title.lower())) or "section"


def _sublist(sub: list[list[str]]) -> str:
    return "<ul>" + "".join(f"<li>{inline(' '.join(lines))}</li>" for lines in sub) + "</ul>" if sub else ""


def render(source: str) -> str:
    """The HTML of ``source`` (a fragment: the page around it is the caller's)."""
    out: list[str] = []
    paragraph: list[str] = []
    items: list[tuple[list[str], list[list[str]]]] = []  # each item: its lines, and its sub-items' lines
    kind = ""  # "ul" or "ol" while a list is open

    def flush() -> None:
        nonlocal kind
        if paragraph:
            out.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            body = "".join(f"<li>{inline(' '.join(lines))}{_sublist(sub)}</li>" for lines, sub in items)
            out.append(f"<{kind}>{body}</{kind}>")
            items.clear()
        kind = ""

    for raw in source.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        heading = re.match(r"^(#{1,3}) (.+)$", line)
        picture = _PICTURE.match(line)
        if picture and ".." not in picture.group(2):
            flush()
            alt, src = html.escape(picture.group(1)), html.escape(picture.group(2))
            out.append(f'<p class="picture"><img src="{src}" alt="{alt}" loading="lazy"></p>')
            continue
        item = _ITEM.match(line)
        if heading:
            flush()
            level, title = len(heading.group(1)), heading.group(2).strip()
            out.append(f'<h{level} id="{anchor(title)}">{inline(title)}</h{level}>')
        elif item and not raw.startswith(" "):
            wanted = "ul" if item.group(1) == "-" else "ol"
            if paragraph or (kind and kind != wanted):
                flush()
            kind = wanted
            items.append(([item.group(2)], []))
        elif items and raw.startswith(" "):
            lines, sub = items[-1]
            if line.startswith("- "):
                sub.append([line[2:]])  # an indented "- " starts a sub-item
            elif sub:
                sub[-1].append(line)  # an indented line continues the last sub-item, or the item
            else:
                lines.append(line)
        else:
            if items:
                flush()
            paragraph.append(line)
    flush()
    return "\n".join(out) + "\n"
