"""Exact scenarios for every shipped card (fireplace style): position, actions, resulting board and counters."""

from __future__ import annotations

from typing import Any

import pytest

import cardarena
from cardarena.games.tashkalar.board import NAME_SQ
from cardarena.games.tashkalar.constants import Phase
from cardarena.games.tashkalar.rules.flares import flare_halves
from cardarena.games.tashkalar.state import TashKalarState

from .helpers import board, legal, play, position, set_item

GAME = cardarena.load("tashkalar", resign=False)  # exact legal lists: no "resign" at their end

# One row per scenario: card, pieces before, actions, pieces after, further exact results. Every shipped card has
# at least one; the positions hold decoys that a wrong owner / rank / reference / distance / count / style in the
# card file would pick up. "summon" alone summons the row's card on e5 (r0). Actions starting with "?" assert the
# exact set of legal actions ("|"-separated), "+" that these are legal, "-" that none of these is. The dict holds
# actions left (default: 1 after a summon, 2 after a flare), extra draws [school, legend, flare] (default none),
# enemy pieces destroyed this turn [common, heroic, legendary] (default none) and the score (default: the legend
# point for legends, the opponent's point for flares).
ROWS: list[tuple[str, str, list[str], str, dict[str, Any]]] = [
    (
        "cinder-imp",
        "d6:o f6:o e4:x d4:x f5:X g5:x d5:o",
        ["summon", "?choose d4|choose e4", "choose e4"],
        "d4:x d5:o e5:o f5:X g5:x d6:o f6:o",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "ash-hound",
        "e6:o e7:o f4:x d4:X",
        ["summon", "-move e5 d4", "+move e5 f4|move e5 e6|skip", "move e5 f4", "move f4 g3"],
        "g3:o d4:X e6:o e7:o",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "spark-runner",
        "c5:o d5:o g5:x",
        ["summon", "-move e5 g5|move e5 f5|move e5 i5", "+move e5 h5|skip", "move e5 h5"],
        "c5:o d5:o g5:x h5:o",
        {},
    ),
    (
        "kindler",
        "d6:o c7:o f4:x g5:o e4:o f6:O",
        ["summon", "?choose d6|choose e4", "choose d6"],
        "e4:o f4:x e5:o g5:o d6:O f6:O c7:o",
        {},
    ),
    (
        "smoke-scout",
        "d5:o e6:o f6:x g7:x c7:x c3:X e8:x g5:o",
        ["summon", "?choose c7|choose g7", "choose g7"],
        "c3:X d5:o e5:o g5:o e6:o f6:x c7:x e8:x",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "brand-bearer",
        "d5:o f5:o e6:x",
        ["summon", "-move e5 e6", "+move e5 e4|skip", "move e5 e4"],
        "e4:o d5:o f5:o e6:x",
        {"extra": [1, 0, 0]},
    ),
    (
        "coal-warden",
        "f5:o e6:o d4:X e4:X d5:x f4:# g5:X d6:O",
        ["summon", "?choose d4|choose e4", "choose d4"],
        "d4:x e4:X f4:# d5:x e5:o f5:o g5:X d6:O e6:o",
        {},
    ),
    (
        "flame-duelist",
        "d5:o f5:o e6:O e4:X d4:# f3:X d3:x g4:x",
        ["summon", "-move e5 d4|skip", "+move e5 e4", "move e5 e4", "?choose d3|choose f3", "choose f3"],
        "d3:x d4:# e4:O g4:x d5:o f5:o e6:O",
        {"destroyed": [0, 2, 0]},
    ),
    (
        "pyre-knight",
        "d4:o e4:x f4:o f5:x d6:o e6:X f6:o g5:x",
        ["summon"],
        "d4:o f4:o e5:O g5:x d6:o e6:X f6:o",
        {"destroyed": [2, 0, 0]},
    ),
    ("blaze-lancer", "d4:O f4:O e6:x e7:# e8:x", ["summon"], "d4:O f4:O e5:O e7:# e8:x", {"destroyed": [1, 0, 0]}),
    ("blaze-lancer", "d4:O f4:O e6:X e7:o", ["summon"], "d4:O f4:O e5:O e7:o", {"destroyed": [0, 1, 0]}),
    (
        "forge-master",
        "f4:O d6:O e6:o c3:o g3:o h5:o f6:x",
        ["summon", "?choose c3|choose e6|choose g3|skip", "choose e6", "choose c3"],
        "c3:O g3:o f4:O e5:O h5:o d6:O e6:O f6:x",
        {},
    ),
    (
        "scorch-wyrm",
        "d6:o e6:o f6:o e3:X g5:# f5:x",
        ["summon", "-move e5 g5|move e5 f5", "+move e5 e3|skip", "move e5 e3"],
        "e3:O f5:x g5:# d6:o e6:o f6:o",
        {"destroyed": [0, 1, 0]},
    ),
    ("furnace-adept", "f5:o e6:o f6:O", ["summon"], "e5:O f5:o e6:o f6:O", {"actions": 2}),
    ("cinder-witch", "d6:O f6:O d4:X f4:# e4:x g5:X", ["summon"], "d4:x e4:x f4:X e5:O g5:X d6:O f6:O", {}),
    (
        "war-drummer",
        "c6:o e6:o g6:o d5:o d4:x f4:O f5:x f6:o",
        [
            "summon",
            "-move c6 c7|move f4 f3|move f5 g4",
            "+move d5 d4|move e6 e7|move f6 f7|skip",
            "move d5 d4",
            "move e6 f5",
            "+skip",
            "move f6 f7",
        ],
        "d4:o f4:O e5:O f5:o c6:o g6:o f7:o",
        {"destroyed": [2, 0, 0]},
    ),
    (
        "war-drummer",
        "c6:o e6:o g6:o d5:o f5:o d4:o",
        ["summon", "move e6 e7", "move d5 c5", "move f5 g4"],
        "d4:o g4:o c5:o e5:O c6:o g6:o e7:o",
        {},
    ),
    (
        "ash-reaver",
        "d5:O f5:O e6:o g3:X c7:x g5:o c4:# e4:x",
        ["summon", "?choose c7|choose g3", "choose g3"],
        "c4:# e4:x d5:O e5:O f5:O g5:o e6:o c7:x",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "ash-reaver",
        "d5:O f5:O e6:o c4:# e4:x f4:X",
        ["summon", "-move e5 f4", "+move e5 e4|skip", "move e5 e4"],
        "c4:# e4:O f4:X d5:O f5:O e6:o",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "fire-oracle",
        "d4:o d5:o d6:o f5:x f6:x",
        ["summon", "?choose f5", "choose f5"],
        "d4:o d5:o e5:O f5:o d6:o f6:x",
        {"extra": [1, 0, 0], "destroyed": [1, 0, 0]},
    ),
    ("fire-oracle", "d4:o d5:o d6:o f5:X", ["summon"], "d4:o d5:o e5:O f5:X d6:o", {"extra": [1, 0, 0]}),
    (
        "inferno-titan",
        "f5:O e6:O f6:O d4:x e4:X d5:# g5:x d6:o",
        ["summon"],
        "d5:# e5:O f5:O g5:x d6:o e6:O f6:O",
        {"destroyed": [1, 1, 0]},
    ),
    (
        "ripple-sprite",
        "d4:o d6:o e8:x",
        ["summon", "-move e5 e8|move e5 i5", "+move e5 h8|skip", "move e5 h8"],
        "d4:o d6:o e8:x h8:o",
        {},
    ),
    (
        "shore-crab",
        "f4:o d5:o g6:o e4:x f6:O",
        ["summon", "-move g6 g7|move e4 e3|move e5 e6|move f6 f7|move d5 e4", "+move d5 c5|skip", "move d5 c6"],
        "e4:x f4:o e5:o c6:o f6:O g6:o",
        {},
    ),
    (
        "mist-caller",
        "e4:o e7:o d6:x",
        ["summon", "?place d4|place f4|place d5|place f5|place e6|place f6|skip", "place f5"],
        "e4:o e5:o f5:o d6:x e7:o",
        {},
    ),
    ("tide-pupil", "d6:o e6:o", ["summon"], "e5:o d6:o e6:o", {"actions": 2}),
    (
        "brine-stalker",
        "d5:o f5:o e7:o e6:x f6:X",
        ["summon", "-move e5 f6|skip", "+move e5 e6", "move e5 e6"],
        "d5:o f5:o e6:o f6:X e7:o",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "current-guide",
        "c5:o g5:o e7:x c3:x d4:X e8:x f6:o",
        ["summon", "-move d4 d3|move e8 e9|move f6 f7|move e7 e8", "+move e7 d8|move c3 c2|skip", "move e7 d7"],
        "c3:x d4:X c5:o e5:o g5:o f6:o d7:x e8:x",
        {},
    ),
    ("pearl-diver", "d6:o d7:o", ["summon"], "e5:o d6:o d7:o", {"extra": [1, 0, 0]}),
    (
        "wave-rider",
        "d6:o f6:o e7:o g2:x h3:X f3:# d4:X g3:O e2:X",
        ["summon", "-move e5 d4", "+move e5 g2|skip", "move e5 g2", "?choose f3|choose h3", "choose h3"],
        "e2:X g2:O f3:# g3:O h3:x d4:X d6:o f6:o e7:o",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "kraken-spawn",
        "d4:o f4:o d6:O e6:x f6:x e4:X g5:x",
        ["summon", "?choose e6|choose f6", "choose e6"],
        "d4:o e4:X f4:o e5:O g5:x d6:O e6:o f6:x",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "tidecaller",
        "d5:o d6:o e6:o a5:o f4:x h8:O",
        ["summon", "-move a5 f4|move a5 a4|move f4 f5|move h8 f5", "+move a5 e4|skip", "move a5 e4", "move d6 f6"],
        "e4:o f4:x d5:o e5:O e6:o f6:o h8:O",
        {},
    ),
    ("maelstrom", "d3:O f3:O e4:x f5:# d6:X f6:O", ["summon"], "d3:O f3:O e4:x e5:O f5:X d6:x f6:O", {}),
    (
        "deep-warden",
        "e6:o e7:O c3:X g4:X h5:X f4:x d4:#",
        ["summon", "?choose c3|choose g4", "choose c3"],
        "c3:O d4:# f4:x g4:X e5:O h5:X e6:o e7:O",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "surge-knight",
        "e4:O d6:o f6:o g5:X h6:x h5:x h4:X i7:x",
        ["summon", "-move e5 f5|skip", "+move e5 g5|move e5 e3", "move e5 g5", "?choose h5|choose h6", "choose h6"],
        "e4:O h4:X g5:O h5:x d6:o f6:o i7:x",
        {"destroyed": [1, 1, 0]},
    ),
    (
        "coral-shaper",
        "f5:o d6:o e6:o f4:x",
        ["summon", "?place d4|place e4|place d5|place f6|skip", "place d4", "place f6"],
        "d4:o f4:x e5:O f5:o d6:o e6:o f6:o",
        {},
    ),
    (
        "siren",
        "d5:o f5:o d6:O e7:O h5:x i5:x c3:X g7:# c7:o",
        [
            "summon",
            "-move i5 e4|move g7 d4|move c7 e6|move c3 d6",
            "+move h5 e4|move c3 d4|skip",
            "move h5 e4",
            "?choose e4",
            "choose e4",
        ],
        "c3:X e4:o d5:o e5:O f5:o i5:x d6:O c7:o e7:O g7:#",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "siren",
        "d5:o f5:o d6:O e7:O h5:x i5:x c3:X g7:# c7:o",
        ["summon", "move c3 d4"],
        "d4:X d5:o e5:O f5:o h5:x i5:x d6:O c7:o e7:O g7:#",
        {},
    ),
    ("undertow", "d4:O d6:O", ["summon"], "d4:O e5:O d6:O", {"actions": 2, "extra": [0, 0, 1]}),
    (
        "leviathan-herald",
        "d5:o f5:o c6:o g6:o e6:o d6:o d4:x e4:x f4:O",
        [
            "summon",
            "-move c6 c7|move g6 g7|move e4 e3|move f4 f3|skip",
            "+move d5 d4|move f5 f6|move e6 e7",
            "move d5 d4",
            "-move d4 d3",
            "move f5 f6",
            "move e6 e7",
            "move d6 d7",
        ],
        "d4:o e4:x f4:O e5:O c6:o f6:o g6:o d7:o e7:o",
        {"destroyed": [1, 0, 0]},
    ),
    ("storm-tide", "d4:O f4:O d6:x e6:X f6:# d5:x", ["summon"], "d4:O f4:O d5:x e5:O f6:#", {"destroyed": [1, 1, 0]}),
    ("storm-tide", "d4:O f4:O d6:o e6:X f6:x", ["summon"], "d4:O f4:O e5:O d6:o", {"destroyed": [1, 1, 0]}),
    (
        "seedling",
        "c4:o c6:o f6:o g7:o e7:x g3:O",
        ["summon", "?choose c4|choose c6|choose g7", "choose g7"],
        "g3:O c4:o e5:o c6:o f6:o e7:x g7:O",
        {},
    ),
    (
        "thorn-sprout",
        "d4:o d5:o f6:x d6:x f5:X g5:x",
        ["summon", "?choose d6|choose f6", "choose f6"],
        "d4:o d5:o e5:o f5:X g5:x d6:x",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "moss-keeper",
        "e4:o e6:o d5:x",
        ["summon", "?place d4|place f4|place f5|place d6|place f6|skip", "place f5"],
        "e4:o d5:x e5:o f5:o e6:o",
        {},
    ),
    ("moss-keeper", "e4:o e6:o", ["summon", "skip"], "e4:o e5:o e6:o", {}),
    (
        "bark-sentinel",
        "d5:o d6:o g7:X c3:X h5:X f4:x e3:# f6:O",
        ["summon", "?choose c3|choose g7", "choose g7"],
        "c3:X e3:# f4:x d5:o e5:o h5:X d6:o f6:O g7:x",
        {},
    ),
    ("pollen-wisp", "d4:o f6:o", ["summon"], "d4:o e5:o f6:o", {"extra": [0, 1, 0]}),
    (
        "root-runner",
        "e4:o e6:o f5:x",
        ["summon", "-move e5 f5", "+move e5 d5|skip", "move e5 d5", "move d5 c5"],
        "e4:o c5:o f5:x e6:o",
        {},
    ),
    (
        "burrower",
        "d5:o d6:o f6:o e9:x",
        ["summon", "-move e5 e2|move e5 e9", "+move e5 e1|move e5 c2|skip", "move e5 a5"],
        "a5:o d5:o d6:o f6:o e9:x",
        {},
    ),
    (
        "elder-oak",
        "d5:o f5:o d6:o e6:o f6:o e4:O g5:o f4:x",
        ["summon", "?choose d5|choose f5|choose d6|choose e6|choose f6|skip", "choose d5", "+skip", "choose f5"],
        "e4:O f4:x d5:O e5:O f5:O g5:o d6:o e6:o f6:o",
        {},
    ),
    (
        "vine-strangler",
        "f4:o d6:O e4:x f5:# d5:X d4:X g5:X",
        ["summon", "?choose d4|choose d5|choose e4", "choose d5", "?choose d4|choose f5", "choose f5"],
        "d4:X e4:x f4:o e5:O f5:X g5:X d6:O",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "bloom-mother",
        "e4:o d5:o f5:o e6:o c3:x e7:x",
        ["summon", "-place c3|place e7|place d6|place h5", "+place g7|place c5|place g3|skip", "place g7", "place c5"],
        "c3:x e4:o c5:o d5:o e5:O f5:o e6:o e7:x g7:o",
        {},
    ),
    (
        "grove-druid",
        "d6:O e6:o g4:o h5:o f4:x",
        ["summon", "?option 1|option 2", "option 1", "?choose e6|choose g4", "choose g4"],
        "f4:x g4:O e5:O h5:o d6:O e6:o",
        {},
    ),
    ("grove-druid", "d6:O e6:o g4:o", ["summon", "option 2"], "g4:o e5:O d6:O e6:o", {"actions": 2}),
    (
        "stag-guardian",
        "d6:o e6:O f6:o e4:X f4:#",
        ["summon", "-move e5 f4", "+move e5 e4|skip", "move e5 e4", "move e4 e3"],
        "e3:O f4:# d6:o e6:O f6:o",
        {"destroyed": [0, 1, 0]},
    ),
    ("briar-witch", "d3:O f3:O e4:X d5:# f5:x d4:X e6:O", ["summon"], "d3:O f3:O d4:X e4:x d5:X e5:O f5:x e6:O", {}),
    (
        "spore-cloud",
        "c6:o g6:o e3:x e7:x g7:x c3:X g3:o f6:x",
        ["summon", "?choose e3|choose e7|choose g7|skip", "choose e3", "+skip", "choose e7"],
        "c3:X g3:o e5:O c6:o f6:x g6:o g7:x",
        {"destroyed": [2, 0, 0]},
    ),
    ("ancient-willow", "d6:O e6:O", ["summon"], "e5:O d6:O e6:O", {"actions": 2, "extra": [1, 0, 0]}),
    (
        "thornback",
        "d6:o f6:O h8:X b5:# i5:X",
        ["summon", "-move e5 b5|move e5 i5", "+move e5 h8|skip", "move e5 h8"],
        "b5:# i5:X d6:o f6:O h8:O",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "wildkin-caller",
        "e4:o d5:O e6:o g7:o h5:o f4:x",
        [
            "summon",
            "-move h5 f5|move g7 f4|move g7 g8|move d5 f5|move f4 f5",
            "+move g7 f6|skip",
            "move g7 f6",
            "move e4 d4",
        ],
        "d4:o f4:x d5:O e5:O h5:o e6:o f6:o",
        {},
    ),
    ("heartwood", "e4:o d6:O f6:O", ["summon", "?choose e5|skip", "choose e5"], "e4:o e5:@ d6:O f6:O", {}),
    (
        "phoenix-of-ash",
        "d4:O f4:O d6:O f6:O e4:x e6:X f5:# h8:# g5:x",
        ["summon"],
        "d4:O f4:O e5:@ f5:# g5:x d6:O f6:O h8:#",
        {"destroyed": [1, 1, 0]},
    ),
    (
        "phoenix-of-ash",
        "d4:O f4:O d6:O f6:O f5:# h8:#",
        ["summon", "-move e5 e9", "+move e5 f5|move e5 h8|skip", "move e5 h8"],
        "d4:O f4:O f5:# d6:O f6:O h8:@",
        {"destroyed": [0, 0, 1]},
    ),
    (
        "tidal-colossus",
        "d6:O e6:O f6:O h3:# g2:x h2:x i3:X g4:o f2:x",
        ["summon", "+move e5 h3|skip", "move e5 h3"],
        "f2:x i3:X g4:o h3:@ d6:O e6:O f6:O",
        {"destroyed": [2, 0, 1]},
    ),
    (
        "world-tree",
        "d5:O f5:O d6:o e6:O f6:o c3:o e8:o e4:x",
        ["summon", "?choose c3|choose d6|choose f6|skip", "choose d6", "choose c3", "skip"],
        "c3:O e4:x d5:O e5:@ f5:O d6:O e6:O f6:o e8:o",
        {"extra": [1, 0, 0]},
    ),
    ("storm-dragon", "e4:o d5:O f5:O e6:# e7:x", ["summon"], "e4:o d5:O e5:@ f5:O", {"destroyed": [1, 0, 1]}),
    ("storm-dragon", "e4:o d5:O f5:O e6:o e7:X", ["summon"], "e4:o d5:O e5:@ f5:O e6:o", {"destroyed": [0, 1, 0]}),
    (
        "void-serpent",
        "f5:o d6:O g6:O e4:x c3:X g3:X d5:# h5:x",
        ["summon", "?choose c3|choose e4|choose g3|skip", "choose c3", "choose e4"],
        "c3:O g3:X e4:o d5:# e5:@ f5:o h5:x d6:O g6:O",
        {"destroyed": [1, 1, 0]},
    ),
    (
        "sun-titan",
        "d5:o f5:o d6:O e6:o f6:O",
        ["summon", "?place d4|place e4|place f4|skip", "place e4", "place f4"],
        "e4:O f4:O d5:o e5:@ f5:o d6:O e6:o f6:O",
        {},
    ),
    ("shadow-queen", "c3:X e3:x d5:O f5:O e6:O g7:# h5:X", ["summon"], "c3:x e3:x d5:O e5:@ f5:O h5:X e6:O g7:X", {}),
    (
        "iron-golem",
        "d4:O f4:O c6:O e6:X g6:O e8:x d5:#",
        ["summon", "+move e5 d5|skip", "move e5 e6", "+skip", "move e6 e7", "move e7 e8"],
        "d4:O f4:O d5:# c6:O g6:O e8:@",
        {"destroyed": [1, 1, 0], "actions": 2},
    ),
    ("star-seer", "c6:o e6:O g6:o", ["summon"], "e5:@ c6:o e6:O g6:o", {"actions": 2, "extra": [0, 1, 0]}),
    (
        "abyss-lord",
        "f5:O e6:O f6:O b5:# e9:X c3:o e2:x",
        ["summon", "?choose b5|choose e2", "choose b5"],
        "e2:x c3:o e5:@ f5:O e6:O f6:O e9:X",
        {"destroyed": [0, 0, 1]},
    ),
    (
        "wind-herald",
        "e4:O d6:O f6:O a5:o i5:o c3:o e9:x",
        ["summon", "-move a5 e9|move e4 e3|move e9 d9", "+move a5 e8|move c3 c2|skip", "move a5 e8", "move i5 e2"],
        "e2:o c3:o e4:O e5:@ d6:O f6:O e8:o e9:x",
        {},
    ),
    (
        "grand-summoner",
        "d4:o e4:O f4:o d6:o e6:O f6:o",
        ["summon", "option 1", "?place d5|place f5", "place d5", "place f5"],
        "d4:o e4:O f4:o d5:o e5:@ f5:o d6:o e6:O f6:o",
        {},
    ),
    (
        "grand-summoner",
        "d4:o e4:O f4:o d6:o e6:O f6:o",
        ["summon", "option 2"],
        "d4:O e4:O f4:O e5:@ d6:O e6:O f6:O",
        {},
    ),
    ("rally-cry", "a4:X a5:X a6:X", ["flare rally-cry", "place e5", "place e6"], "a4:X a5:X e5:O a6:X e6:o", {}),
    (
        "sudden-gust",
        "a4:X a5:X a6:X b4:X b5:X b6:X d8:x i5:x e5:o g5:o c7:o h3:O",
        [
            "flare sudden-gust",
            "-move e5 d8|move e5 b5|move h3 h4|move d8 d7",
            "+move e5 e8|skip",
            "move e5 e8",
            "+skip",
            "move g5 g2",
            "-skip|move e8 d8|move h3 h4|move d8 d7",
            "+move e8 e9",
            "move e8 e9",
        ],
        "g2:o h3:O a4:X b4:X a5:X b5:X i5:x a6:X b6:X c7:o d8:x e9:o",
        {},
    ),
    (
        "last-stand",
        "a3:X a4:X a5:X a6:X b4:x b5:x b6:x e5:o g5:o h3:O",
        ["flare last-stand", "?choose e5|choose g5", "choose e5", "place e6"],
        "h3:O a3:X a4:X b4:x a5:X b5:x e5:O g5:o a6:X b6:x e6:o",
        {},
    ),
    (
        "turncoat",
        "a4:X a5:X a6:X b5:X b4:x b6:x c5:x",
        ["flare turncoat", "?choose b4|choose b6|choose c5", "choose b4", "?choose b6|choose c5", "choose b6"],
        "a4:X b4:o a5:X b5:X c5:x a6:X b6:o",
        {"destroyed": [2, 0, 0]},
    ),
    (
        "second-wind",
        "a4:X a5:X a6:X b5:x",
        ["flare second-wind", "place e5"],
        "a4:X a5:X b5:x e5:o a6:X",
        {"actions": 3},
    ),
    (
        "counter-charge",
        "a4:X a5:X a6:X b5:X f5:x h7:x e5:o c8:o e3:O",
        [
            "flare counter-charge",
            "-move e3 e2|move f5 f6|skip",
            "+move e5 f5|move c8 c7",
            "move e5 f5",
            "-move f5 f8|move e3 e4|skip|move h7 h8",
            "+move f5 h7",
            "move f5 h7",
        ],
        "e3:O a4:X a5:X b5:X a6:X h7:o c8:o",
        {"destroyed": [2, 0, 0]},
    ),
    (
        "reinforcements",
        "a4:X a5:X a6:X b5:X b4:x",
        ["flare reinforcements", "place e5", "+skip", "place e6", "place f5", "+skip", "place f6", "place g6"],
        "a4:X b4:x a5:X b5:X e5:o f5:o a6:X e6:o f6:o g6:o",
        {},
    ),
    (
        "heroic-surge",
        "a3:X a4:X a5:X a6:X b4:x b5:x b6:x c4:x c5:x e5:o f5:o g5:o h5:O",
        ["flare heroic-surge", "?choose e5|choose f5|choose g5|skip", "choose e5", "+skip", "choose f5", "place e7"],
        "a3:X a4:X b4:x c4:x a5:X b5:x c5:x e5:O f5:O g5:o h5:O a6:X b6:x e7:o",
        {},
    ),
    (
        "ambush",
        "a4:X a5:X a6:X b4:x b5:x h8:x g7:x e5:o c8:o g2:O",
        [
            "flare ambush",
            "-move e5 a5|move g2 g3|move h8 h7|skip",
            "+move e5 h8|move c8 h8",
            "move e5 h8",
            "-move g2 g3|skip|move b5 c5",
            "move h8 g7",
        ],
        "g2:O a4:X b4:x a5:X b5:x a6:X g7:o c8:o",
        {"destroyed": [2, 0, 0]},
    ),
    (
        "regroup",
        "a3:X a4:X a5:X a6:X a7:X f4:x e5:o g5:o c7:o",
        [
            "flare regroup",
            "place e8",
            "-move e8 e7|move f4 f3|move e5 f4",
            "+move e5 e4|skip",
            "move e5 e4",
            "+skip",
            "move g5 g4",
        ],
        "a3:X a4:X e4:o f4:x g4:o a5:X a6:X a7:X c7:o e8:O",
        {},
    ),
    (
        "desperate-pact",
        "a3:X a4:X a5:X a6:X b4:x b5:x",
        ["flare desperate-pact", "place e5"],
        "a3:X a4:X b4:x a5:X b5:x e5:o a6:X",
        {"actions": 4},
    ),
    # -- the Gale school: the card language's later constructs (docs/games/tashkalar-cards.md) --
    (
        "gust-sprite",
        "c5:o e8:x f5:X d4:o",
        ["summon", "?move e5 d5|move e5 e4|move e5 e6|skip", "move e5 e6", "?move e6 e7|skip", "move e6 e7"],
        "c5:o d4:o f5:X e7:o e8:x",
        {},
    ),
    (
        "hawk-eye",
        "f4:o f6:o e7:x e8:x c5:x g5:X e3:o e2:x b2:x",
        ["summon", "?choose c5|choose e7", "choose e7"],
        "f4:o f6:o e5:o e8:x c5:x g5:X e3:o e2:x b2:x",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "drift-seed",
        "f5:o e7:o d5:x g5:x c5:x",
        ["summon", "-move e5 d5|move e5 c5|move e5 e8", "+move e5 g6|move e5 c3|skip", "move e5 c3"],
        "f5:o e7:o d5:x g5:x c5:x c3:o",
        {},
    ),
    (
        "kite-runner",
        "d4:o c6:o h8:o g3:x i5:x",
        ["summon", "-move h8 h4|move h8 g2|move e5 f6", "+move h8 f6|move h8 d5|move d4 c5|skip", "move h8 f6"],
        "d4:o c6:o f6:o e5:o g3:x i5:x",
        {},
    ),
    (
        "eddy-warden",
        "f3:o d5:o g4:X e7:X c7:X g7:# h4:X d6:X",
        ["summon", "?choose d6|choose g4", "choose g4"],
        "f3:o d5:o e5:o g4:x e7:X c7:X g7:# h4:X d6:X",
        {},
    ),
    (
        "zephyr-adept",
        "d5:o e7:o f6:o c5:x e6:X",
        ["summon", "?choose d5|choose f6", "choose d5", "-move d5 e6|move f6 f7", "+move d5 c5|skip", "move d5 c5"],
        "c5:O e5:o e7:o f6:o e6:X",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "vane-keeper",
        "d6:o f6:o d7:x f7:X c5:o",
        ["summon", "-move c5 c6|move e5 e6", "+move d6 d7|move f6 g6|skip", "move d6 d7", "-move f6 f7", "move f6 g7"],
        "d7:o g7:o f7:X c5:o e5:o",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "squall-lancer",
        "e6:O d7:o f7:o e2:x h5:X c3:#",
        ["summon", "-move e5 c3", "+move e5 f5|move e5 e4|move e5 d4|move e5 e6|skip", "move e5 f5"],
        "e6:O d7:o f7:o e2:x h5:O c3:#",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "crosswind",
        "d6:O d4:o f6:o g3:X h2:x b2:x h4:X",
        ["summon", "?move e5 d4|move e5 d6|move e5 f6|move e5 g3|skip", "move e5 g3", "?choose d6|skip", "skip"],
        "d6:O d4:o f6:o g3:O h2:x b2:x h4:X",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "storm-hunter",
        "d7:O f7:O b5:X h3:X c3:x g6:# e8:O",
        ["summon", "?move e5 b5|move e5 h3|skip", "move e5 h3"],
        "d7:O f7:O b5:X h3:O c3:x g6:# e8:O",
        {"destroyed": [0, 1, 0]},
    ),
    (
        "homing-wind",
        "f5:O d4:o d6:o h8:o e6:x b2:x",
        ["summon", "move e5 e6", "?move d4 e5|move d6 e5|move h8 e5|skip", "move h8 e5"],
        "f5:O d4:o d6:o e5:o e6:O b2:x",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "thunder-caller",
        "d5:O e7:O f5:x e6:X f4:x h5:x",
        ["summon", "?choose f4|choose f5", "choose f5"],
        "d5:O e7:O e5:O e6:X f4:x h5:x",
        {"destroyed": [1, 0, 0], "actions": 2},
    ),
    (
        "thunder-caller",
        "d5:O e7:O f5:x e6:X h5:x",
        ["summon", "?choose f5", "choose f5"],
        "d5:O e7:O e5:O e6:X h5:x",
        {"destroyed": [1, 0, 0]},
    ),
    (
        "gale-reaper",
        "e7:O d7:o f7:o f4:X d5:#",
        ["summon", "-move e5 d5|skip", "+move e5 f4|move e5 e4", "move e5 f4"],
        "e7:O d7:o f7:o f4:O d5:#",
        {"destroyed": [0, 1, 0], "extra": [1, 0, 0]},
    ),
    (
        "gale-reaper",
        "e7:O d7:o f7:o f4:X d5:#",
        ["summon", "move e5 e4"],
        "e7:O d7:o f7:o f4:X d5:# e4:O",
        {},
    ),
    (
        "whirl-dancer",
        "d6:O f6:O d5:o f5:x g4:X h3:x",
        ["summon", "move e5 f5", "+move f5 g4|skip", "move f5 g4", "+move g4 h3|skip", "move g4 h3"],
        "d6:O f6:O d5:o h3:O",
        {"destroyed": [2, 1, 0]},
    ),
    (
        "cyclone",
        "e6:O d5:o f5:o f4:x g3:x h2:X d4:x c3:x a5:x e3:x",
        ["summon"],
        "e6:O d5:o f5:o e5:O h2:X a5:x",
        {},
    ),
    (
        "tempest-herald",
        "d4:O f4:O e4:o d6:x f6:X",
        ["summon", "?choose d6", "choose d6", "?place d6", "place d6"],
        "d4:O f4:O e4:o e5:O d6:o f6:X",
        {"destroyed": [1, 0, 0]},
    ),
]

