"""The balance report's page (cardarena.arena.report_page) from hand-made report.json samples (tests/arena/data):
ToraBato with two variants and Tash-Kalar with four seats. The page is parsed back into its tables to check that
every card, end and coverage entry has its row, in the order the page promises (strongest first, never occurred
first), that the comparison marks what is significant, that every text from the report is escaped (a card file can
name a card ``<script>``) and that nulls, zero games and a game declaring no involvement render. A browser test
loads the page from a file in headless Chromium at desktop and phone widths and finds the tables and the plots."""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import os
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cardarena.arena.report_page import ReportFormatError, render_page

DATA = Path(__file__).parent / "data"
EVIL = "<script>window.__pwned=1</script>"
EVIL_ATTR = '"><img src=x onerror="window.__pwned=2">'


def sample(name: str = "report-sample") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


class Table:
    """A parsed table: its classes, its header texts and its body rows (row classes and cell texts)."""

    def __init__(self, classes: list[str]) -> None:
        self.classes = classes
        self.head: list[str] = []
        self.rows: list[tuple[list[str], list[str]]] = []


class Tables(HTMLParser):
    """The tables of a page (cell texts as the reader sees them) and its images, by the section they are in."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, Table]] = []  # (section id, table)
        self.images: list[tuple[str, dict[str, str]]] = []
        self.section = ""
        self.table: Table | None = None
        self.cell: list[str] | None = None
        self.in_head = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "section":
            self.section = a.get("id", "")
        elif tag == "table":
            self.table = Table(a.get("class", "").split())
            self.tables.append((self.section, self.table))
        elif tag == "thead":
            self.in_head = True
        elif tag == "tbody":
            self.in_head = False
        elif tag == "tr" and self.table is not None and not self.in_head:
            self.table.rows.append((a.get("class", "").split(), []))
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []
        elif tag == "img":
            self.images.append((self.section, a))
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.table is not None and self.cell is not None:
            text = " ".join("".join(self.cell).split())
            (self.table.head if self.in_head else self.table.rows[-1][1]).append(text)
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def parse(page: str) -> Tables:
    parser = Tables()
    parser.feed(page)
    return parser


def card_tables(tables: Tables) -> list[Table]:
    return [t for section, t in tables.tables if section == "cards" and "cards" in t.classes]


def test_two_variants_every_card_end_and_entry_has_its_row_in_order() -> None:
    report = sample()
    page = render_page(report)
    tables = parse(page)
    cards = card_tables(tables)
    rows = [row for t in cards for row in t.rows]
    expected = [c for v in report["variants"] for c in v["cards"]]
    assert len(rows) == len(expected) == 46
    for table in cards:
        assert table.head[:3] == ["Rank", "Name", "In deck/ build"]
        assert len(table.head) == 12 and all(len(cells) == 12 for _, cells in table.rows)
        ranks = [cells[0] for _, cells in table.rows]
        ranked = [int(r) for r in ranks if r.isdigit()]
        assert ranked == sorted(ranked), "strongest first within each kind"
        assert ranks[: len(ranked)] == [str(r) for r in ranked], "never-used entries come last"
        assert all(("never" in classes) == (cells[0] == "never used") for classes, cells in table.rows)
    # every card of each variant, under its label, with its numbers
    k = next(c for c in report["variants"][0]["cards"] if c["name"] == "K")
    row = next(cells for t in cards[:4] for _, cells in t.rows if cells[1].startswith(k["label"]))
    assert row[0] == "1" and row[4] == f"{k['games_used']:,}" and row[11].startswith(f"{k['strength']:+.3f}")
    assert f"{k['ci_used'][0]:.3f}, {k['ci_used'][1]:.3f}" in row[7]
    strengths = re.findall(r'<td class="num( up| down)?" data-sort="[^"]*">([+-][0-9.]+)<span class="ci">', page)
    for side, text in strengths:  # clearly stronger (weaker) than average: the interval is above (below) 0
        card = next(c for v in report["variants"] for c in v["cards"] if c["strength"] == float(text))
        lo, hi = card["strength_ci"]
        assert side == (" up" if lo > 0 else " down" if hi < 0 else "")
    assert {side for side, _ in strengths} == {"", " up", " down"}
    # the kinds: cards first, each kind its own table, per variant
    assert len(cards) == 8
    assert re.findall(r'<h4 id="kind-(\w+)"', page) == ["card", "ability", "effect", "rule"] * 2
    # how games end: every end condition of both variants, zero counts shown
    ends = next(t for section, t in tables.tables if section == "ends")
    assert [cells[0] for _, cells in ends.rows] == ["hp-zero", "deck-out", "draw", "turn-cap"]
    draw = ends.rows[2]
    assert "never" in draw[0] and draw[1][2:] == ["0", "0.0%", "0", "0.0%"]
    # seats: both variants side by side, and the first player
    seats = next(t for section, t in tables.tables if section == "seats")
    assert [cells[0] for _, cells in seats.rows] == ["seat 0", "seat 1", "first player (whoever took the first turn)"]
    assert len(seats.rows[0][1]) == 1 + 2 * 4 and seats.rows[0][1][1:4] == ["1,064", "24", "912"]
    # the method texts, escaped as text
    for text in report["method"].values():
        assert _text(text) in page
    for v in report["variants"]:
        assert _text(v["strength_method"]) in page


def _text(s: str) -> str:
    """``s`` escaped as the page's templates escape it (Jinja2's autoescape: markupsafe)."""
    from markupsafe import escape

    return str(escape(s))


def test_coverage_lists_never_occurred_first_and_marks_them() -> None:
    report = sample()
    page = render_page(report)
    tables = parse(page)
    (coverage,) = [t for section, t in tables.tables if section == "coverage"]
    keys = {(e["kind"], e["name"]) for v in report["variants"] for e in v["coverage"]}
    assert len(coverage.rows) == len(keys)
    marked = [i for i, (classes, _) in enumerate(coverage.rows) if "never" in classes]
    assert marked == list(range(4)), "never used (in either variant) first"
    assert [cells[0] for _, cells in coverage.rows[:4]] == ["never occurred"] * 3 + ["never used (baseline)"]
    assert not any(cells[0] for _, cells in coverage.rows[4:])
    # unblockable was used in the first variant only; in the baseline it occurred (a Raider on the table), unused
    unblockable = coverage.rows[3][1]
    assert "unblockable" in unblockable[2] and unblockable[3:] == ["520", "26.0%", "1,600", "0", "0.0%", "410"]
    games = [min(int(cells[3].replace(",", "")), int(cells[6].replace(",", ""))) for _, cells in coverage.rows[4:]]
    assert games == sorted(games), "then ascending (by the fewer of the two variants)"
    assert "<strong>4 never used</strong>, 3 of them never occurred at all" in page


def test_comparison_table_has_every_card_and_marks_significant_changes() -> None:
    report = sample()
    tables = parse(render_page(report))
    comparison = [t for section, t in tables.tables if section == "comparison"]
    summary, per_card = comparison
    assert [cells[0] for _, cells in summary.rows] == [
        "seat 0: score",
        "seat 1: score",
        "first player: score",
        "mean turns per game",
    ]
    entries = report["comparison"]["cards"]
    assert len(per_card.rows) == len(entries)
    for (classes, cells), entry in zip(per_card.rows, entries, strict=True):
        assert cells[0].startswith(entry["label"])
        assert ("sig" in classes) == entry["significant"] == (cells[6] == "yes")
        if entry["change"] is None:
            assert cells[4] == "–" and cells[5] == "–"
        else:
            assert cells[4] == f"{entry['change']:+.3f}"
    assert sum(entry["significant"] for entry in entries) == 1
    assert per_card.rows[0][1][6] == "yes" and per_card.rows[0][1][5] == "<0.0001"


def test_plots_are_embedded_svg_images_and_nothing_is_fetched() -> None:
    page = render_page(sample())
    images = parse(page).images
    # seats, two length histograms, one card plot per variant
    assert [section for section, _ in images] == ["seats", "length", "length", "cards", "cards"]
    for _, attrs in images:
        assert attrs["src"].startswith("data:image/svg+xml;base64,")
        svg = base64.b64decode(attrs["src"].split(",", 1)[1]).decode("utf-8")
        assert "<svg" in svg and "</svg>" in svg
        assert int(attrs["width"]) > 300 and int(attrs["height"]) > 150 and attrs["alt"]
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page), "no resource from the network"
    assert "<link" not in page and "@import" not in page
    assert page.count("<script>") == 1, "the only script is the inline table sorter"
    assert render_page(sample()) == page, "the page is deterministic"


def test_every_text_from_the_report_is_escaped() -> None:
    report = sample()
    v = report["variants"][0]
    v["cards"][0]["label"] = EVIL
    v["cards"][1]["name"] = EVIL_ATTR
    v["cards"][2]["label"] = "$x^{2}$ costs \\5 $"  # matplotlib would read $...$ as mathematics
    v["coverage"][0]["label"] = EVIL
    v["ends"][0]["label"] = EVIL
    v["options"] = {EVIL: EVIL_ATTR}
    v["error_examples"] = [EVIL]
    v["label"] = EVIL
    v["strength_method"] = EVIL
    report["game_name"] = EVIL
    report["command"] = EVIL_ATTR
    report["agents"] = [EVIL, "heuristic"]
    report["method"]["score"] = EVIL
    report["comparison"]["cards"][0]["label"] = EVIL
    page = render_page(report)
    assert EVIL not in page and EVIL_ATTR not in page
    assert page.count("<script>") == 1
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page
    assert "<img src=x" not in page
    cards = card_tables(parse(page))
    assert cards[0].rows[0][1][1] == f"{EVIL} K"  # the label, then the name


def test_one_variant_with_four_seats() -> None:
    report = sample("report-sample-4seats")
    page = render_page(report)
    tables = parse(page)
    seats = next(t for section, t in tables.tables if section == "seats")
    assert [cells[0] for _, cells in seats.rows][:4] == ["seat 0", "seat 1", "seat 2", "seat 3"]
    assert len(seats.rows) == 5 and seats.rows[3][1][4].startswith("0.215")
    assert "<code>ismcts:iterations=300</code>" in page
    assert "a fair seat scores 0.250" in page
    assert 'id="comparison"' not in page
    cards = card_tables(tables)
    assert sum(len(t.rows) for t in cards) == len(report["variants"][0]["cards"])
    assert re.findall(r'<h4 id="kind-(\w+)"', page) == ["card", "task", "flare", "rule"]
    assert len(tables.images) == 4


def test_zero_games_nulls_and_no_involvement() -> None:
    report = sample("report-sample-4seats")
    v = report["variants"][0]
    v.update(games=0, errors=0, error_examples=[], cards=[], coverage=[], first_player=None)
    v["seats"] = [{"seat": i, "wins": 0, "draws": 0, "losses": 0, "score": None, "ci": None} for i in range(4)]
    v["length"] = {
        m: {"mean": None, "median": None, "p10": None, "p90": None, "min": None, "max": None, "histogram": []}
        for m in ("turns", "decisions")
    }
    for end in v["ends"]:
        end.update(count=0, share=None)
    v["strength_method"] = None
    page = render_page(report)
    assert "No game was played" in page
    assert "declares no cards, abilities or rules" in page
    assert "declares nothing to follow" in page
    assert len(parse(page).images) == 3  # seats and the two (empty) histograms; no card plot
    assert not card_tables(parse(page))
    # the length section as a whole missing, a seat missing, an unknown method key
    del v["length"]
    v["seats"] = v["seats"][:2]
    report["method"]["bootstrap"] = "resampled"
    page = render_page(report)
    assert "Bootstrap" in page and "resampled" in page


@pytest.mark.parametrize("name", ["report-sample", "report-sample-v2"])
def test_a_missing_or_mistyped_field_is_shown_as_missing(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The page is drawn from whatever report.json holds: a field null, absent or of the wrong type reads as missing
    (the plots are left out while every field is tried, then drawn once with all of them wrong). Schema 2's
    sections are tried too: what changed, the setups, matchups, drama, the sweep, depth."""
    from cardarena.arena import report_page

    base = sample(name)
    targets: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
        "report": lambda r: r,
        "variant": lambda r: r["variants"][0],
        "card": lambda r: r["variants"][0]["cards"][0],
        "seat": lambda r: r["variants"][0]["seats"][0],
        "comparison": lambda r: r["comparison"],
    }
    if name == "report-sample-v2":  # schema 1's fields are tried on the schema-1 sample; here the new ones
        targets = {"card": targets["card"]} | {
            "comparison card": lambda r: r["comparison"]["cards"][0],
            "changed": lambda r: r["comparison"]["changed"][0],
            "out of line": lambda r: r["variants"][0]["out_of_line"][0],
            "setup": lambda r: r["variants"][0]["setups"][0],
            "matchups": lambda r: r["variants"][0]["matchups"],
            "drama": lambda r: r["variants"][0]["drama"],
            "sweep": lambda r: r["sweep"],
            "sweep point": lambda r: r["sweep"]["points"][0],
            "depth": lambda r: r["depth"],
            "restricted": lambda r: r["depth"]["restricted"][0],
        }
    for where, target in targets.items():
        for key in list(target(base)):
            if where == "report" and key in ("schema", "variants"):
                continue
            for wrong in (None, 7, "x"):
                report = copy.deepcopy(base)
                target(report)[key] = wrong
                with monkeypatch.context() as m:
                    m.setattr(report_page, "_plot_img", lambda *a, **k: "")
                    page = render_page(report)
                assert page.endswith("</html>\n"), (where, key, wrong)
    report = copy.deepcopy(base)
    for v in report["variants"]:
        for key in list(v):
            v[key] = "x"
    images = [section for section, _ in parse(render_page(report)).images if section not in ("sweep", "depth")]
    assert images == ["seats", "length", "length"]  # seats and the two length plots, empty


