"""The host under load: a long burst of requests releases its answers as it goes, a client's
seats are found without looking at every room, a finished room that leaves memory early
(many games end) stays in the lobby and answers until it is retired, and what a room keeps
gives the garbage collector little to walk."""

from __future__ import annotations

import asyncio
import gc
import types

import pytest
from hostkit import WireClient, public_of, raw_of

import server.host
from server.host import Host
from server.rooms import Room, RoomTable
from shared import protocol as p
from shared.model import Action, Decision, Event, Player
from shared.record import Move
from shared.views import PlayerView, TableView


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


#: What a room keeps by the hundred (its history, its players, its views and lobby entry):
#: plain data the collector need not walk (msgspec's `gc=False`).
UNWALKED = (Event, Player, Action, Decision, Move, TableView, PlayerView, p.RoomInfo,
            p.SeatInfo, p.RoomOptions)


def walked_from(*roots: object) -> list[object]:
    """The objects a full collection walks that `roots` keep alive (classes, modules and
    functions, which everything shares, left out)."""
    seen: set[int] = set()
    walked: list[object] = []
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        seen.add(id(obj))
        if gc.is_tracked(obj):
            walked.append(obj)
        todo.extend(gc.get_referents(obj))
    return walked


async def test_a_rooms_history_gives_the_garbage_collector_nothing_to_walk(host: Host) -> None:
    """A full collection walks every object it tracks: with a thousand rooms' histories
    (hundreds of events each) in memory, one took about 90 ms, and about 30 ms once these
    were untracked. Events, players, actions, views and lobby entries are not tracked: a
    finished game's room keeps a few dozen tracked objects (lists, frames), whatever the
    length of its history."""
    for number in range(10):  # a game with a history longer than the bound (most are)
        ann = WireClient(host)  # a player's rooms at once are limited: a new one each time
        room = host.rooms[await finished_game(host, ann, f"Game {number}")]
        if len(room.events) > 100:
            break
    assert len(room.events) > 100
    gc.collect()  # tuples of plain values are untracked by a collection
    walked = walked_from(room, room.info(), host.broadcasts.get(room.id))
    assert [o for o in walked if isinstance(o, UNWALKED)] == []
    assert len(walked) < 100
