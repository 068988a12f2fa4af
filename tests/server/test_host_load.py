"""The host under load: a long burst of requests releases its answers as it goes, a client's
seats are found without looking at every room, and a finished room that leaves memory early
(many games end) stays in the lobby and answers until it is retired."""

from __future__ import annotations

import asyncio

import pytest
from hostkit import WireClient, public_of, raw_of

import server.host
from server.host import Host
from server.rooms import Room, RoomTable
from shared import protocol as p


def outbox_topics(host: Host) -> list[str]:
    return [item.topic for item in host.outbox]


async def test_a_burst_releases_what_it_staged_once_it_has_run_long_enough(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every message of a burst is handled before the loop's flush runs: past BURST_FLUSH,
    what the burst staged so far is committed and released at once (here: after each)."""
    client = WireClient(host)
    hello = client.envelope(p.Hello())
    monkeypatch.setattr(server.host, "BURST_FLUSH", 0.0)
    host.handle(p.inbox_topic(client.cid), hello)
    assert outbox_topics(host) == [p.outbox_topic(client.cid)]


async def test_a_short_burst_waits_for_the_loop_to_release_it(host: Host) -> None:
    """The same request in a burst shorter than BURST_FLUSH: staged, released by the flush
    the loop runs after the burst (one commit for the whole burst)."""
    client = WireClient(host)
    host.handle(p.inbox_topic(client.cid), client.envelope(p.Hello()))
    assert outbox_topics(host) == []
    host.flush()
    assert outbox_topics(host) == [p.outbox_topic(client.cid)]


async def test_a_clients_seats_follow_its_joins_and_leaves(host: Host) -> None:
    walker = WireClient(host)
    rooms = []
    for name in ("A", "B"):
        ok = walker.reply(p.CreateRoom(name=name, options=p.RoomOptions(seats=3)))
        rooms.append(ok.room.id)
        assert walker.reply(p.Join(room=ok.room.id, name="Walker")).seat == 0
    assert [held.room for held in walker.reply(p.Hello()).seats] == rooms
    assert isinstance(walker.reply(p.Leave(room=rooms[0])), p.Ok)
    assert [held.room for held in walker.reply(p.Hello()).seats] == rooms[1:]


def seated_room(room_id: str, cids: list[str]) -> Room:
    room = Room.create(room_id, cids[0], "A", "Saloon", p.RoomOptions(seats=len(cids)))
    for i, cid in enumerate(cids):
        room.join(cid, f"P{i}", None)
    return room


def test_a_room_table_finds_a_clients_rooms_and_forgets_what_changed() -> None:
    rooms = RoomTable([seated_room("a", ["ann", "bob"]), seated_room("b", ["bob", "cy"])])
    assert [r.id for r in rooms.held_by("bob")] == ["a", "b"]
    rooms["a"].leave("bob")
    assert [r.id for r in rooms.held_by("bob")] == ["b"]
    joined = rooms["a"]
    joined.join("dee", "Dee", None)
    assert rooms.held_by("dee") == []  # a join the table was not told of
    rooms.seated("dee", joined)
    assert rooms.held_by("dee") == [joined]
    del rooms["b"]
    assert rooms.held_by("bob") == [] and rooms.held_by("cy") == []
    rooms["b"] = seated_room("b", ["cy"])  # a room that comes back whole (a reload)
    assert [r.id for r in rooms.held_by("cy")] == ["b"]
    rooms.reindex()
    assert rooms.held_by("bob") == [] and [r.id for r in rooms.held_by("ann")] == ["a"]
    assert set(rooms._seated) == {"ann", "dee", "cy"}


async def finished_game(host: Host, ann: WireClient, name: str) -> str:
    """A game of Ann against bots, played to its end (she takes her defaults)."""
    room = ann.reply(p.CreateRoom(name=name, options=p.RoomOptions(seats=3))).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    ann.reply(p.Start(room=room, bots=True))
    while host.rooms[room].status != "over":
        pending = host.rooms[room].state.pending
        if pending.seat == 0:
            ann.reply(p.Act(room=room, decision=pending.id, action=pending.default))
        await asyncio.sleep(0)
    return room


async def test_a_finished_room_out_of_memory_stays_in_the_lobby_until_it_is_retired(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.host, "KEEP_FINISHED", 1)
    ann = WireClient(host)
    first = await finished_game(host, ann, "One")
    second = await finished_game(host, ann, "Two")
    assert first not in host.rooms and second in host.rooms  # out of memory
    assert all(item.payload for item in raw_of(host, p.snapshot_topic(first)))
    assert all(item.payload for item in raw_of(host, p.lobby_topic(first)))
    watcher = WireClient(host)
    ok = watcher.reply(p.Watch(room=first))  # read back from the store
    assert isinstance(ok, p.Ok) and ok.room.status == "over"
    snapshot = [m for m in watcher.unread if isinstance(m, p.RoomSnapshot)]
    assert snapshot and snapshot[0].seq == host.rooms[first].record.seq
    host._retire(first)  # FINISHED_LINGER later
    assert public_of(host, p.lobby_topic(first))[-1].gone
    assert raw_of(host, p.lobby_topic(first))[-1].payload == b""
    assert raw_of(host, p.snapshot_topic(first))[-1].payload == b""
