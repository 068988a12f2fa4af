"""Game records: (setup, optional rigged scenario, actions). Replaying one rebuilds the state
byte for byte. Records are JSON or MessagePack; card fields accept ids or names like "BANG! A♠".
"""

from __future__ import annotations

import json
from collections.abc import Callable

import msgspec
from msgspec import Struct

from shared.engine import apply, start_game
from shared.engine.errors import IllegalAction, SetupError
from shared.engine.refs import resolve
from shared.model import STATE_VERSION, Action, Event, GameState
from shared.setup import Scenario, Setup

#: The version of the records written now: the rules revision the game was played by
#: (`shared.model.STATE_VERSION`). A record without `version` is version 1.
RECORD_VERSION = STATE_VERSION


# `gc=False` on plain data (no reference cycles can form in it): a host keeps these by the
# thousand, and the garbage collector need not walk them (tests/server/test_host_load.py).
class Move(Struct, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """One recorded action. `card`, `pick` and `cards` may name cards instead of ids."""

    seat: int
    kind: str
    card: int | str | None = None
    target: int | None = None
    pick: int | str | None = None
    cards: list[int | str] = []


class GameRecord(Struct, forbid_unknown_fields=True, omit_defaults=True):
    setup: Setup
    version: int = 1  # absent in records written before version 2
    scenario: Scenario | None = None
    actions: list[Move] = []


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where and why."""


def move_of(seat: int, action: Action) -> Move:
    return Move(seat, action.kind, action.card, action.target, action.pick, list(action.cards))


def _card_places(state: GameState, seat: int) -> list[int]:
    """Where a named card is looked for: the seat's hand, then the cards the pending options
    name (cards shown, cards in play that may be picked), then all."""
    offered = []
    if state.pending is not None:
        for option in state.pending.options:
            offered += [c for c in (option.card, option.pick) if c is not None]
    everywhere = list(range(80))
    return state.players[seat].hand + offered + everywhere


def action_of(state: GameState, move: Move) -> Action:
    """Turn a recorded move into an Action, resolving card names against the current state."""
    if not 0 <= move.seat < len(state.players):
        raise SetupError(f"there is no seat {move.seat}")
    places = _card_places(state, move.seat)

    def ref(value: int | str | None) -> int | None:
        return None if value is None else resolve(value, places)

    several: list[int] = []  # ["Missed!", "Missed!"] names two different Missed!
    for value in move.cards:
        several.append(resolve(value, [c for c in places if c not in several]))
    return Action(
        kind=move.kind,
        card=ref(move.card),
        target=move.target,
        pick=ref(move.pick),
        cards=tuple(sorted(several)),
    )


def load_record(data: bytes) -> GameRecord:
    """Read a JSON or MessagePack record."""
    try:
        if data.lstrip()[:1] == b"{":
            return msgspec.json.decode(data, type=GameRecord)
        return msgspec.msgpack.decode(data, type=GameRecord)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise RecordError(f"not a valid game record: {error}") from error


def dump_record(record: GameRecord) -> bytes:
    return json.dumps(msgspec.to_builtins(record), ensure_ascii=False, indent=1).encode()


def replay(record: GameRecord,
           on_event: Callable[[int, Event], object] | None = None) -> GameState:
    """Rebuild the state. `on_event(index, event)` sees every event; index -1 is the deal."""
    if not 1 <= record.version <= RECORD_VERSION:
        raise RecordError(f"record version {record.version} is not supported (1 to "
                          f"{RECORD_VERSION})")
    try:
        state, events = start_game(record.setup, record.scenario, version=record.version)
    except SetupError as error:
        raise RecordError(f"bad setup: {error}") from error
    if on_event is not None:
        for event in events:
            on_event(-1, event)
    for index, move in enumerate(record.actions):
        try:
            events = apply(state, move.seat, action_of(state, move))
        except (IllegalAction, SetupError) as error:
            raise RecordError(f"action {index} ({move.kind} by seat {move.seat}): {error}") \
                from error
        if on_event is not None:
            for event in events:
                on_event(index, event)
    return state
