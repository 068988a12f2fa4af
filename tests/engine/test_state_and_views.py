"""Determinism, MessagePack round-trips, records, and views that leak nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator

import msgspec
import pytest

from shared import rng
from shared.engine import apply, start_game
from shared.events import redact
from shared.model import Action, GameState, KitFrame
from shared.record import RECORD_VERSION, GameRecord, dump_record, load_record, move_of, replay
from shared.serialize import decode_state, encode_state
from shared.setup import Setup
from shared.views import view

_view_encoder = msgspec.msgpack.Encoder()


def random_game(setup: Setup, chooser_seed: int) -> Iterator[tuple[GameState, GameRecord, list]]:
    """Play a random game, yielding (state, record so far, last events) after every action."""
    state, _ = start_game(setup)
    record = GameRecord(setup=setup, version=RECORD_VERSION)
    chooser = random.Random(chooser_seed)
    while state.winner is None:
        decision = state.pending
        action = chooser.choice(decision.options)
        record.actions.append(move_of(decision.seat, action))
        events = apply(state, decision.seat, action, decision.id)
        yield state, record, events


def final(setup: Setup, chooser_seed: int) -> tuple[GameState, GameRecord]:
    state, record, _ = list(random_game(setup, chooser_seed))[-1]
    return state, record


@pytest.mark.parametrize("players", [3, 4, 7])
def test_same_setup_and_actions_give_the_same_state_byte_for_byte(players: int) -> None:
    setup = Setup(players=players, seed=1234 + players)
    state, record = final(setup, chooser_seed=5)
    assert state.winner is not None
    again = replay(load_record(dump_record(record)))
    assert encode_state(again) == encode_state(state)
    packed = msgspec.msgpack.encode(record)
    assert encode_state(replay(load_record(packed))) == encode_state(state)


def test_a_different_seed_gives_a_different_game() -> None:
    a = start_game(Setup(players=5, seed=1))[0]
    b = start_game(Setup(players=5, seed=2))[0]
    assert encode_state(a) != encode_state(b)


def test_states_round_trip_through_messagepack_mid_game() -> None:
    checked = 0
    for game in range(6):
        for state, _, _ in random_game(Setup(players=3 + game % 5, seed=game), game):
            data = encode_state(state)
            copy = decode_state(data)
            assert copy == state and encode_state(copy) == data
            checked += 1
    assert checked > 300


def test_a_decoded_state_continues_identically() -> None:
    setup = Setup(players=6, seed=77)
    original, _ = start_game(setup)
    chooser = random.Random(3)
    for step in range(400):
        if original.winner is not None:
            break
        copy = decode_state(encode_state(original))
        action = chooser.choice(original.pending.options)
        seat = original.pending.seat
        events_a = apply(original, seat, action)
        events_b = apply(copy, seat, action)
        assert events_a == events_b and encode_state(copy) == encode_state(original), step


def test_bad_bytes_are_not_a_state() -> None:
    with pytest.raises((msgspec.DecodeError, msgspec.ValidationError)):
        decode_state(b"\x93\x01\x02")


# --- views leak nothing ---------------------------------------------------------------------


def _hidden_role_seats(state: GameState, viewer: int | None) -> list[int]:
    if state.three_player or state.winner is not None:
        return []
    return [p.seat for p in state.players
            if p.alive and p.role != "sheriff" and p.seat != viewer]


def perturb(state: GameState, viewer: int | None, seed: int) -> GameState:
    """A copy where everything `viewer` cannot see is changed: other hands (same sizes), the deck
    order, other players' secret roles and the generator."""
    shaker = random.Random(seed)
    other = decode_state(encode_state(state))
    hands = [p for p in other.players if p.seat != viewer]
    pool = other.deck + [c for p in hands for c in p.hand]
    shaker.shuffle(pool)
    for p in hands:
        p.hand, pool = pool[:len(p.hand)], pool[len(p.hand):]
    other.deck = pool
    secret = _hidden_role_seats(other, viewer)
    roles = [other.players[s].role for s in secret]
    shaker.shuffle(roles)
    for s, role in zip(secret, roles, strict=True):
        other.players[s].role = role
    for frame in other.stack:  # Kit Carlson's three cards are secret too
        if isinstance(frame, KitFrame) and frame.seat != viewer and len(other.deck) >= 3:
            frame.cards, other.deck[-3:] = other.deck[-3:], frame.cards
            other.pending = msgspec.structs.replace(
                other.pending, private=tuple(frame.cards),
                options=tuple(Action("put_back", pick=c) for c in frame.cards),
                default=Action("put_back", pick=frame.cards[-1]))
    other.rng = rng.next_u64(other.rng)[1]
    return other


def snapshots(games: int) -> Iterator[GameState]:
    for game in range(games):
        for index, (state, _, _) in enumerate(random_game(Setup(players=3 + game % 5,
                                                                seed=900 + game), game)):
            if index % 7 == 0 or state.pending and state.pending.kind == "kit_put_back":
                yield decode_state(encode_state(state))


def test_a_seat_view_does_not_depend_on_what_it_cannot_see() -> None:
    changed = kit_looks = 0
    for number, state in enumerate(snapshots(40)):
        kit_looks += state.pending is not None and state.pending.kind == "kit_put_back"
        for viewer in [None, *range(len(state.players))]:
            other = perturb(state, viewer, seed=number)
            changed += encode_state(other) != encode_state(state)
            assert _view_encoder.encode(view(other, viewer)) == \
                _view_encoder.encode(view(state, viewer)), (number, viewer)
    assert changed > 500 and kit_looks > 0


def test_the_perturbation_is_noticed_by_whoever_may_see_it() -> None:
    """The no-leak test would pass trivially if views showed nothing: each seat does see its own
    hand, so perturbing for one seat changes what another seat sees."""
    noticed = 0
    for number, state in enumerate(snapshots(4)):
        other = perturb(state, 0, seed=number)
        if sorted(other.players[1].hand) != sorted(state.players[1].hand):
            noticed += 1
            assert view(other, 1) != view(state, 1)
    assert noticed > 10


def test_private_event_cards_are_redacted_for_everyone_else() -> None:
    seen_private = 0
    for _, _, events in random_game(Setup(players=5, seed=11), chooser_seed=1):
        for event in events:
            if event.private_to and event.cards:
                seen_private += 1
                outsider = next(s for s in range(5) if s not in event.private_to)
                assert redact(event, outsider).cards == ()
                assert redact(event, None).cards == ()
                assert redact(event, event.private_to[0]).cards == event.cards
    assert seen_private > 20


def test_the_view_reads_players_by_the_field_order_it_declares() -> None:
    """`shared.views` unpacks a Player by position (`PlayerFields`): a field added, removed
    or moved in `shared.model.Player` must be made there too, or views would mix fields up."""
    from typing import get_args

    from shared.model import Player
    from shared.views import PlayerFields

    fields = msgspec.structs.fields(Player)
    assert [f.name for f in fields] == ["seat", "name", "character", "role", "life", "max_life",
                                        "hand", "in_play", "alive"]
    assert [f.type for f in fields] == list(get_args(PlayerFields))
