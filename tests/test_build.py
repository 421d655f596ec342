"""The package installs and works without a C compiler: ``pip install .`` then builds pure Python (docs/speed.md).

A user without gcc (or on a platform mypyc does not support) still gets every game: setup.py compiles only where a
compiler is present. The test builds the wheel from a copy of the sources with no compiler on PATH, installs it
apart from the checkout, and plays a game with it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _copy_sources(dest: Path) -> Path:
    """The files a fresh clone has that the build reads (no extensions, caches or build folders)."""
    src = dest / "cardarena-src"
    src.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "src", src / "src", ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.egg-info", "*.pyc")
    )
    return src


def _no_compiler_path(dest: Path) -> str:
    """A PATH that has this Python and git, and no C compiler."""
    bin_dir = dest / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    return str(bin_dir)


def test_pip_without_a_c_compiler_builds_a_pure_wheel_that_plays(tmp_path: Path) -> None:
    src = _copy_sources(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("CARDARENA_PURE", "CARDARENA_PURE_BUILD", "CC")}
    env["PATH"] = _no_compiler_path(tmp_path)
    assert shutil.which("gcc", path=env["PATH"]) is None and shutil.which("cc", path=env["PATH"]) is None
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(src)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = wheels.glob("cardarena-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name  # pure: one wheel for every platform
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    for data in ("cardarena/games/torabato/data/cards.toml", "cardarena/games/lyabi/rules.md"):
        assert data in names, data  # the games' data files travel with the code

    site = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    play = (
        "import cardarena\n"
        "from cardarena.engine import Rng\n"
        f"assert cardarena.__file__.startswith({str(site)!r}), cardarena.__file__\n"
        "print(cardarena.BUILD)\n"
        "for game_id in cardarena.games():\n"
        "    state = cardarena.load(game_id).new_initial_state(3)\n"
        "    rng = Rng(1)\n"
        "    while not state.is_terminal():\n"
        "        actions = state.playout_actions()\n"
        "        state.apply(actions[rng.randbelow(len(actions))])\n"
        "    print(game_id, state.returns())\n"
    )
    env["PYTHONPATH"] = str(site)  # before the checkout's editable install on sys.path
    run = subprocess.run([sys.executable, "-c", play], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines[0] == "pure Python (not compiled)"
    assert {line.split()[0] for line in lines[1:]} == {"dicebattle", "laplaplace", "lyabi", "tashkalar", "torabato"}


def test_a_compiled_source_edited_after_the_build_makes_it_stale(tmp_path: Path) -> None:
    """An edit after `make compiled` must not hide behind the old extension: the build counts as stale, by the
    sources' hashes the build recorded, else (a build without that record) by the files' times."""
    from importlib.machinery import EXTENSION_SUFFIXES

    from cardarena import _build

    (tmp_path / "rules").mkdir()
    source = tmp_path / "rules" / "combat.py"
    ext = tmp_path / "rules" / ("combat" + EXTENSION_SUFFIXES[0])
    manifest = tmp_path / "_compiled.json"
    source.write_text("x = 1\n")
    ext.write_bytes(b"")
    manifest.write_text(json.dumps({"rules/combat.py": hashlib.sha256(b"x = 1\n").hexdigest()}))
    os.utime(source, (3_000, 3_000))  # touched later, the same text: not stale
    os.utime(ext, (2_000, 2_000))
    assert _build._stale([ext], manifest) is None
    source.write_text("x = 2\n")
    assert _build._stale([ext], manifest) == source
    manifest.unlink()  # no record: by the times
    os.utime(source, (1_000, 1_000))
    assert _build._stale([ext], manifest) is None
    os.utime(source, (3_000, 3_000))
    assert _build._stale([ext], manifest) == source


def test_cardarena_pure_runs_the_sources_even_where_a_compiled_build_is_present() -> None:
    code = "import cardarena, cardarena.engine.state as s; print(cardarena.COMPILED, s.__file__.endswith('.py'))"
    env = {**os.environ, "CARDARENA_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]
