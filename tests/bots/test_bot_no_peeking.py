"""A bot decides from its seat's view alone: whatever that seat cannot see does not matter."""

from __future__ import annotations

import ast
import copy
import pathlib
import random

import pytest

import shared.bots
from shared.bots import make_bot, tell
from shared.engine import apply, start_game
from shared.model import GameState
from shared.roles import SHERIFF
from shared.serialize import decode_state, encode_state
from shared.setup import Setup
from shared.views import view

#: Modules that hand out the whole game state, hidden parts included.
FORBIDDEN = ("shared.engine", "shared.rules", "shared.serialize", "shared.invariants",
             "shared.record", "shared.simulate")


def scrambled(state: GameState, seat: int, rnd: random.Random) -> GameState:
    """A copy of the game where everything `seat` cannot see is dealt anew: the other hands
    (same sizes), the deck order, the secret roles and the generator."""
    other = decode_state(encode_state(state))
    others = [p for p in other.players if p.seat != seat and p.alive]
    pool = list(other.deck) + [c for p in others for c in p.hand]
    rnd.shuffle(pool)
    for p in others:
        p.hand = [pool.pop() for _ in p.hand]
    other.deck = pool
    if not other.three_player:
        secret = [p for p in others if p.role != SHERIFF]
        roles = [p.role for p in secret]
        rnd.shuffle(roles)
        for p, role in zip(secret, roles, strict=True):
            p.role = role
    other.rng = rnd.getrandbits(64)
    return other


@pytest.mark.parametrize("kind", ["normal", "easy"])
@pytest.mark.parametrize("game", range(8))
def test_hidden_information_does_not_change_a_choice(kind, game):
    players = 4 + game % 4
    state, events = start_game(Setup(players=players, seed=500 + game))
    bots = [make_bot(kind, seat) for seat in range(players)]
    rnd = random.Random(game)
    compared = 0
    while state.winner is None and state.turn_number < 60:
        seat = state.pending.seat
        for s, bot in enumerate(bots):
            tell({s: bot}, events)  # redacted for seat s; only bots that read roles observe
        events = []
        twin = copy.deepcopy(bots[seat])
        other = scrambled(state, seat, rnd)
        assert view(other, seat) == view(state, seat)
        action = bots[seat].choose(view(state, seat))
        assert twin.choose(view(other, seat)) == action
        compared += 1
        events = apply(state, seat, action)
    assert compared > 20


def test_bot_modules_never_import_the_game_state_machinery():
    root = pathlib.Path(shared.bots.__file__).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
                names += [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
                assert not name.endswith(("GameState", "Player")), f"{path.name} imports {name}"
