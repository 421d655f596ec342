"""What an operator watches (issue 33, point 4): ``/health`` for the load balancer and ``/metrics`` in Prometheus'
format. An operator plays a game against the AI and reads, in the scrape, the game live, the connection, the
actions by the person and the AI, the latency of the person's acts and the refused one."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from cardarena.web.store import GameRow, MemoryStore, StoreError

from .server_fixtures import Client, create, join, server


def scrape(client: object) -> dict[str, float]:
    text = client.get("/metrics").text  # type: ignore[attr-defined]
    values: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            values[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return values


def test_metrics_count_games_connections_actions_and_latency() -> None:
    with server() as client:
        before = scrape(client)
        assert before["cardarena_games_live{status=running}"] == 0
        assert before["cardarena_ai_queue"] == 0
        key, tokens = create(client, "laplaplace", [{"kind": "human"}, {"kind": "ai", "agent": "random"}])
        secret = join(client, key, tokens[0])
        with Client(client, key, secret) as me:
            during = scrape(client)
            assert during["cardarena_games_live{status=running}"] == 1
            assert during["cardarena_connections"] == 1
            me.send({"type": "act", "ply": 999, "action": "x"})  # a stale act: refused, counted
            me.sync()
            acted = 0
            while not me.state["terminal"]:  # the whole game (Laplaplace is short): the AI acts too
                if me.state["to_act"] == 0 and me.state["legal"]:
                    assert me.act(me.state["legal"][0]["text"])["type"] == "ack"
                    acted += 1
                else:
                    me.next()
        after = scrape(client)
        assert after["cardarena_actions_total{by=person}"] == acted > 0
        assert after["cardarena_act_seconds_count"] == acted
        assert after["cardarena_act_seconds_bucket{le=+Inf}"] == acted
        assert after["cardarena_refused_acts_total{code=stale_ply}"] == 1
        assert after["cardarena_connections"] == 0
        assert after["cardarena_actions_total{by=ai}"] > 0
        assert after["cardarena_games_live{status=running}"] == 0  # it ended


def test_health_says_whether_the_database_answers() -> None:
    class Down(MemoryStore):
        broken = False

        def list_games(self, *args: Any, **kwargs: Any) -> list[GameRow]:
            if self.broken:
                raise StoreError("the database is unreachable")
            return super().list_games(*args, **kwargs)

    store = Down()
    with server(store) as client:
        assert (client.get("/health").status_code, client.get("/health").json()["status"]) == (200, "ok")
        store.broken = True
        answer = client.get("/health")
        assert (answer.status_code, answer.json()["status"]) == (503, "unavailable")
