"""Bridges from cardarena's games to the tools game-AI researchers use.

``cardarena.interop.openspiel`` registers every game (and every Tash-Kalar mode) as an OpenSpiel Python game, so
that ``pyspiel.load_game("cardarena_torabato")`` and OpenSpiel's own algorithms and tests run on them. It needs
the ``openspiel`` extra (``pip install -e '.[openspiel]'``); importing this package alone needs nothing.

Like the other faces (``cli``, ``web``), the bridges reach the games only through the registry
(``cardarena.engine.load``), the state protocol and the per-game hooks, never through a game package.
"""