def test_many_cards_plot_the_strongest_and_weakest_only() -> None:
    report = sample()
    del report["variants"][1:]
    report["comparison"] = None
    v = report["variants"][0]
    template = v["cards"][0]
    v["cards"] = []
    for i in range(80):
        card = copy.deepcopy(template)
        card.update(name=f"c{i}", label=f"Card {i}", rank=i + 1, strength=1 - i / 40)
        v["cards"].append(card)
    page = render_page(report)
    assert "the 15 strongest and weakest" in page
    assert len(card_tables(parse(page))[0].rows) == 80
    assert 'id="comparison"' not in page


@pytest.mark.parametrize(("ranked", "strongest", "weakest"), [(7, 3, 3), (5, 3, 2), (2, 1, 1), (1, 1, 0), (0, 0, 0)])
def test_strongest_and_weakest_at_a_glance(ranked: int, strongest: int, weakest: int) -> None:
    """The three strongest and the three weakest, weakest first; a short list is split, no entry named twice."""
    report = sample("report-sample-4seats")
    v = report["variants"][0]
    v["cards"] = [c for c in v["cards"] if c["rank"] is not None and c["rank"] <= ranked]
    page = render_page(report)
    glance = page[page.index('id="glance"') : page.index("</section>", page.index('id="glance"'))]
    lists = re.findall(r'<p class="(strong|weak)">\w+</p><ol>(.*?)</ol>', glance)
    names = {kind: re.findall(r"<li>([^<]*)", items) for kind, items in lists}
    labels = [c["label"] for c in sorted(v["cards"], key=lambda c: c["rank"])]
    assert [n.strip() for n in names.get("strong", [])] == labels[:strongest]
    assert [n.strip() for n in names.get("weak", [])] == labels[::-1][:weakest]
    if not ranked:
        assert "declares no cards" in glance


