"""``cardarena serve``: its options, and a clear error for a database it cannot open."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from cardarena.cli.main import cli


def test_serve_help_names_its_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    options = ("--host", "--port", "--db", "--ai-workers", "--ai-budget", "--allow-agent-specs")
    for option in (*options, "--open-games-per-address", "--expire-open-after", "--unload-idle-after"):
        assert option in result.output


def test_serve_refuses_a_database_url_it_cannot_open() -> None:
    result = CliRunner().invoke(cli, ["serve", "--db", "mongodb://nowhere"])
    assert result.exit_code == 2
    assert result.output.startswith("error:") and "mongodb" in result.output


def test_serve_passes_the_ai_budget_and_the_agent_spec_flag_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr("cardarena.web.app.serve", lambda **kwargs: seen.append(kwargs))
    assert CliRunner().invoke(cli, ["serve", "--db", "memory://"]).exit_code == 0
    assert (
        CliRunner().invoke(cli, ["serve", "--db", "memory://", "--ai-budget", "2.5", "--allow-agent-specs"]).exit_code
        == 0
    )
    assert [(k["ai_budget"], k["allow_agent_specs"]) for k in seen] == [(10.0, False), (2.5, True)]
