"""A hash of many whole bot games: every action, every event and the encoded state after each.
Two engines that give the same hashes played the same games, to the byte.

Run as a script (`python tests/engine/games_fingerprint.py`), it first turns on the compiled
engine if one matches the sources, and prints JSON: the hashes, and whether the engine's
modules were compiled ones."""

from __future__ import annotations

import hashlib
import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

encode = msgspec.msgpack.Encoder().encode

#: (name, games, player counts, bot kinds, expansions): random bots prove the rules at every
#: size, the scoring bots their own code, High Noon its rulebook.
RUNS: tuple[tuple[str, int, tuple[int, int], list[str], list[str]], ...] = (
    ("random", 200, (3, 7), ["random"], []),
    ("bots", 40, (4, 7), ["normal", "easy", "normal", "random", "easy", "normal", "easy"], []),
    ("high_noon", 60, (3, 7), ["random", "easy"], ["high_noon"]),
)


def _record(digest: Any, state: Any, seat: int, action: Any, events: list[Any]) -> None:
    from shared.serialize import encode_state

    digest.update(encode((seat, action, events)) + encode_state(state))


def fingerprint() -> dict[str, str]:
    # Imported here: run as a script, the compiled engine is turned on first.
    from shared import rng
    from shared.bots import make_bot
    from shared.driver import GameDriver
    from shared.engine import start_game
    from shared.serialize import encode_state
    from shared.setup import Setup
    from shared.simulate import deal_kinds

    hashes = {}
    for name, games, (low, high), bots, expansions in RUNS:
        digest = hashlib.sha256()
        stream = rng.seed_state(7)
        for _ in range(games):
            stream, extra = rng.below(stream, high - low + 1)
            stream, seed = rng.next_u64(stream)
            stream, kinds = deal_kinds(stream, bots, low + extra)
            state, events = start_game(Setup(players=low + extra, seed=seed,
                                             expansions=expansions))
            digest.update(encode(events) + encode_state(state))
            driver = GameDriver(state, {seat: make_bot(kind, seed + seat)
                                        for seat, kind in enumerate(kinds)})
            driver.tell(events)
            driver.observers.append(partial(_record, digest, state))
            while driver.bot_to_move() and driver.state.turn_number < 1000:
                driver.play_bot()
        hashes[name] = digest.hexdigest()
    return hashes


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from client import compiled_engine

    compiled_engine.activate()
    from shared.engine import core

    print(json.dumps({"compiled": not core.__file__.endswith(".py"), "hashes": fingerprint()}))