@pytest.mark.parametrize("label", ["$x^{2}$ costs \\5 $", "a\\$b$", "100% off_{x}", "plain"])
def test_plot_labels_are_drawn_as_written_never_as_mathematics(label: str) -> None:
    import io

    import matplotlib
    from matplotlib.figure import Figure

    from cardarena.arena.report_page import _tex

    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text as text, to read it back
        fig = Figure()
        fig.add_subplot().set_title(_tex(label))
        out = io.BytesIO()
        fig.savefig(out, format="svg")
    shown = re.findall(r"<text[^>]*>([^<]*)</text>", out.getvalue().decode("utf-8"))
    assert shown[-1] == label


def test_labels_in_other_scripts_are_drawn() -> None:
    """Card files may name cards in Japanese (the rulebooks are): the page and its plots take them as text."""
    report = sample("report-sample-4seats")
    report["variants"][0]["cards"][0]["label"] = "タイタン（伝説）"
    page = render_page(report)
    assert "タイタン（伝説）" in page
    assert len(parse(page).images) == 4


@pytest.mark.parametrize("bad", [[], {"schema": 2, "variants": []}, {"schema": 1}, {"schema": 1, "variants": [1]}])
def test_not_a_report_is_a_clear_error(bad: Any) -> None:
    with pytest.raises(ReportFormatError, match=r"schema|variants"):
        render_page(bad)


