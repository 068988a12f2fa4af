"""Rooms cost nothing to make: abandoned ones go away, idle seats are freed, creation is
limited per key and for everyone together, and honest players keep playing through it all."""

from __future__ import annotations

import time

import pytest
from hostkit import WireClient, public_of, raw_of

import server.host as host_module
from server.host import Host
from server.ratelimit import RateLimiter
from server.store import Store
from shared import protocol as p


def create(client: WireClient, name: str = "Room") -> p.Ok | p.Error:
    return client.reply(p.CreateRoom(name=name, options=p.RoomOptions(seats=3)))


async def test_a_waiting_room_where_nobody_is_ready_expires(host: Host) -> None:
    ann, bob = WireClient(host), WireClient(host)
    idle = create(ann).room.id
    ann.reply(p.Join(room=idle, name="Ann"))
    ready = create(bob).room.id
    bob.reply(p.Join(room=ready, name="Bob"))
    bob.reply(p.Ready(room=ready))
    later = time.monotonic() + host_module.WAITING_TTL + 1
    host.last_seen.put(ann.cid, later)  # both still talk: only readiness differs
    host.last_seen.put(bob.cid, later)
    host.sweep(later)
    host.flush()
    assert idle not in host.rooms and ready in host.rooms
    for topic in (p.lobby_topic(idle), p.snapshot_topic(idle)):
        assert raw_of(host, topic)[-1].payload == b""
    assert public_of(host, p.lobby_topic(idle))[-1].gone
    assert ann.reply(p.Join(room=idle, name="Ann")).code == "no_room"


async def test_an_idle_player_loses_a_waiting_seat(host: Host) -> None:
    ann, bob = WireClient(host), WireClient(host)
    room = create(ann).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    bob.reply(p.Join(room=room, name="Bob"))
    bob.reply(p.Ready(room=room))
    later = time.monotonic() + host_module.SEAT_IDLE + 1
    host.last_seen.put(bob.cid, later)  # Bob keeps talking; Ann went silent
    host.sweep(later)
    host.flush()
    seats = host.rooms[room].record.seats
    assert [s.kind for s in seats] == ["empty", "human", "empty"]
    entry = public_of(host, p.room_topic(room))[-1]
    assert entry.info is not None and entry.info.seats[0].kind == "empty"


async def test_the_creator_may_kick_before_the_start(host: Host) -> None:
    ann, squatter, carl = WireClient(host), WireClient(host), WireClient(host)
    room = create(ann).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    squatter.reply(p.Join(room=room, name="Sq"))
    assert squatter.reply(p.Kick(room=room, seat=0)).code == "not_creator"
    assert ann.reply(p.Kick(room=room, seat=0)).code == "bad_seat"  # that is Ann herself
    assert isinstance(ann.reply(p.Kick(room=room, seat=1)), p.Ok)
    assert carl.reply(p.Join(room=room, name="Carl")).seat == 1
    carl.reply(p.Ready(room=room))
    assert isinstance(ann.reply(p.Start(room=room, bots=True)), p.Ok)
    assert ann.reply(p.Kick(room=room, seat=1)).code == "started"


@pytest.mark.both_backends
async def test_waiting_rooms_nobody_is_ready_in_do_not_survive_a_restart(
        host: Host, store: Store, reopen) -> None:
    ann = WireClient(host)
    room = create(ann).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    host.flush()
    store.close()
    again = Host(reopen(), bot_delay=0.0)
    assert room not in again.rooms
    assert again.store.load_rooms(keep_finished=10) == []
    again.store.close()


