"""The rules of Dice Battle Monsters as functions on a state, one module per topic:

- :mod:`.protocol`: the three entry points the state delegates to, dispatching by phase and by action kind;
- :mod:`.turns`: rounds, the Revival and draw phases; :mod:`.dice`: the dice phase;
- :mod:`.battle`: the battle and reward phases; :mod:`.effects`: carrying out card effects;
- :mod:`.deck`: drawing, milling and a deck that runs out; :mod:`.penalty`: the penalty decision that follows;
- :mod:`.levels`: what the cards use of the die and the main unit's level; :mod:`.log`: the public events.

The package itself imports none of them: compiled with mypyc (docs/speed.md), a package whose ``__init__`` imports
its own compiled modules recurses at import (each module's library is loaded before the package is registered).
"""