# -- in a browser -----------------------------------------------------------------------------------------------

CHROMIUM = os.environ.get("CARDARENA_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium, headless (as tests/web/ui); outside CI a machine without it skips, saying so."""
    if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
        pytest.skip(f"{CHROMIUM} is missing: the browser test of the report page needs Debian's chromium (make test)")
    from playwright.sync_api import sync_playwright

    from tests.web.ui.conftest import launch

    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def opened(browser: Any, path: Path, viewport: dict[str, int]) -> Iterator[tuple[Any, list[str]]]:
    """The page at ``path`` loaded in a fresh browser context of this ``viewport``, and the list its page errors and
    console errors are collected in (a test asserts it empty)."""
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        yield page, errors
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 360, "height": 740}])
def test_page_opens_in_a_browser_with_tables_and_plots(browser: Any, tmp_path: Path, viewport: dict[str, int]) -> None:
    report = sample()
    report["variants"][0]["cards"][0]["label"] = EVIL
    report["variants"][0]["cards"][1]["label"] = EVIL_ATTR
    path = tmp_path / "index.html"
    path.write_text(render_page(report), encoding="utf-8")
    with opened(browser, path, viewport) as (page, errors):
        tables = page.locator("table")
        assert tables.count() == 14  # seats, length, ends, 8 card tables, coverage, 2 comparison
        for i in range(tables.count()):
            box = tables.nth(i).bounding_box()
            assert box is not None and box["width"] > 0 and box["height"] > 0
        plots = page.locator("img.plot")
        assert plots.count() == 5
        for i in range(plots.count()):
            plots.nth(i).scroll_into_view_if_needed()
            box = plots.nth(i).bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 100
            assert plots.nth(i).evaluate("img => img.complete && img.naturalWidth > 0")
        assert page.evaluate("window.__pwned") is None
        # the page never scrolls sideways; wide tables scroll in their own box
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        # a click on a column heading sorts the table by it (most uses first)
        first = page.locator("table.cards").first
        first.locator("thead th", has_text="Uses").click()
        uses = [
            int(t.replace(",", "")) for t in first.locator("tbody tr td:nth-child(7)").all_inner_texts() if t != "–"
        ]
        assert uses == sorted(uses, reverse=True) and len(uses) == 14
        assert errors == []


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 360, "height": 740}])
def test_schema_two_page_opens_in_a_browser(browser: Any, tmp_path: Path, viewport: dict[str, int]) -> None:
    """The schema-2 sample at desktop and phone widths: every plot drawn (heat maps, sweep, ladder included), the
    page never scrolls sideways, "What changed" is the first section, no console error."""
    path = tmp_path / "index.html"
    path.write_text(render_page(sample("report-sample-v2")), encoding="utf-8")
    with opened(browser, path, viewport) as (page, errors):
        assert page.locator("section").first.get_attribute("id") == "changed"
        assert page.locator("#changed h2").inner_text() == "What changed"
        plots = page.locator("img.plot")
        assert plots.count() == 10  # seats, 2 lengths, drama, 2 heat maps, 2 card plots, the sweep, the ladder
        for i in range(plots.count()):
            plots.nth(i).scroll_into_view_if_needed()
            box = plots.nth(i).bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 100
            assert box["x"] + box["width"] <= viewport["width"]
            assert plots.nth(i).evaluate("img => img.complete && img.naturalWidth > 0")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert errors == []