# cards whose exact scenario is a test of its own below
ELSEWHERE = {"shield-wall", "windcatcher", "eye-of-the-storm"}


def _key(word: str) -> int:
    return NAME_SQ[word.split(":")[0]]


def _check_legal(st: TashKalarState, text: str) -> None:
    legal_now = set(legal(st))
    want = set(text[1:].split("|"))
    if text[0] == "?":
        assert legal_now == want, sorted(legal_now)
    elif text[0] == "+":
        assert want <= legal_now, sorted(want - legal_now)
    else:
        assert not want & legal_now, sorted(want & legal_now)


def _run(card_id: str, before: str, actions: list[str], after: str, more: dict[str, Any]) -> None:
    card = GAME.cards.by_id[card_id]
    st = position(
        GAME,
        before,
        hand=(card_id,) if card.kind == "being" else (),
        legends=(card_id,) if card.kind == "legend" else (),
        flares=(card_id,) if card.kind == "flare" else (),
    )
    if card.kind == "flare":
        assert flare_halves(st, 0, card) == (True, True)  # both halves resolve, the upper one first
    for a in actions:
        if a == "summon":
            st.apply_text(f"summon {card_id} at e5 r0")
        elif a[0] in "?+-":
            _check_legal(st, a)
        else:
            st.apply_text(a)
    assert board(st) == " ".join(sorted(after.split(), key=_key))
    pile = {"being": st.disc_s[0], "legend": st.disc_l, "flare": st.disc_f}[card.kind]
    assert st.resolving == -1 and card.index in pile and st.player == 0 and st.phase == Phase.MAIN
    assert st.actions == more.get("actions", 2 if card.kind == "flare" else 1)
    assert st.extra == more.get("extra", [0, 0, 0])
    assert st.destroyed == more.get("destroyed", [0, 0, 0])
    assert st.score == more.get("score", {"being": [0, 0], "legend": [1, 0], "flare": [0, 1]}[card.kind])


