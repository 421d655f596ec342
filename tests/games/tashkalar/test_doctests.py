"""The docstring examples of the game's modules run."""

import doctest

import pytest

from cardarena.games.tashkalar import actions, board
from cardarena.games.tashkalar.cards import text


@pytest.mark.parametrize("module", [actions, board, text])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0
