"""The load and fault script (issue 15, point 8): ``python -m cardarena.web.load`` (``make load``).

It starts ``cardarena serve`` in a subprocess on a free loopback port with the given database, plays ``--games``
concurrent games whose every seat is a scripted WebSocket client choosing random legal actions, and reports the
actions per second and the latency percentiles from sending an ``act`` to its ``ack``. Bounded: loopback only,
every game ends (a game's ``max_turns``), and the whole run stops by itself after ``--seconds``.

``--kill-after N`` is the fault test: once N actions are acknowledged, the server is killed with SIGKILL and
restarted on the same database and port; the clients reconnect by themselves (with ``since``) and play on. At the
end every game must be finished, and every action a client saw acknowledged must be in the game's record, in order.
``--ai-games N`` adds N games of two ``hard`` AI seats, which keep the AI worker pool busy meanwhile (the humans'
latency is then measured while AIs think).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import load

HOST = "127.0.0.1"
PACE = 1 / 15  # a scripted client sends at most 15 messages a second (the server allows 20)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``cardarena serve`` in a subprocess on loopback."""

    def __init__(self, db: str, port: int, *, ai_workers: int, log: Path, options: tuple[str, ...] = ()) -> None:
        self.db, self.port, self.ai_workers, self.log = db, port, ai_workers, log
        self.options = options  # more options of ``cardarena serve``
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> None:
        command = [sys.executable, "-m", "cardarena.cli.main", "serve", "--host", HOST, "--port", str(self.port)]
        command += ["--db", self.db, "--ai-workers", str(self.ai_workers), *self.options]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}; see {self.log}")
            try:
                with urllib.request.urlopen(f"http://{HOST}:{self.port}/api/catalogue", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"the server did not answer within {timeout:g} s; see {self.log}")

    def kill(self) -> None:
        """SIGKILL to the server's whole process group (its AI workers too)."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acked: dict[tuple[str, int], list[str]] = field(default_factory=dict)  # (game, seat) -> action texts acked
    finished: set[str] = field(default_factory=set)
    seated: set[str] = field(default_factory=set)  # games created with every seat joined
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0


def _request(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    for attempt in range(50):
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as e:
            if e.code != 429:
                raise
            time.sleep(0.1 * (attempt + 1))  # rate limited: the lobby allows bursts, then 20 requests a second
    raise RuntimeError(f"{method} {path}: rate limited 50 times")


async def _seat(
    url: str, key: str, seat: int, token: str, stats: Stats, rng: random.Random, deadline: float, think: float
) -> None:
    """One scripted player: random legal actions, reconnecting (with ``since``) whenever the connection drops."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import WebSocketException

    since, backoff = 0, 0.25
    acked = stats.acked.setdefault((key, seat), [])
    while time.monotonic() < deadline:
        try:
            async with connect(f"{url}/ws/{key}", open_timeout=10, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
                latest: dict[str, Any] | None = None
                pending: tuple[str, float] | None = None
                last_sent = 0.0
                while time.monotonic() < deadline:
                    message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic())))
                    kind = message["type"]
                    if kind == "state":
                        since += len(message["log"])
                        latest = message
                        backoff = 0.25
                        if message["terminal"]:
                            stats.finished.add(key)
                            return
                    elif kind == "ack" and pending is not None:
                        stats.latencies.append(time.perf_counter() - pending[1])
                        acked.append(pending[0])
                        pending = None
                    elif kind == "error":
                        stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
                        pending = None
                    if pending is None and latest is not None and latest["legal"]:
                        choices = [a["text"] for a in latest["legal"] if a["text"] != "resign"] or ["resign"]
                        wait = last_sent + think - time.monotonic()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        text = rng.choice(choices)
                        pending = (text, time.perf_counter())
                        last_sent = time.monotonic()
                        await ws.send(json.dumps({"type": "act", "ply": latest["ply"], "action": text}))
                        latest = None  # act on the state that answers this action, not on this one again
        except (OSError, WebSocketException, TimeoutError):
            if time.monotonic() >= deadline:  # the run's end, not a dropped connection
                break
            stats.reconnects += 1
            await asyncio.sleep(backoff)
            backoff = min(backoff * 2, 2.0)


async def _game(base: str, url: str, game: str, stats: Stats, seed: int, deadline: float, think: float) -> str:
    players = load(game).num_players
    created = await asyncio.to_thread(
        _request, base, "POST", "/api/games", {"game": game, "seats": [{"kind": "human"}] * players}
    )
    key: str = created["key"]
    invitations = [i["url"].split("#", 1)[1] for i in created["invitations"]]
    secrets = []  # joining gives each seat its secret, which replaces the invitation
    for seat, invitation in enumerate(invitations):
        joined = await asyncio.to_thread(
            _request, base, "POST", f"/api/games/{key}/join", {"token": invitation, "name": f"bot{seat}"}
        )
        secrets.append(joined["secret"])
    stats.seated.add(key)
    rng = random.Random(seed)
    await asyncio.gather(*(_seat(url, key, s, t, stats, rng, deadline, think) for s, t in enumerate(secrets)))
    return key