@pytest.mark.parametrize("card_id, before, actions, after, more", ROWS, ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS)])
def test_shipped_card(card_id: str, before: str, actions: list[str], after: str, more: dict[str, Any]) -> None:
    _run(card_id, before, actions, after, more)


def test_every_shipped_card_has_an_exact_scenario() -> None:
    covered = {r[0] for r in ROWS} | ELSEWHERE
    assert covered == {c.id for c in GAME.cards.cards}


def test_shield_wall_both_halves() -> None:
    """Shield Wall: upper places and upgrades a common; lower places a common and another next to it."""
    st = position(GAME, "a5:X b5:X c5:X", flares=("shield-wall",))
    play(st, "flare shield-wall", "place e5")
    assert legal(st) == ["choose e5"]
    play(st, "choose e5", "place e7")
    assert sorted(legal(st)) == sorted(
        ["place d6", "place e6", "place f6", "place d7", "place f7", "place d8", "place e8", "place f8"]
    )
    play(st, "place e8")
    assert board(st) == "a5:X b5:X c5:X e5:O e7:o e8:o"
    assert st.score == [0, 1]


def test_ash_reaver_moves_only_if_it_destroyed_nothing() -> None:
    st = position(GAME, "e6:o d5:O f5:O g3:x", hand=("ash-reaver",))
    play(st, "summon ash-reaver at e5 r0", "choose g3")
    assert st.resolving == -1
    st = position(GAME, "e6:o d5:O f5:O", hand=("ash-reaver",))
    play(st, "summon ash-reaver at e5 r0")
    assert legal(st)[-1] == "skip" and all(a.startswith(("move e5", "skip")) for a in legal(st))


