"""Which build of cardarena runs: compiled (mypyc C extensions beside the sources) or pure Python (docs/speed.md).

Both run the same source. The compiled build is used where it was built (``make compiled``, or a wheel built with a
C compiler); ``CARDARENA_PURE=1`` runs the pure code anyway, and so does a checkout where a compiled module's source
changed after the build (with a warning: run ``make compiled``), so an edit never hides behind an old extension. The
choice is made once, when ``cardarena`` is first imported, for every module at once: a compiled module calls the
others' compiled code directly, so the two are never mixed.

This module is never compiled.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent


def _extensions() -> list[Path]:
    """The compiled modules beside their sources (those with a ``.py`` of the same name)."""
    suffix = EXTENSION_SUFFIXES[0]
    return [p for p in PACKAGE.rglob("*" + suffix) if p.with_name(p.name[: -len(suffix)] + ".py").exists()]


def _stale(extensions: list[Path], manifest: Path) -> Path | None:
    """A compiled module's source that changed after the build, if any.

    The build writes ``_compiled.json`` (each compiled source's SHA-256, setup.py); without it (a build made by
    other means), a source newer than its extension counts as changed. A module compiled on its own has a small
    extension that loads its code from a second one, ``NAME__mypyc``, which a rebuild may replace alone.
    """
    if manifest.exists():
        hashes: dict[str, str] = json.loads(manifest.read_text(encoding="utf-8"))
        for name, digest in sorted(hashes.items()):
            source = manifest.parent / name
            if not source.exists() or hashlib.sha256(source.read_bytes()).hexdigest() != digest:
                return source
        return None
    suffix = EXTENSION_SUFFIXES[0]
    for ext in extensions:
        stem = ext.name[: -len(suffix)]
        source = ext.with_name(stem + ".py")
        code = ext.with_name(stem + "__mypyc" + suffix)
        built = max(ext.stat().st_mtime, code.stat().st_mtime if code.exists() else 0.0)
        if source.stat().st_mtime > built:
            return source
    return None


class _SourceOnly:
    """A meta path finder that imports ``cardarena``'s modules from their ``.py`` sources, never from extensions."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith("cardarena.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name, target)
            if spec is not None:
                return spec
        return None


def _choose() -> tuple[bool, str]:
    extensions = _extensions()
    if not extensions:
        return False, "pure Python (not compiled)"
    if os.environ.get("CARDARENA_PURE") == "1":
        sys.meta_path.insert(0, _SourceOnly())
        return False, "pure Python (CARDARENA_PURE=1; a compiled build is present)"
    stale = _stale(extensions, PACKAGE / "_compiled.json")
    if stale is not None:
        sys.meta_path.insert(0, _SourceOnly())
        where = stale.relative_to(PACKAGE.parent)
        warnings.warn(
            f"cardarena: {where} changed after the compiled build: running pure Python (run `make compiled`)",
            stacklevel=3,
        )
        return False, f"pure Python (the compiled build is older than {where})"
    return True, f"compiled with mypyc ({len(extensions)} modules)"


#: Whether the compiled modules run, and the build in words (``cardarena --version``, ``cardarena bench``).
COMPILED, BUILD = _choose()
