"""A small value network over a seat's observation encoding, run with numpy alone.

The network reads the game's observation encoding (:meth:`cardarena.engine.Game.observation_encoder`: what
``observation(seat)`` holds and nothing else) and answers how well that seat stands, in (-1, 1): the outcome it
expects (+1 a win, -1 a loss). It is a multilayer perceptron (ReLU hidden layers, a tanh output), trained by
``cardarena train`` (:mod:`cardarena.arena.training`) on the outcomes of self-play games, and shipped as a
``.npz`` file beside its metadata (the game, the training command and seed, the input size, the search settings
tuned for it).

:class:`NetEvaluator` turns it into a search's leaf evaluation: every seat's view of a world is encoded and the
network scores all seats in one matrix product. The search never hands it the true state: it evaluates the worlds
the search drew with ``resample``, through each seat's own observation.
"""

from __future__ import annotations

import itertools
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import Game, State

FORMAT = 1  # the .npz layout: W0, b0, W1, b1, ... and a JSON "meta"


class ValueNet:
    """``layers``: (weights ``[in, out]``, biases ``[out]``) pairs, float32; the last layer has one output."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any] | None = None) -> None:
        if not layers or layers[-1][0].shape[1] != 1:
            raise ValueError("a value network ends in a layer with one output")
        for (w, b), (w2, _) in itertools.pairwise(layers):
            if w.shape[1] != w2.shape[0] or b.shape != (w.shape[1],):
                raise ValueError(f"layer shapes do not chain: {w.shape} then {w2.shape}")
        self.layers = [(np.ascontiguousarray(w, np.float32), np.ascontiguousarray(b, np.float32)) for w, b in layers]
        self.meta: dict[str, Any] = dict(meta or {})

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    @property
    def parameters(self) -> int:
        return sum(w.size + b.size for w, b in self.layers)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The value of each row of ``x`` (``[batch, inputs]``), in (-1, 1)."""
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w
            h += b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return np.tanh(h[:, 0])

    def predict_sparse(self, x: np.ndarray) -> np.ndarray:
        """:meth:`predict` for a few mostly-zero rows (a search's leaves: 2-4 seats' encodings, a tenth of their
        numbers non-zero): the first layer adds up only the weight rows of the non-zero inputs, with elementwise
        numpy and no BLAS call. Besides being faster, it keeps a search off BLAS's threads, which on a busy machine
        cost milliseconds to wake for a product of a few rows."""
        w0, b0 = self.layers[0]
        h = np.empty((x.shape[0], w0.shape[1]), np.float32)
        for r in range(x.shape[0]):
            row = x[r]
            idx = np.flatnonzero(row)
            np.sum(w0[idx] * row[idx, None], axis=0, out=h[r])
        h += b0
        last = len(self.layers) - 1
        if last:
            np.maximum(h, 0.0, out=h)
        for i, (w, b) in enumerate(self.layers[1:], start=1):
            h = h @ w
            h += b
            if i < last:
                np.maximum(h, 0.0, out=h)
        return np.tanh(h[:, 0])

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"] = w.astype(np.float16) if self.meta.get("float16") else w
            arrays[f"b{i}"] = b
        arrays["meta"] = np.array(json.dumps({**self.meta, "format": FORMAT}, sort_keys=True))
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> ValueNet:
        """Read a network written by :meth:`save`; a file that is not one raises ``ValueError`` naming it."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                n = sum(1 for k in data.files if k.startswith("W"))
                layers = [(data[f"W{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(n)]
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path}: not a cardarena value network ({exc})") from exc
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: value network format {meta.get('format')!r}, this cardarena reads {FORMAT}")
        return cls(layers, meta)


class NetEvaluator:
    """A search's leaf evaluation: every seat's expected outcome in a world, from each seat's own observation.

    In a two-seat game the two views are combined into one zero-sum estimate (``(v0 - v1) / 2`` for seat 0):
    each seat's view holds what the other cannot see, and the average of two noisy estimates is a better one.
    """

    __slots__ = ("buffer", "calls", "encoder", "net", "predict", "seats", "zero_sum")

    def __init__(self, game: Game, net: ValueNet) -> None:
        encoder = game.observation_encoder()
        if encoder.size != net.inputs:
            raise ValueError(
                f"{game.id}: the value network reads {net.inputs} numbers, the game's encoding has {encoder.size}"
            )
        self.encoder = encoder
        self.net = net
        self.seats = game.num_players
        self.buffer = np.zeros((self.seats, encoder.size), np.float32)
        self.zero_sum = self.seats == 2
        self.calls = 0
        #: the first layer as a sum of the non-zero inputs' weight rows where the encoding is long (ToraBato's 2,333
        #: numbers, Tash-Kalar's 2,699-2,843: 27-58 µs where the dense product took 33-39 µs for two rows and, on a
        #: busy machine, 2 ms for four); a dense product where it is short (Lyabi's 280: 10 µs against 21)
        self.predict = net.predict_sparse if net.inputs >= 1000 else net.predict

    def __call__(self, world: State) -> list[float]:
        buffer = self.buffer
        buffer.fill(0.0)
        encode = self.encoder.encode_into
        for seat in range(self.seats):
            encode(world.observation(seat), seat, buffer[seat])
        values = self.predict(buffer)
        self.calls += 1
        if self.zero_sum:
            v = float(values[0] - values[1]) * 0.5
            return [v, -v]
        return [float(v) for v in values]
