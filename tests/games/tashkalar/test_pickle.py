"""A state pickles in both builds, an effect waiting for a choice included (its frames hold the card's steps)."""

from __future__ import annotations

import pickle

import cardarena
from cardarena.engine import Rng
from cardarena.games.tashkalar.cards.data import Step
from cardarena.games.tashkalar.state import TashKalarState


def test_a_state_resolving_an_effect_pickles_with_its_steps() -> None:
    st = cardarena.load("tashkalar").new_initial_state(1)
    assert isinstance(st, TashKalarState)
    rng = Rng(2)
    while not st.frames:  # random play up to the first effect waiting for a choice
        acts = st.legal_actions()
        st.apply(acts[rng.randbelow(len(acts))])
    assert all(isinstance(s, Step) for s in st.frames[0][0])
    again = pickle.loads(pickle.dumps(st))
    assert again.snapshot() == st.snapshot()
    assert again.frames == st.frames and again.legal_actions() == st.legal_actions()
    step = st.frames[0][0][0]
    assert pickle.loads(pickle.dumps(step)) == step and hash(pickle.loads(pickle.dumps(step))) == hash(step)