def test_windcatcher_takes_a_being_back_from_the_discard_pile() -> None:
    """Windcatcher (recover): a being of your school's discard pile goes back to your hand."""
    idx = GAME.cards.by_id
    st = position(GAME, "f5:o d6:o", hand=("windcatcher",))
    set_item(st, "disc_s", 0, [idx["cinder-imp"].index, idx["hawk-eye"].index])
    play(st, "summon windcatcher at e5 r0")
    assert legal(st) == ["take cinder-imp", "take hawk-eye", "skip"]
    play(st, "take hawk-eye")
    assert [GAME.cards.cards[c].id for c in st.hand_b[0]] == ["hawk-eye"]
    assert [GAME.cards.cards[c].id for c in st.disc_s[0]] == ["cinder-imp", "windcatcher"]
    assert board(st) == "e5:o f5:o d6:o" and st.phase == Phase.MAIN and st.actions == 1


def test_eye_of_the_storm_takes_an_extra_turn() -> None:
    """Eye of the Storm (extra_turn): the turn ends, then the same player takes another turn of 2 actions."""
    st = position(GAME, "e4:O f4:O d6:O e6:O", hand=("eye-of-the-storm",), actions=1)
    play(st, "summon eye-of-the-storm at e5 r0")
    assert st.player == 0 and st.turn_no == 6 and st.actions == 2 and st.in_extra
    assert board(st) == "e4:O f4:O e5:O d6:O e6:O"
    play(st, "end")
    assert st.player == 1 and st.turn_no == 7
