"""A command that needs a package of an extra `make run` does not install says which extra to install, in one line,
instead of a traceback (issue 27, point 11: `make run` installs only the `web` extra)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

# An interpreter in which the arena and rl extras' packages are missing, running the console script's main(). numpy
# is not blocked: cardarena itself depends on it (the expert's value networks, issue 31).
SCRIPT = textwrap.dedent(
    """
    import importlib.abc, sys

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {"scipy", "statsmodels", "matplotlib", "gymnasium", "pettingzoo"}:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Block())
    from cardarena.cli.main import main
    sys.argv = ["cardarena", *sys.argv[1:]]
    main()
    """
)


def test_a_command_whose_extra_is_missing_says_which_extra_to_install(tmp_path: Path) -> None:
    argv = ["report", "torabato", "-n", "2", "--out", str(tmp_path / "report")]
    done = subprocess.run([sys.executable, "-c", SCRIPT, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("error: this command needs ")
    assert "pip install -e '.[arena]'" in done.stderr and "make test" in done.stderr


def test_the_rl_commands_say_so_too() -> None:
    argv = ["bench", "torabato", "--rl", "--seconds", "0.1"]
    done = subprocess.run([sys.executable, "-c", SCRIPT, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "pip install -e '.[rl]'" in done.stderr


def test_the_simulations_need_no_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "simulate", "torabato", "-n", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
