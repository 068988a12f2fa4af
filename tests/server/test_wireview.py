"""Views in pieces: for every state of random games, a seat's view rebuilt from the public
view and its private part is exactly `view(state, seat)`, and public deltas carry the public
view from one state to the next, through MessagePack and back."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared import protocol as p
from shared.bots import make_bot
from shared.engine import apply, start_game
from shared.setup import Setup
from shared.views import view
from shared.wireview import diff, merge, patch, split

_enc = msgspec.msgpack.Encoder()


def wire(value: object, kind: type) -> object:
    return msgspec.msgpack.decode(_enc.encode(value), type=kind)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 7), pool=st.sampled_from(p.POOLS))
def test_a_seat_view_is_the_public_view_plus_its_private_part(seed: int, players: int,
                                                               pool: str) -> None:
    state, _ = start_game(Setup(players=players, seed=seed,
                                names=[f"P{i}" for i in range(players)], pool=pool))
    bots = [make_bot("random", seed * 8 + i) for i in range(players)]
    public = wire(view(state, None), type(view(state, None)))
    for _ in range(400):
        for seat in range(players):
            mine = wire(split(view(state, seat)), p.Mine)
            assert merge(public, seat, mine) == view(state, seat)
        decision = state.pending
        if decision is None:
            break
        apply(state, decision.seat, bots[decision.seat].choose(view(state, decision.seat)),
              decision.id)
        new = view(state, None)
        delta = wire(diff(public, new), p.TableDelta)
        public = patch(public, delta)
        assert public == new


def test_a_delta_from_nothing_is_whole() -> None:
    state, _ = start_game(Setup(players=4, seed=3, names=["A", "B", "C", "D"]))
    whole = diff(None, view(state, None))
    assert patch(None, wire(whole, p.TableDelta)) == view(state, None)
    with pytest.raises(ValueError, match="every field"):
        patch(None, p.TableDelta(turn=1))