async def test_room_exhaustion_by_many_keys_leaves_honest_players_playing(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """100 throwaway keys try to make 5 rooms each. Creation stops at the global budget and
    the cap on waiting rooms; an honest table already playing goes on, and an honest player
    can still create a room: the oldest room where nobody is ready makes way for it."""
    monkeypatch.setattr(host_module, "MAX_WAITING", 40)
    honest = [WireClient(host) for _ in range(3)]
    playing = create(honest[0], "Honest").room.id
    for i, client in enumerate(honest):
        client.reply(p.Join(room=playing, name=f"H{i}"))
    for client in honest[1:]:
        client.reply(p.Ready(room=playing))
    honest[0].reply(p.Start(room=playing))
    codes: list[str] = []
    for _ in range(100):
        spammer = WireClient(host)
        for _ in range(5):
            answer = create(spammer, "spam")
            codes.append("ok" if isinstance(answer, p.Ok) else answer.code)
    waiting = [r for r in host.rooms.values() if r.status == "waiting"]
    assert len(waiting) <= 40
    assert "busy" in codes  # the global budget ran out
    # The honest table plays on.
    state = host.rooms[playing].state
    decision = state.pending
    answer = honest[decision.seat].reply(p.Act(room=playing, decision=decision.id,
                                               action=decision.default))
    assert isinstance(answer, p.SeatUpdate) and state.actions == 1
    # Once the burst is over (the budget refills) and the spam rooms sat idle for a while, an
    # honest player creates a room even though the waiting rooms are at their cap.
    host.creations = RateLimiter(host_module.CREATE_RATE, host_module.CREATE_BURST)
    fresh = WireClient(host)
    assert create(fresh, "Mine").code == "busy"  # rooms just made are not thrown out
    for room_id in list(host._changed):
        host._changed[room_id] -= host_module.EVICT_IDLE
    assert isinstance(create(fresh, "Mine"), p.Ok)


async def test_one_key_may_not_hold_more_than_its_share(host: Host) -> None:
    spammer = WireClient(host)
    answers = [create(spammer) for _ in range(host_module.MAX_ROOMS_PER_CLIENT + 1)]
    assert all(isinstance(a, p.Ok) for a in answers[:-1])
    assert answers[-1].code == "too_many_rooms"


@pytest.mark.both_backends
async def test_finished_games_are_pruned_after_keep_days(host: Host, store: Store,
                                                         reopen) -> None:
    import asyncio

    ann = WireClient(host)
    room = create(ann).room.id
    ann.reply(p.Start(room=room, bots=True))
    for _ in range(20000):
        if host.rooms[room].status == "over":
            break
        await asyncio.sleep(0)
    host.flush()
    assert store.game_record(room) is not None
    store.close()
    kept = Host(reopen(), bot_delay=0.0, keep_days=1)
    assert kept.store.game_record(room) is not None  # younger than a day
    kept.store.close()
    forever = Host(reopen(), bot_delay=0.0, keep_days=0)
    assert forever.store.game_record(room) is not None  # 0: kept forever
    forever.store.close()
    pruned = Host(reopen(), bot_delay=0.0, keep_days=-1)
    with pytest.raises(KeyError):
        pruned.store.game_record(room)
    pruned.store.close()


async def test_one_key_holds_a_bounded_number_of_seats(host: Host) -> None:
    sitter = WireClient(host)
    for i in range(p.MAX_SEATS_HELD):
        owner = WireClient(host)
        room = create(owner, f"R{i}").room.id
        assert isinstance(sitter.reply(p.Join(room=room, name="S")), p.Ok)
    owner = WireClient(host)
    room = create(owner, "one more").room.id
    assert sitter.reply(p.Join(room=room, name="S")).code == "too_many_seats"
    assert isinstance(sitter.reply(p.Ping()), p.Ok)  # and the key still works


async def test_a_finished_room_stays_finished(host: Host) -> None:
    import asyncio

    ann = WireClient(host)
    room = create(ann).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    ann.reply(p.Start(room=room, bots=True))
    host.rooms[room].record.seats[0].kind = "human"
    for _ in range(40000):
        state = host.rooms[room].state
        if state.winner is not None:
            break
        if state.pending.seat == 0:
            ann.reply(p.Act(room=room, decision=state.pending.id, action=state.pending.default))
        await asyncio.sleep(0)
    assert host.rooms[room].status == "over"
    host._retire(room)  # as FINISHED_LINGER seconds later
    published = len(raw_of(host, p.lobby_topic(room)) + raw_of(host, p.snapshot_topic(room)))
    seq = host.rooms[room].record.seq
    assert ann.reply(p.Join(room=room, name="Ann")).seat == 0
    assert isinstance(ann.reply(p.Leave(room=room)), p.Ok)
    assert ann.reply(p.Ready(room=room)).code == "over"
    assert host.rooms[room].record.seq == seq
    assert [s.kind for s in host.rooms[room].record.seats][0] == "human"
    after = len(raw_of(host, p.lobby_topic(room)) + raw_of(host, p.snapshot_topic(room)))
    assert after == published  # nothing re-published to the broker


async def test_a_late_will_of_an_old_connection_gets_no_answer(host: Host) -> None:
    ann = WireClient(host)
    room = create(ann).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    old_will = ann.envelope(p.Bye())  # sealed when the first connection was made
    ann.reply(p.Hello(will=ann.ctr + 10**6))  # a newer connection registered its own will
    ann.inbox()
    assert ann.send_raw(old_will) == []  # no `replay` error for a request nobody waits on
    assert host.rooms[room].info().seats[0].online


async def test_a_room_nobody_joined_yet_waits_for_its_creator_a_while(host: Host) -> None:
    """A room is created empty and its creator joins next: the next housekeeping round (every
    TICK seconds) must not close it under them; one nobody joined for EMPTY_GRACE goes."""
    ann, bob = WireClient(host), WireClient(host)
    slow = create(ann, "Slow").room.id
    gone = create(bob, "Gone").room.id
    now = time.monotonic()
    host.sweep(now + host_module.TICK)
    host.flush()
    assert slow in host.rooms and gone in host.rooms
    assert ann.reply(p.Join(room=slow, name="Ann")).seat == 0
    host.sweep(now + host_module.EMPTY_GRACE + 1)
    host.flush()
    assert slow in host.rooms and gone not in host.rooms
    assert public_of(host, p.lobby_topic(gone))[-1].gone