def _check_records(base: str, keys: list[str], stats: Stats) -> list[str]:
    """Every game finished, and each seat's acknowledged actions are in its record, in order."""
    problems = []
    for key in keys:
        try:
            record = _request(base, "GET", f"/api/games/{key}/record")
        except urllib.error.HTTPError as e:
            problems.append(f"game {key}: no record ({e.code}): not finished")
            continue
        state = load(record["game"], **record["options"]).new_initial_state(record["seed"])
        played: dict[int, list[str]] = {}
        for text in record["actions"]:
            actor = state.current_player
            assert actor is not None
            played.setdefault(actor, []).append(text)
            state.apply_text(text)
        for (game_key, seat), acked in stats.acked.items():
            if game_key == key:
                stored = iter(played.get(seat, []))
                if not all(text in stored for text in acked):  # a subsequence, in order
                    problems.append(f"game {key} seat {seat}: an acknowledged action is missing from the record")
    return problems


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


async def run(
    *,
    games: int,
    game: str = "torabato",
    db: str | None = None,
    seconds: float = 900.0,
    kill_after: int | None = None,
    ai_games: int = 0,
    ai_workers: int = 2,
    seed: int = 1,
    think: float = PACE,
) -> dict[str, Any]:
    """Run the load (and, with ``kill_after``, the fault test); the report as a dict."""
    with tempfile.TemporaryDirectory(prefix="cardarena-load-") as tmp:
        db = db or f"sqlite:///{tmp}/load.db"
        # every scripted game comes from this one address: the cap on its open games is lifted
        uncapped = ("--open-games-per-address", "0")
        server = Server(db, free_port(), ai_workers=ai_workers, log=Path(tmp) / "server.log", options=uncapped)
        base = f"http://{HOST}:{server.port}"
        url = f"ws://{HOST}:{server.port}"
        await asyncio.to_thread(server.start)
        stats, killed = Stats(), False
        try:
            for _ in range(ai_games):
                body = {"game": game, "seats": [{"kind": "ai", "strength": "hard"}] * load(game).num_players}
                await asyncio.to_thread(_request, base, "POST", "/api/games", body)
            deadline = time.monotonic() + seconds
            started = time.perf_counter()
            tasks = [
                asyncio.create_task(_game(base, url, game, stats, seed + i, deadline, think)) for i in range(games)
            ]
            if kill_after is not None:
                # mid-play: once every game is seated (a create or join cut by the kill is no fault of the server's:
                # its client saw no answer) and the games have made kill_after acknowledged actions
                while (len(stats.latencies) < kill_after or len(stats.seated) < games) and not all(
                    t.done() for t in tasks
                ):
                    await asyncio.sleep(0.05)
                if not all(t.done() for t in tasks):
                    server.kill()
                    killed = True
                    await asyncio.to_thread(server.start)
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
            keys = [k for k in outcomes if isinstance(k, str)]
            elapsed = time.perf_counter() - started
            problems = _check_records(base, keys, stats) if kill_after is not None else []
            for failed in (o for o in outcomes if isinstance(o, BaseException)):
                problems.append(f"a game's players stopped: {type(failed).__name__}: {failed}")
            log_tail = (Path(tmp) / "server.log").read_text(errors="replace")[-2000:] if problems else ""
        finally:
            server.stop()
    actions = len(stats.latencies)
    return {
        "games": games,
        "game": game,
        "think_s": think,
        "finished": len(stats.finished),
        "actions": actions,
        "seconds": round(elapsed, 2),
        "actions_per_s": round(actions / elapsed, 1) if elapsed else 0.0,
        "latency_ms": {
            q: round(_percentile(stats.latencies, p), 2) for q, p in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))
        },
        "ai_games": ai_games,
        "killed": killed,
        "reconnects": stats.reconnects,
        "errors": stats.errors,
        "problems": problems,
        "server_log_tail": log_tail,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m cardarena.web.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--game", default="torabato", help="game id (default torabato)")
    parser.add_argument("--db", default=None, help="database URL (default: a SQLite file in a temporary directory)")
    parser.add_argument("--seconds", type=float, default=900.0, help="stop after this long (default 900)")
    parser.add_argument("--kill-after", type=int, default=None, help="SIGKILL and restart the server after N acks")
    parser.add_argument("--ai-games", type=int, default=0, help="games of two hard AI seats running meanwhile")
    parser.add_argument("--ai-workers", type=int, default=2, help="the server's AI processes (default 2)")
    parser.add_argument(
        "--think",
        type=float,
        default=PACE,
        help="seconds a scripted player waits between its actions, like a person thinking (default 1/15: as fast "
        "as the server's rate limit allows, which saturates 2 cores; 1-3 s is a table of people)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = asyncio.run(
        run(
            games=args.games,
            game=args.game,
            db=args.db,
            seconds=args.seconds,
            kill_after=args.kill_after,
            ai_games=args.ai_games,
            ai_workers=args.ai_workers,
            think=args.think,
        )
    )
    if args.json:
        print(json.dumps(report))
    else:
        lat = report["latency_ms"]
        print(
            f"{report['games']} games of {report['game']}, think {report['think_s']:.2f} s"
            f" ({report['finished']} finished, {report['ai_games']} AI games"
            f" beside): {report['actions']} actions in {report['seconds']} s = {report['actions_per_s']} actions/s;"
            f" send->ack p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms;"
            f" reconnects {report['reconnects']}, errors {report['errors']}"
            + (" (the server was killed with SIGKILL and restarted)" if report["killed"] else "")
        )
        for problem in report["problems"]:
            print("PROBLEM:", problem)
    # Unfinished games are a failure only when the run ended before its time limit (a think time makes games
    # outlast a short run: the figures are what such a run is for).
    unfinished = report["finished"] < report["games"] and report["seconds"] < 0.95 * args.seconds
    sys.exit(1 if report["problems"] or unfinished else 0)


if __name__ == "__main__":
    main()
