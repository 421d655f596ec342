"""cardarena's build: compiled with mypyc where a C compiler is present, pure Python otherwise (docs/speed.md).

The modules below (the kernel's hot paths, every game's rules, states, views and encodings, the search agents) are
compiled into C extensions that sit beside their sources. Both builds run the same source; the compiled one is
about twice as fast. ``CARDARENA_PURE_BUILD=1`` (or no C compiler on PATH) builds the pure wheel; ``make compiled``
builds the extensions in place for a checkout (``CARDARENA_PURE=1`` then runs the pure code anyway).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import sys
import sysconfig

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: What mypyc compiles, as globs relative to this file. A module left out runs interpreted; compiled and
#: interpreted modules call each other freely (an interpreted class may not derive from a compiled one unless the
#: compiled class allows it: see ``State``).
COMPILED = [
    "src/cardarena/engine/rng.py",
    "src/cardarena/engine/state.py",
    "src/cardarena/engine/zones.py",
    "src/cardarena/engine/encoding.py",
    "src/cardarena/agents/base.py",
    "src/cardarena/agents/search.py",
    "src/cardarena/agents/ismcts.py",
    "src/cardarena/agents/mcts.py",
    "src/cardarena/agents/flatmc.py",
    "src/cardarena/agents/heuristic.py",
    "src/cardarena/agents/random_agent.py",
    "src/cardarena/games/*/rules/*.py",
    "src/cardarena/games/*/state.py",
    "src/cardarena/games/*/views.py",
    "src/cardarena/games/*/encoding.py",
    "src/cardarena/games/torabato/constants.py",  # its Final aliases (MAIN, PASS_K...) become C statics
    # the card data the rules read on every firing (the card list's pydantic models stay interpreted: table.py)
    "src/cardarena/games/laplaplace/cards/abilities.py",
    "src/cardarena/games/laplaplace/cards/card.py",
    "src/cardarena/games/dicebattle/constants.py",  # its Final aliases (DICE, A_SET...) become C statics
    # the card tables the rules read in their hot loops (the card data's pydantic models stay interpreted: cards.py)
    "src/cardarena/games/dicebattle/tables.py",
    "src/cardarena/games/tashkalar/actions.py",  # built for every legal list (its tuple classes stay Python)
    "src/cardarena/games/tashkalar/board.py",  # bits() and the square tables, read by every rule
    # the card data (Step, Card, Orientation) the rules read on every move (its pydantic models stay interpreted:
    # cards/model.py)
    "src/cardarena/games/tashkalar/cards/data.py",
    "src/cardarena/games/tashkalar/strategy.py",  # evaluate(): every ISMCTS rollout cut at its depth calls it
]
#: Modules the globs above catch that stay interpreted, each with the reason. Every package ``__init__.py`` stays
#: interpreted as well: a compiled package ``__init__`` that imports its compiled submodules recurses at import in
#: mypyc's separate mode (its dependencies import the package again), so a package's ``__init__`` only re-exports
#: (``games/torabato/rules/__init__.py`` re-exports ``rules/dispatch.py``).
INTERPRETED: dict[str, str] = {}


def compiled_sources(root: str = ".") -> list[str]:
    """The source files mypyc compiles, sorted (``root``: this file's folder). ``CARDARENA_COMPILE_GAMES=a,b``
    compiles only those games (and everything that is not a game): a quicker build while working on one game."""
    found = {p for pattern in COMPILED for p in glob.glob(os.path.join(root, pattern))}
    only = os.environ.get("CARDARENA_COMPILE_GAMES")
    if only is not None:
        games = {g.strip() for g in only.split(",") if g.strip()}
        found = {p for p in found if "/games/" not in p or p.split("/games/")[1].split("/")[0] in games}
    return sorted(
        p for p in found if os.path.relpath(p, root) not in INTERPRETED and os.path.basename(p) != "__init__.py"
    )


def compiler_present() -> bool:
    """Whether a C compiler is on PATH (the one Python was built with, else ``cc``)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None or shutil.which("cc") is not None


MANIFEST = "_compiled.json"


class BuildExtensions(build_ext):
    """``build_ext`` that also writes ``cardarena/_compiled.json``: each compiled module's source hash. At import,
    ``cardarena._build`` runs the compiled build only while every compiled source still has that hash, so an edit
    made after the build runs as pure Python (with a warning) instead of hiding behind an old extension."""

    def run(self) -> None:
        if self.inplace:
            self._remove_leftovers()
        super().run()
        if not self.extensions:
            return
        hashes = {}
        for path in compiled_sources():
            with open(path, "rb") as fh:
                hashes[os.path.relpath(path, "src/cardarena")] = hashlib.sha256(fh.read()).hexdigest()
        folder = "src/cardarena" if self.inplace else os.path.join(self.build_lib, "cardarena")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, MANIFEST), "w", encoding="utf-8") as fh:
            json.dump(hashes, fh, indent=0, sort_keys=True)

    def _remove_leftovers(self) -> None:
        """Delete the extensions in the source tree of modules this build does not compile (a module since left
        interpreted, a package ``__init__``): Python would import such an old extension before the source beside
        it."""
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        keep = {os.path.normpath(p)[: -len(".py")] for p in compiled_sources()}
        for path in glob.glob(os.path.join("src", "cardarena", "**", "*" + suffix), recursive=True):
            stem = os.path.normpath(path)[: -len(suffix)]
            if stem.endswith("__mypyc"):
                stem = stem[: -len("__mypyc")]
            if stem not in keep:
                print(f"cardarena: removing {path} (not compiled any more)", file=sys.stderr)
                os.remove(path)


def ext_modules() -> list:  # type: ignore[type-arg]
    if os.environ.get("CARDARENA_PURE_BUILD") == "1":
        print("cardarena: CARDARENA_PURE_BUILD=1: building pure Python", file=sys.stderr)
        return []
    if not compiler_present():
        print("cardarena: no C compiler on PATH: building pure Python (docs/speed.md)", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    return mypycify(compiled_sources(), opt_level=os.environ.get("CARDARENA_OPT_LEVEL", "3"), separate=True)


if __name__ == "__main__" and sys.argv[1:] == ["--list"]:
    print("\n".join(compiled_sources()))
elif __name__ == "__main__" and sys.argv[1:] == ["--can-compile"]:  # `make compiled` asks first
    raise SystemExit(0 if compiler_present() and os.environ.get("CARDARENA_PURE_BUILD") != "1" else 1)
else:
    setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExtensions})
