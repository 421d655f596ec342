"""`make run` installs only the ``web`` extra (issue 27, point 11): serving the lobby and playing every game against
every strength of AI must not import any package of the other extras (scipy, Ray, JAX, OpenSpiel,
Playwright...), or a fresh ``make run`` would fail at the first game.

The check runs a real server (uvicorn, the app of ``cardarena serve``) in a fresh interpreter in which importing
any of those packages raises ``ImportError``, creates a game of every game id through the REST lobby with an AI in
each seat, and waits for the AIs to play it to the end. (The install itself is ``make run``'s: a fresh venv with
``pip install -e '.[web]'`` serves and plays, 102 MB.)
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

# Import names of the packages that only the other extras (dev, arena, rl, train, openspiel) install. numpy is not
# one of them: it is a dependency of cardarena itself since the expert's value networks (issue 31).
NOT_IN_WEB = (
    "scipy",
    "statsmodels",
    "matplotlib",
    "jinja2",
    "ray",
    "optuna",
    "jax",
    "optax",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "open_spiel",
    "playwright",
    "hypothesis",
    "threadpoolctl",
    "tomli_w",
    "httpx",
    "pytest",
)

SCRIPT = textwrap.dedent(
    """
    import importlib.abc, json, socket, sys, threading, time, urllib.request

    BLOCKED = set(sys.argv[1].split(","))

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ImportError(f"{name} is not in the web extra")
            return None

    sys.meta_path.insert(0, Block())

    import uvicorn
    import cardarena.cli.main  # the command `make run` starts
    from cardarena.engine import games
    from cardarena.web.app import create_app
    from cardarena.web.capacity import Capacity
    from cardarena.web.store import MemoryStore

    # ten games of AI seats from one address: the cap on them is lifted
    app = create_app(MemoryStore(), ai_workers=1, capacity=Capacity(open_per_address=0))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)

    def call(path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read()

    assert call("/")[0] == 200
    strengths = ["easy", "normal"]
    keys = []
    for game in games():
        for strength in strengths:
            seats = [{"kind": "ai", "strength": "easy"}, {"kind": "ai", "strength": strength}]
            status, body = call("/api/games", {"game": game, "seats": seats})
            assert status == 201, body
            keys.append(json.loads(body)["key"])
    deadline = time.monotonic() + 240
    for key in keys:
        while json.loads(call(f"/api/games/{key}")[1])["status"] != "finished":
            assert time.monotonic() < deadline, f"game {key} did not finish"
            time.sleep(0.2)
    # `hard` is a longer search of the same agents: build each game's hard agent (its modules are imported).
    from cardarena.agents import make_agent
    from cardarena.agents.levels import LEVELS, level_spec
    for game in games():
        for label in LEVELS:
            make_agent(level_spec(label, game), 0)
    server.should_exit = True
    print("served", len(keys), "games")
    """
)


def test_the_server_serves_and_plays_every_game_with_only_the_web_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, ",".join(NOT_IN_WEB)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "served 10 games" in done.stdout
