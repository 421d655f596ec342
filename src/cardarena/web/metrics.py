"""What an operator watches (issue 33, point 4): ``GET /metrics`` in Prometheus' text format and ``GET /health``.

The figures are this server process's (each process of a deployment is scraped on its own): the games live in its
memory by status, the connections open, the actions committed (by people and by AI seats: Prometheus' ``rate()``
of the counter is actions a second), the time from a person's ``act`` to its acknowledgement (a histogram: commit
to the store included, the quantiles by ``histogram_quantile``), and the AI pool's decisions waiting for a worker
and being thought about. Each app has its own registry (no process-wide state: tests make many apps).

``/health`` answers 200 ``{"status": "ok"}`` when the database answers a read, 503 ``{"status": "unavailable"}``
otherwise: a load balancer's check."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: seconds from a person's act to its acknowledgement: the buckets of the latency histogram
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """One server's instruments. The gauges are read when scraped, from the callables given to :meth:`watch`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter(
            "cardarena_actions",
            "Actions committed to the store, by who took them (person or AI seat)",
            ["by"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "cardarena_act_seconds",
            "Seconds from a person's act message to its acknowledgement (the commit to the store included)",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.refused = Counter(
            "cardarena_refused_acts", "Act messages refused (stale, illegal, not the seat's turn...)", ["code"],
            registry=self.registry,
        )  # fmt: skip
        self._games = Gauge("cardarena_games_live", "Games in this process's memory, by status", ["status"],
                            registry=self.registry)  # fmt: skip
        self._connections = Gauge("cardarena_connections", "Open WebSocket connections (seats and spectators)",
                                  registry=self.registry)  # fmt: skip
        self._queued = Gauge("cardarena_ai_queue", "AI decisions waiting for a worker", registry=self.registry)
        self._thinking = Gauge("cardarena_ai_thinking", "AI decisions being thought about", registry=self.registry)

    def watch(
        self,
        *,
        games: Callable[[], dict[str, int]],
        connections: Callable[[], int],
        queued: Callable[[], int],
        thinking: Callable[[], int],
    ) -> None:
        """Where the gauges read their values when scraped."""
        self._games_now = games
        self._connections.set_function(lambda: float(connections()))
        self._queued.set_function(lambda: float(queued()))
        self._thinking.set_function(lambda: float(thinking()))

    def exposition(self) -> bytes:
        """The text a Prometheus server scrapes."""
        counts = self._games_now() if hasattr(self, "_games_now") else {}
        for status in ("open", "running", "finished"):
            self._games.labels(status=status).set(counts.get(status, 0))
        return generate_latest(self.registry)