def test_a_page_written_by_the_report_command_opens_in_a_browser(browser: Any, tmp_path: Path) -> None:
    """The issue's check end to end: `cardarena report` plays real games (Laplaplace, random builds) and writes a
    page that Chromium opens, with its tables and plots drawn and no error."""
    from click.testing import CliRunner

    from cardarena.cli.main import cli

    out = tmp_path / "report"
    args = ["report", "laplaplace", "-n", "60", "--agents", "random", "--jobs", "1", "--bootstrap", "20"]
    result = CliRunner().invoke(cli, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "report.json").is_file() and str(out / "index.html") in result.output
    with opened(browser, out / "index.html", {"width": 1280, "height": 900}) as (page, errors):
        assert page.locator("h1").inner_text().endswith("Laplaplace")
        assert page.locator("table").count() >= 5 and page.locator("table.cards").count() >= 2  # cards, effects...
        plots = page.locator("img.plot")
        assert plots.count() >= 3  # seats, the two length histograms, the win rate by card
        for i in range(plots.count()):
            plots.nth(i).scroll_into_view_if_needed()
            box = plots.nth(i).bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 100
        assert page.locator("tbody tr", has_text="Pierce").count() >= 1
        assert errors == []


# -- schema 2: the sections a designer reads first (tests/arena/data/report-sample-v2.json) -----------------------


def section_text(page: str, sid: str) -> str:
    """The text a reader sees in the section ``sid`` (tags dropped, entities read, spaces folded)."""
    import html

    start = page.index(f'<section id="{sid}">')
    body = page[page.index("</h2>", start) : page.index("</section>", start)]
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    return re.sub(r"\( ", "(", re.sub(r" ([,.:;)])", r"\1", text))


