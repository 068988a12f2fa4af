"""Rooms with High Noon: the option reaches the game, the lobby and the wire views, survives a
host restart, and a bad expansion is refused before any room exists."""

from __future__ import annotations

import pytest
from hostkit import WireClient, public_of
from test_server_host import play_one, start, table

from server.host import Host
from server.store import Store
from shared import protocol as p
from shared.high_noon.rules import HighNoonState
from shared.serialize import encode_state
from shared.setup import HighNoonOptions
from shared.views import view

BONUS = HighNoonOptions(bonus=True)


async def test_a_high_noon_room_deals_a_high_noon_game_and_a_restart_replays_it(
        host: Host, store: Store, tmp_path) -> None:  # noqa: ANN001
    clients, room = table(host, expansions=["high_noon"], high_noon=BONUS)
    listed = public_of(host, p.lobby_topic(room))
    assert not listed or listed[-1].room.options.expansions == ["high_noon"]
    start(clients, room)
    state = host.rooms[room].state
    assert isinstance(state, HighNoonState) and state.options == BONUS
    assert host.rooms[room].record.setup.expansions == ["high_noon"]
    assert len(state.event_deck) == 15  # the 12 events, the 2 bonus cards, High Noon
    for seat, client in enumerate(clients):  # the event cards reach every seat's view
        rebuilt = client.view_of(room).view
        assert rebuilt == view(state, seat)
        assert rebuilt.event_next == state.event_deck[0] and rebuilt.events_left == 15
        assert rebuilt.other_character == state.other_character[seat]
    spectators = public_of(host, p.snapshot_topic(room))[-1].view
    assert spectators.event_next == state.event_deck[0] and spectators.other_character is None
    for _ in range(60):
        if host.rooms[room].state.winner is not None:
            break
        play_one(host, clients, room)
    before = (host.rooms[room].record, encode_state(host.rooms[room].state))
    host.flush()
    store.close()
    again = Host(Store(tmp_path / "host.sqlite3"), bot_delay=0.0)
    assert (again.rooms[room].record, encode_state(again.rooms[room].state)) == before
    assert again.rooms[room].record.options.expansions == ["high_noon"]
    again.store.close()


async def test_a_base_room_stays_a_base_game(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    assert type(host.rooms[room].state) is not HighNoonState
    assert p.encode(p.RoomOptions(seats=4)) == p.encode(p.RoomOptions(seats=4, expansions=[]))


@pytest.mark.parametrize(("options", "why"), [
    (p.RoomOptions(expansions=["fistful"]), "unknown expansion 'fistful'"),
    (p.RoomOptions(expansions=["high_noon", "high_noon"]), "named twice"),
    (p.RoomOptions(high_noon=BONUS), "need high_noon in the expansions"),
    (p.RoomOptions(expansions=["high_noon"], high_noon=HighNoonOptions(event_limit=0)),
     "event_limit"),
    (p.RoomOptions(seats=3, expansions=["high_noon"],
                   high_noon=HighNoonOptions(no_three_players=True)), "3 players"),
])
async def test_a_bad_expansion_is_refused_and_no_room_is_made(
        host: Host, options: p.RoomOptions, why: str) -> None:
    answer = WireClient(host).reply(p.CreateRoom(name="Saloon", options=options))
    assert isinstance(answer, p.Error) and answer.code == "invalid", answer
    assert why in answer.message
    assert not host.rooms
