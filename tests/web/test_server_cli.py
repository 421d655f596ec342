"""``cardarena serve``: its options, and a clear error for a database it cannot open."""

from __future__ import annotations

from click.testing import CliRunner

from cardarena.cli.main import cli


def test_serve_help_names_its_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    options = ("--host", "--port", "--db", "--ai-workers")
    for option in (*options, "--open-games-per-address", "--expire-open-after", "--unload-idle-after"):
        assert option in result.output


def test_serve_refuses_a_database_url_it_cannot_open() -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", "mongodb://nowhere"])
    assert result.exit_code == 2
    assert result.output.startswith("error:") and "mongodb" in result.output