@pytest.fixture
def no_plots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page without drawing its plots (about a second a page): for the tests that read only its words."""
    from cardarena.arena import report_page

    monkeypatch.setattr(report_page, "_plot_img", lambda *a, **k: "")


def test_schema_two_sections_in_the_order_a_designer_reads_them(no_plots: None) -> None:
    page = render_page(sample("report-sample-v2"))
    sections = re.findall(r'<section id="(\w+)">', page)
    assert sections == [
        "changed",
        "glance",
        "setups",
        "seats",
        "length",
        "ends",
        "drama",
        "matchups",
        "cards",
        "coverage",
        "comparison",
        "sweep",
        "depth",
        "method",
    ]
    nav = re.findall(r'<a href="#(\w+)">', page[page.index("<nav") : page.index("</nav>")])
    assert nav == sections
    assert page.index("</header>") < page.index('<section id="changed">'), "what changed comes right after the header"


def test_schema_one_reports_have_none_of_the_new_sections(no_plots: None) -> None:
    page = render_page(sample())
    for sid in ("changed", "setups", "drama", "matchups", "sweep", "depth"):
        assert f'<section id="{sid}">' not in page
    assert "Out of line" not in page and "points of win rate" not in page


def test_what_changed_names_the_edited_card_with_its_data_and_change(no_plots: None) -> None:
    report = sample("report-sample-v2")
    text = section_text(render_page(report), "changed")
    assert text.startswith("Every card, rule or option whose data differ between as given and the baseline baseline")
    assert "Goblin (monster, level 5: power 2) goblin card data changed" in text
    assert "baseline monster, level 1, power 2 as given monster, level 5, power 2" in text
    assert "Win rate when played: +13.1 points [+9.7, +16.5]; pick rate: +14 points; evidence: q < 0.0001." in text
    assert "It is now the strongest card by far." in text
    # nothing changed: said so; no comparison.changed at all (schema 1): no block
    report["comparison"]["changed"] = []
    assert "No card, rule or option differs" in section_text(render_page(report), "changed")
    del report["comparison"]["changed"]
    assert '<section id="changed">' not in render_page(report)


def test_out_of_line_at_a_glance_in_words(no_plots: None) -> None:
    report = sample("report-sample-v2")
    text = section_text(render_page(report), "glance")
    as_given = text[: text.index("baseline")]
    assert as_given.index("Out of line") < as_given.index("Strongest")
    assert "Out of line Goblin (monster, level 5: power 2) goblin card: +14.2 points of win rate when played" in text
    assert "War Drum (magic: power 1 to all) war_drum card: dominant: played in 97% of (game, seat) pairs" in text
    assert "Goblin (monster, level 5: power 2) goblin card: +14.2 points of win rate when played [+11.0, +17.4]" in text
    assert "The seats played 4 decks." in text
    for v in report["variants"]:
        v["out_of_line"] = []
    assert "Nothing is out of line" in section_text(render_page(report), "glance")


def test_the_decks_each_seat_played_in_words(no_plots: None) -> None:
    report = sample("report-sample-v2")
    page = render_page(report)
    text = section_text(page, "setups")
    assert text.startswith("Each game's decks are drawn anew (the same in every variant): legal decks from the pool")
    assert "The table lists every deck, most played first, with the games each seat played it" in text
    (table,) = [t for section, t in parse(page).tables if section == "setups"]
    assert table.head == [
        "Deck",
        "Seat 0 games",
        "Seat 1 games",
        "Games in all (game, seat) pairs",
        "Owner's score [95%] as given",
        "Owner's score [95%] baseline",
    ]
    assert table.rows[0][1][:4] == ["Goblin rush", "156", "150", "306"]
    assert [cells[0] for _, cells in table.rows] == ["Goblin rush", "Dragon hoard", "Mage circle", "Knight order"]
    assert "Decks varied: each game draws the decks its players bring" in " ".join(
        re.sub(r"<[^>]+>", " ", page).split()
    )
    # many decks: the most played in the open, the rest folded
    for v in report["variants"]:
        v["setups"] = [dict(v["setups"][0], label=f"deck {i}") for i in range(20)]
    page = render_page(report)
    assert "8 more decks, played less" in section_text(page, "setups")
    rows = [len(t.rows) for section, t in parse(page).tables if section == "setups"]
    assert rows == [12, 8]


def test_card_tables_show_points_pick_rate_dominance_and_set_few_uses_apart(no_plots: None) -> None:
    report = sample("report-sample-v2")
    page = render_page(report)
    tables = card_tables(parse(page))
    main, few = tables[0], tables[1]
    assert "few" not in main.classes and "few" in few.classes
    assert main.head[:4] == [
        "Rank",
        "Name",
        "Strength points of win rate when played [95%]",
        "Pick rate % of pairs [95%]",
    ]
    assert not any("log-odds" in h for h in main.head)
    names = [cells[1].split(" (")[0] for _, cells in main.rows]
    assert names[0] == "Goblin" and "Mirror Imp" not in names and "Bone Golem" not in names
    assert [cells[1].split(" (")[0] for _, cells in few.rows] == ["Mirror Imp", "Bone Golem"]
    goblin = main.rows[0][1]
    assert goblin[2] == "+14.2[+11.0, +17.4]" and goblin[3] == "62[59, 65]"
    assert "Out of line: +14.2 points" in goblin[1]
    drum = next((classes, cells) for classes, cells in main.rows if cells[1].startswith("War Drum"))
    assert "dominant" in drum[0] and "war_drum dominant Dominant: played in 97%" in drum[1][1]
    assert '<td class="num up" data-sort="14.2">+14.2<span class="ci">' in page
    assert "entries with too few uses (or too few games without them) to measure a strength" in page


def test_the_card_plot_shows_strength_in_points_not_win_rate() -> None:
    images = [attrs for section, attrs in parse(render_page(sample("report-sample-v2"))).images if section == "cards"]
    assert len(images) == 2
    assert all(a["alt"].startswith("Strength by card: points of win rate when played") for a in images)
    v1 = [attrs for section, attrs in parse(render_page(sample())).images if section == "cards"]
    assert all(a["alt"].startswith("Owner's score by card") for a in v1)


def test_comparison_sorted_by_evidence_with_the_correction_in_words(no_plots: None) -> None:
    report = sample("report-sample-v2")
    page = render_page(report)
    tables = [t for section, t in parse(page).tables if section == "comparison"]
    summary, per_card, few = tables
    assert summary.rows[0][1][0] == "seat 0: score"
    assert "few" in few.classes
    entries = report["comparison"]["cards"]
    kept = [e for e in entries if not e["few_uses"]]
    assert len(per_card.rows) == len(kept)
    assert all(cells[0].startswith(e["label"]) for (_, cells), e in zip(per_card.rows, kept, strict=True))
    assert len(few.rows) == 1 and few.rows[0][1][0].startswith("Mirror Imp")
    goblin_classes, goblin = per_card.rows[0]
    assert "sig" in goblin_classes and goblin[-1] == "yes" and "changed" in goblin[0]
    assert goblin[2:5] == ["+14.2", "+1.1", "+13.1[+9.7, +16.5]"] and goblin[7] == "+14"
    text = section_text(page, "comparison")
    assert "1 significant after correcting for 9 comparisons" in text
    assert "entries whose data differ between the files are counted among themselves" in text
    assert "significant after correcting when q < 0.05" in text
    assert "Too few uses to compare (1)" in text


def test_matchups_heat_map_and_cycles_in_words() -> None:
    page = render_page(sample("report-sample-v2"))
    text = section_text(page, "matchups")
    assert "Each cell is the score of the row's deck against the column's" in text
    assert "1 cycle, where no deck is best" in text
    assert "Goblin rush beats Dragon hoard beats Mage circle beats Goblin rush (weakest link 0.590)" in text
    assert "1 variant of a deck counted with its deck" in text
    images = [attrs for section, attrs in parse(page).images if section == "matchups"]
    assert len(images) == 2 and images[0]["alt"].startswith("Matchups:")


def test_drama_sweep_and_depth_in_words() -> None:
    report = sample("report-sample-v2")
    page = render_page(report)
    tables = parse(page).tables
    drama = section_text(page, "drama")
    assert "How early a game is decided and how often the lead changes hands" in drama
    first = next(t for section, t in tables if section == "drama")
    assert first.head == [  # both variants side by side
        "Statistic",
        "Turn the winner was decided as given",
        "Turn the winner was decided baseline",
        "Share of the game played by then % of its turns as given",
        "Share of the game played by then % of its turns baseline",
        "Lead changes per game as given",
        "Lead changes per game baseline",
    ]
    share = report["variants"][1]["drama"]["decided_share"]["mean"]  # a percentage already
    assert first.rows[0][1][0] == "mean" and first.rows[0][1][4] == f"{share:.0f}"
    assert (
        "as given: 600 games with an estimate, 588 of them with a sole winner; comebacks: 24.0% [20.7%, 27.6%]" in drama
    )
    assert [s for s, _ in parse(page).images].count("drama") == 1, "one plot, the variants overlaid"
    assert "Length by how the game ended" in drama and "deck-out" in drama
    sweep = section_text(page, "sweep")
    assert page.count("<h2>Sweep: goblin.level</h2>") == 1
    assert "the card file has 5. Followed: the card's strength (points of win rate when played" in sweep
    assert "Fair at 1.4: where the followed outcome crosses its fair line" in sweep
    assert "the games cannot tell it from fair at 1, 2 (highlighted)" in sweep
    rows = next(t for section, t in tables if section == "sweep").rows
    assert [cells[0] for _, cells in rows] == ["1", "2", "3", "4", "5 (in the card file)"]
    assert ["sig" in classes for classes, _ in rows] == [True, True, False, False, False]
    report["sweep"]["fair_at"] = None
    assert "No value of the range is fair" in section_text(render_page(report), "sweep")
    depth = section_text(page, "depth")
    for words in (
        "Does skill keep paying? The skill ladder Each rung is an agent with twice the thinking budget",
        "Skill pays up to budget 100 and flattens there.",
        "Which cards matter? Restricted play",
        "The normal agent against itself scores 0.505 [0.436, 0.574].",
        "Some luck: a random player scores a third",
        "Luck index 0.32 [0.23, 0.42]: a random player's score against heuristic over a fair seat's",
        "Does the first player have an advantage?",
        "The first player scores 0.541 [0.501, 0.580], +4.1 points over a fair seat. A real advantage",
    ):
        assert words in depth
    ladder, restricted = (t for section, t in tables if section == "depth")
    assert len(ladder.rows) == 3 and ladder.rows[0][1][0] == "ismcts:iterations=50"
    goblin = restricted.rows[0][1]
    assert goblin[0].startswith("Goblin (monster, level 5: power 2) goblin Important: without it the agent wins 19.5")
    assert goblin[1:] == ["card", "200", "0.310[0.250, 0.377]", "+19.5[+13.4, +25.6]", "0"]
    assert '<td class="num up" data-sort="19.5">+19.5<span class="ci">' in page
    assert [section for section, _ in parse(page).images].count("depth") == 1


def test_schema_two_texts_are_escaped(no_plots: None) -> None:
    report = sample("report-sample-v2")
    comp = report["comparison"]
    comp["changed"][0].update(label=EVIL, a=EVIL_ATTR, b=EVIL, verdict=EVIL)
    comp["cards"][0].update(label=EVIL, verdict=EVIL_ATTR)
    v = report["variants"][0]
    v["out_of_line"][0].update(label=EVIL, why=EVIL_ATTR)
    v["setups"][0]["label"] = EVIL
    v["matchups"]["labels"][0] = EVIL
    v["matchups"]["cycles"] = [[EVIL, EVIL_ATTR, "Mage circle"]]
    v["drama"]["method"] = EVIL
    v["cards"][0]["verdict"] = EVIL
    report["setup"]["note"] = EVIL_ATTR
    report["sweep"].update(target=EVIL, outcome=EVIL_ATTR, fair_at=EVIL)
    report["depth"]["restricted"][0]["label"] = EVIL
    report["depth"]["luck"]["text"] = EVIL
    page = render_page(report)
    assert EVIL not in page and EVIL_ATTR not in page
    assert page.count("<script>") == 1 and "<img src=x" not in page
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page


def test_a_variant_without_matchups_or_drama_says_so(no_plots: None) -> None:
    report = sample("report-sample-v2")
    report["variants"][1]["matchups"] = None
    report["variants"][1]["drama"] = None
    page = render_page(report)
    assert "No matchups: fewer than two decks met in these games" in section_text(page, "matchups")
    assert "baseline: no drama was measured" in section_text(page, "drama")
    for v in report["variants"]:
        v["matchups"] = None
        v["drama"] = None
    page = render_page(report)
    assert '<section id="matchups">' not in page and '<section id="drama">' not in page
    report["setup"] = None
    for v in report["variants"]:
        v["setups"] = []
    page = render_page(report)
    assert '<section id="setups">' not in page, "no decks drawn: nothing to list"
    report["setup"] = {"kind": "deck", "varied": False, "note": ""}
    assert "Every seat played the game's own deck in every game" in section_text(render_page(report), "setups")


def test_without_matplotlib_the_page_says_so_instead_of_its_plots(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "matplotlib":
            raise ImportError("No module named 'matplotlib'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    page = render_page(sample("report-sample-v2"))
    assert page.count("No plot: matplotlib is not installed") == 10 and "<img" not in page
    assert 'pip install "cardarena[arena]"' in page


# -- Japanese card names in the plots ------------------------------------------------------------------------------

JAPANESE = "タイタン（伝説）"


def _svg_glyphs(page: str, section: str) -> list[str]:
    """The glyph ids of the plots of ``section`` (matplotlib draws text as paths named FONT-GLYPH)."""
    ids = []
    for sid, attrs in parse(page).images:
        if sid == section:
            svg = base64.b64decode(attrs["src"].split(",", 1)[1]).decode("utf-8")
            ids += re.findall(r'<path id="([^"]+)"', svg)
    return ids


def test_japanese_card_names_are_drawn_with_a_cjk_font() -> None:
    """A card file may name cards in Japanese (the rulebooks do): the plots draw them with a CJK font through
    matplotlib's font fallback, with no missing-glyph warning (warnings are errors here) and no box glyph."""
    import warnings

    from cardarena.arena.report_page import _cjk_family

    if _cjk_family() is None and not os.environ.get("CI"):
        pytest.skip("no CJK font is installed (make test installs Debian's fonts-noto-cjk)")
    assert _cjk_family() is not None, "make test installs fonts-noto-cjk: the plots need it for Japanese names"
    report = sample("report-sample-v2")
    report["variants"][0]["cards"][0]["label"] = JAPANESE
    report["variants"][0]["matchups"]["labels"][0] = "ゴブリン速攻"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        page = render_page(report)
    glyphs = _svg_glyphs(page, "cards") + _svg_glyphs(page, "matchups")
    cjk = {g for g in glyphs if "CJK" in g}
    assert len(cjk) >= len(set(JAPANESE + "ゴブリン速攻")), "every Japanese character drawn from the CJK font"
    assert not [g for g in glyphs if "LastResort" in g or g.endswith("-0")], "no missing-glyph box"
    assert "no installed font has their characters" not in page


def test_without_a_cjk_font_a_plot_shows_the_card_file_name_and_the_page_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import warnings

    from cardarena.arena import report_page

    monkeypatch.setattr(report_page, "_cjk_family", lambda: None)
    report = sample("report-sample-v2")
    report["variants"][0]["cards"][0]["label"] = JAPANESE  # its name in the card file is "goblin"
    report["variants"][0]["matchups"]["labels"][0] = "ゴブリン速攻"  # a deck has no other name: ? for each character
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # never a silenced missing-glyph warning: the page draws what it can
        page = render_page(report)
    glyphs = _svg_glyphs(page, "cards") + _svg_glyphs(page, "matchups")
    assert glyphs and not [g for g in glyphs if "CJK" in g or "LastResort" in g or g.endswith("-0")]
    header = page[: page.index("</header>")]
    assert page.count("no installed font has their characters") == 1
    assert (
        "The plots draw 2 names by the card file's name or with <code>?</code>: no installed font has their "
        f"characters (ゴブリン速攻, {JAPANESE})"
    ) in header
    assert "apt-get install fonts-noto-cjk" in header
    assert JAPANESE in section_text(page, "cards"), "the tables show the name as written"
