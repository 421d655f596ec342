"""The environments every RL test runs over: each game in each mode that changes who plays or what is hidden."""

from __future__ import annotations

from typing import Any

import pytest

from cardarena.rl import ENVIRONMENTS

#: (environment id, game id, options), as registered with Gymnasium
CONFIGS: list[tuple[str, str, dict[str, Any]]] = [(k, g, o) for k, (g, o) in ENVIRONMENTS.items()]


def config_ids() -> list[str]:
    return [k.removeprefix("cardarena/").removesuffix("-v0") for k, _, _ in CONFIGS]


@pytest.fixture(params=CONFIGS, ids=config_ids())
def config(request: pytest.FixtureRequest) -> tuple[str, str, dict[str, Any]]:
    return request.param  # type: ignore[no-any-return]
