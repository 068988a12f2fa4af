"""The host core, driven with real sealed messages: rooms, games, refusals, timers, replay."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from hostkit import WireClient, public_of, raw_of

from server.host import Host
from server.store import Store, StoreError
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.model import Action
from shared.serialize import encode_state
from shared.views import view


def table(host: Host, players: int = 4, **options: object) -> tuple[list[WireClient], str]:
    """Create a room, seat `players` clients, everyone ready; returns (clients, room id)."""
    clients = [WireClient(host) for _ in range(players)]
    opts = p.RoomOptions(seats=players, **options)  # type: ignore[arg-type]
    ok = clients[0].reply(p.CreateRoom(name="Saloon", options=opts))
    assert isinstance(ok, p.Ok), ok
    room = ok.room.id
    for i, client in enumerate(clients):
        assert client.reply(p.Join(room=room, name=f"P{i}")).seat == i
    return clients, room


def start(clients: list[WireClient], room: str) -> None:
    for client in clients[1:]:
        assert isinstance(client.reply(p.Ready(room=room)), p.Ok)
    assert isinstance(clients[0].reply(p.Start(room=room)), p.Ok)




def play_one(host: Host, clients: list[WireClient], room: str) -> None:
    """The seat that must decide answers with its rules-safe default, over the wire."""
    state = host.rooms[room].state
    decision = state.pending
    ok = clients[decision.seat].reply(p.Act(room=room, decision=decision.id,
                                            action=decision.default))
    assert isinstance(ok, p.SeatUpdate) and ok.ref is not None, ok


async def test_lobby_flow_and_private_views(host: Host) -> None:
    clients, room = table(host)
    for _ in range(500):  # the lobby goes out a moment later, all changes together
        if public_of(host, p.lobby_topic(room)):
            break
        await asyncio.sleep(0.01)
    entry = public_of(host, p.lobby_topic(room))[-1]
    assert entry.room.id == room
    assert [s.name for s in entry.room.seats] == ["P0", "P1", "P2", "P3"]
    start(clients, room)
    state = host.rooms[room].state
    for seat, client in enumerate(clients):
        update = client.view_of(room)
        assert update.seat == seat and update.info.status == "playing"
        assert update.view == view(state, seat)  # rebuilt from the pieces, exactly
        kinds = [e.kind for e in update.events]  # the deal is told, secrets redacted
        assert "turn_start" in kinds
        for event in update.events:
            if event.private_to and seat not in event.private_to:
                assert event.cards == ()
    spectator = public_of(host, p.snapshot_topic(room))[-1]
    assert spectator.view.hand == () and spectator.view.role is None
    for player in spectator.view.players:
        assert player.role in (None, "sheriff")


async def test_creator_starts_early_with_bots_and_bots_play_to_the_end(host: Host) -> None:
    creator = WireClient(host)
    room = creator.reply(p.CreateRoom(name="Solo", options=p.RoomOptions(seats=5))).room.id
    creator.reply(p.Join(room=room, name="Ann"))
    other = WireClient(host)
    assert other.reply(p.Start(room=room, bots=True)).code == "not_creator"
    assert isinstance(creator.reply(p.Start(room=room, bots=True)), p.Ok)
    kinds = [s.kind for s in host.rooms[room].record.seats]
    assert kinds == ["human", "bot", "bot", "bot", "bot"]
    for _ in range(3000):
        state = host.rooms[room].state
        if state.winner is not None:
            break
        if state.pending.seat == 0:
            creator.reply(p.Act(room=room, decision=state.pending.id,
                                action=state.pending.default))
        await asyncio.sleep(0)
    assert host.rooms[room].status == "over"
    assert problems(host.rooms[room].state) == []


async def test_start_needs_everyone_ready(host: Host) -> None:
    clients, room = table(host)
    clients[1].reply(p.Ready(room=room))
    error = clients[0].reply(p.Start(room=room))
    assert error.code == "not_ready" and "P2" in error.message and "P3" in error.message


async def test_everyone_ready_starts_the_game(host: Host) -> None:
    clients, room = table(host, players=3)
    for client in clients:
        client.reply(p.Ready(room=room))
    assert host.rooms[room].status == "playing"


async def test_refusals_change_nothing(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    watcher = WireClient(host)
    watcher.reply(p.Watch(room=room))
    state = host.rooms[room].state
    before = encode_state(state)
    decision = state.pending
    other = next(c for i, c in enumerate(clients) if i != decision.seat)
    cases = [
        (other, p.Act(room=room, decision=decision.id, action=decision.default), "illegal"),
        (watcher, p.Act(room=room, decision=decision.id, action=decision.default),
         "not_seated"),
        (clients[decision.seat], p.Act(room=room, decision=decision.id + 1,
                                       action=decision.default), "stale"),
        (clients[decision.seat], p.Act(room=room, decision=decision.id,
                                       action=Action(kind="dance")), "illegal"),
        (watcher, p.Join(room=room, name="Late"), "started"),
        (watcher, p.Watch(room="nope"), "no_room"),
        (clients[1], p.Handover(room=room, seat=2), "not_creator"),
    ]
    for client, message, code in cases:
        answer = client.reply(message)
        assert isinstance(answer, p.Error) and answer.code == code, (message, answer)
        assert answer.message
    assert encode_state(state) == before


async def test_unauthenticated_input_gets_a_clear_signed_error(host: Host) -> None:
    ann, eve = WireClient(host), WireClient(host)
    ann.reply(p.Hello())
    cases = [
        (b"\xc1\xc1", "malformed"),
        (p.encode(p.Request(v=2, pub=eve.key.public, ctr=5, box=b"x" * 40)), "bad_key"),
        (p.encode(p.Request(v=2, pub=ann.key.public, ctr=5, box=b"x" * 40)), "bad_box"),
        (p.encode(p.Request(v=9, pub=ann.key.public, ctr=5, box=b"")), "version"),
        (b"\x00" * (p.MAX_BYTES + 1), "too_large"),
    ]
    for payload, code in cases:
        host.handle(p.inbox_topic(ann.cid), payload)
        answer = ann.inbox()
        assert [type(a) for a in answer] == [p.PublicError], code
        assert answer[0].code == code


async def test_replayed_and_spoofed_requests_are_refused(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    state = host.rooms[room].state
    decision = state.pending
    actor = clients[decision.seat]
    captured = actor.envelope(p.Act(room=room, decision=decision.id, action=decision.default))
    actor.inbox()
    assert [m.ref for m in actor.send_raw(captured) if isinstance(m, p.SeatUpdate)] == \
        [p.decode_request(captured).ctr]
    after = encode_state(state)
    replayed = actor.send_raw(captured)
    assert [m.code for m in replayed if isinstance(m, p.Error)] == ["replay"]
    # Eve puts Ann's key in an envelope on Ann's topic: the box does not open for her.
    eve = WireClient(host)
    forged = eve.envelope(p.Leave(room=room))
    env = p.decode_request(forged)
    spoof = p.encode(p.Request(v=2, pub=actor.key.public, ctr=env.ctr + 10**9, box=env.box))
    host.handle(p.inbox_topic(actor.cid), spoof)
    assert [m.code for m in actor.inbox()] == ["bad_box"]
    assert encode_state(state) == after


async def test_flooding_is_rate_limited(host: Host) -> None:
    flooder = WireClient(host)
    answers = []
    for _ in range(400):
        answers.extend(flooder.send(p.ListRooms()))
    codes = [getattr(a, "code", None) for a in answers]
    assert "rate_limited" in codes
    assert codes.count("rate_limited") == 1  # one notice, then silence
    assert sum(isinstance(a, p.Rooms) for a in answers) < 400


async def test_decision_timeout_applies_the_default(host: Host) -> None:
    clients, room = table(host, turn_timeout=1)
    start(clients, room)
    state = host.rooms[room].state
    first = state.pending
    for _ in range(500):
        await asyncio.sleep(0.02)
        if state.actions >= 2:
            break
    assert state.actions >= 2
    assert state.pending is None or state.pending.id != first.id
    assert problems(state) == []
    # Everyone is told, before the default's own events, whose time ran out.
    clients[0].view_of(room)
    timed = [u.events for u in clients[0].updates if u.events and u.events[0].kind == "time_up"]
    assert timed and timed[0][0].seat == first.seat
    assert timed[0][0].default == first.default.kind
    assert all(e.kind != "time_up" for u in clients[0].updates for e in u.events[1:])


async def test_a_short_turn_timeout_is_not_stretched_to_the_restart_grace(host: Host) -> None:
    """The few seconds a decision gets at least after a restart apply to rooms read back from
    the store, not to every fresh decision (a 1 s clock used to run 5 s)."""
    clients, room = table(host, turn_timeout=1)
    start(clients, room)
    left = host.timers.remaining(room)
    assert left is not None and left <= 1.0


@pytest.mark.both_backends
async def test_restart_rebuilds_every_room_by_replay(host: Host, store: Store, reopen) -> None:
    clients, room = table(host)
    start(clients, room)
    for _ in range(40):
        play_one(host, clients, room)
    waiting, kept = table(host, players=3)
    waiting[1].reply(p.Ready(room=kept))
    _, abandoned = table(host, players=3)  # nobody ready: it does not survive a restart
    before = {rid: (r.record, encode_state(r.state) if r.state else None)
              for rid, r in host.rooms.items() if rid != abandoned}
    host.flush()
    store.close()
    again = Host(reopen(), bot_delay=0.0)
    after = {rid: (r.record, encode_state(r.state) if r.state else None)
             for rid, r in again.rooms.items()}
    assert after == before
    again.announce()
    for topic in (p.lobby_topic(abandoned), p.snapshot_topic(abandoned)):
        assert raw_of(again, topic)[-1].payload == b""
    gone = public_of(again, p.lobby_topic(abandoned))  # signed: a lobby believes only that
    assert gone and gone[-1].gone and gone[-1].room.id == abandoned
    # The same client keeps its seat and its request counter across the restart.
    clients[0].move_to(again)
    welcome = clients[0].reply(p.Hello())
    assert welcome.seats == [p.SeatRef(room=room, seat=0)]
    replay = clients[0].send_raw(clients[0].envelope(p.Hello(), ctr=clients[0].ctr))
    assert [m.code for m in replay if isinstance(m, p.Error)] == ["replay"]
    again.store.close()


@pytest.mark.both_backends
async def test_a_decision_read_back_after_a_restart_gets_the_grace(host: Host, store: Store,
                                                                   reopen) -> None:
    clients, room = table(host, turn_timeout=1)
    start(clients, room)
    host.flush()
    store.close()
    again = Host(reopen(), bot_delay=0.0)
    again.announce()
    left = again.timers.remaining(room)
    assert left is not None and left > 1.0  # RESTART_GRACE, not what was left of 1 s
    again.store.close()


async def test_leave_and_handover(host: Host) -> None:
    clients, room = table(host)
    clients[3].reply(p.Leave(room=room))
    assert host.rooms[room].record.seats[3].kind == "empty"
    clients[3].reply(p.Join(room=room, name="P3"))
    start(clients, room)
    assert isinstance(clients[0].reply(p.Handover(room=room, seat=2)), p.Ok)
    assert isinstance(clients[1].reply(p.Leave(room=room)), p.Ok)
    assert [s.kind for s in host.rooms[room].record.seats] == ["human", "bot", "bot", "human"]
    assert clients[1].reply(p.Act(room=room, decision=0, action=Action(kind="x"))).code == \
        "not_seated"


@pytest.mark.parametrize("seats", [3, 7])
async def test_reclaim_returns_the_same_seat(host: Host, seats: int) -> None:
    clients, room = table(host, players=seats)
    start(clients, room)
    again = clients[1].reply(p.Join(room=room, name="whatever"))
    assert again.seat == 1
    clients[1].inbox()
    hello = clients[1].send(p.Hello())
    assert isinstance(hello[0], p.Welcome)
    assert hello[0].seats == [p.SeatRef(room=room, seat=1)]
    assert [type(m) for m in hello[1:]] == [p.RoomSnapshot, p.SeatUpdate]
    snapshot = clients[1].view_of(room)
    assert snapshot.seat == 1 and snapshot.view == view(host.rooms[room].state, 1)


@pytest.mark.both_backends
async def test_a_storage_failure_mid_action_rolls_back_by_replay(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    clients, room = table(host)
    start(clients, room)
    for _ in range(5):
        play_one(host, clients, room)
    before = encode_state(host.rooms[room].state)

    def broken_save(*args, **kwargs):
        raise StoreError("disk I/O error (injected)")

    monkeypatch.setattr(host.store, "save_action", broken_save)
    decision = host.rooms[room].state.pending
    answer = clients[decision.seat].reply(p.Act(room=room, decision=decision.id,
                                                action=decision.default))
    assert answer.code == "storage"
    assert encode_state(host.rooms[room].state) == before
    monkeypatch.undo()
    play_one(host, clients, room)  # and the game goes on
    assert host.rooms[room].state.actions == 6


async def test_an_engine_failure_stops_the_game_where_it_was_and_tells_the_table(
        host: Host) -> None:
    """Never retried (the same move would fail again), never silent: the room goes back to
    its last stored state, is over, and every seat's log says the game stopped."""
    clients, room = table(host)
    start(clients, room)
    for _ in range(5):
        play_one(host, clients, room)
    while host.rooms[room].state.pending.kind != "play":  # someone's turn, free to play
        play_one(host, clients, room)
    state = host.rooms[room].state
    before = encode_state(state)
    decision = state.pending
    bad = Action(kind="play", card=9999)  # a card that does not exist: the engine fails on it
    state.pending = msgspec.structs.replace(decision, options=(*decision.options, bad))
    answer = clients[decision.seat].reply(p.Act(room=room, decision=decision.id, action=bad))
    assert isinstance(answer, p.Error) and answer.code == "internal", answer
    assert "game is stopped" in answer.message
    assert encode_state(host.rooms[room].state) == before  # as stored
    assert host.rooms[room].status == "over" and host.timers.deadline(room) is None
    told = [m for m in public_of(host, p.room_topic(room)) if isinstance(m, p.RoomDelta)]
    assert [e.kind for e in told[-1].events] == ["game_stopped"]
    again = clients[decision.seat].reply(p.Act(room=room, decision=decision.id,
                                               action=decision.default))
    assert again.code == "over"


async def test_export_gives_a_record_that_replays_to_the_same_game(
        host: Host, tmp_path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    from client.commands.host import export
    from shared.record import load_record, replay

    clients, room = table(host)
    assert export(tmp_path / "host.sqlite3", room) == 1  # not started yet
    start(clients, room)
    for _ in range(30):
        play_one(host, clients, room)
    capsysbinary.readouterr()
    assert export(tmp_path / "host.sqlite3", room) == 0
    record = load_record(capsysbinary.readouterr().out)
    assert len(record.actions) == 30
    assert encode_state(replay(record)) == encode_state(host.rooms[room].state)
    assert export(tmp_path / "host.sqlite3", "nosuchroom") == 1
    assert export(tmp_path / "missing.sqlite3", room) == 1


@pytest.mark.both_backends
async def test_a_room_everyone_left_before_the_start_is_closed(host: Host, store: Store) -> None:
    clients, room = table(host, players=3)
    for client in clients[:2]:
        client.reply(p.Leave(room=room))
    assert room in host.rooms
    assert isinstance(clients[2].reply(p.Leave(room=room)), p.Ok)
    assert room not in host.rooms
    assert store.load_rooms(keep_finished=10) == []
    for topic in (p.snapshot_topic(room), p.lobby_topic(room)):
        cleared = raw_of(host, topic)[-1]
        assert cleared.payload == b"" and cleared.retain
    assert public_of(host, p.lobby_topic(room))[-1].gone
    assert clients[0].reply(p.Join(room=room, name="P0")).code == "no_room"


@pytest.mark.both_backends
async def test_only_recent_finished_games_are_replayed_at_start(host: Host, store: Store) -> None:
    finished = []
    for _ in range(3):
        creator = WireClient(host)
        room = creator.reply(p.CreateRoom(name="Bots")).room.id
        creator.reply(p.Start(room=room, bots=True))
        for _ in range(5000):
            if host.rooms[room].status == "over":
                break
            await asyncio.sleep(0)
        finished.append(room)
    clients, playing = table(host)
    start(clients, playing)
    assert [r.id for r in store.load_rooms(keep_finished=1)] == [finished[-1], playing]
    assert [r.id for r in store.load_rooms(keep_finished=5)] == [*finished, playing]
    assert store.game_record(finished[0]) is not None  # still on disk for --export


@pytest.mark.parametrize("kind", ["normal", "easy"])
async def test_bots_rebuilt_after_a_restart_play_on_exactly_as_before(
        host: Host, store: Store, tmp_path, kind: str) -> None:
    """Bots that learn from events (observe) are told the game so far when rebuilt, so a
    restarted host continues the game exactly as the original would have."""
    import sqlite3

    creator = WireClient(host)
    opts = p.RoomOptions(seats=5, bot=kind)
    room = creator.reply(p.CreateRoom(name="Bots", options=opts)).room.id
    creator.reply(p.Start(room=room, bots=True))
    state = host.rooms[room].state
    while state.actions < 40 and state.winner is None:
        await asyncio.sleep(0)
    host.timers.cancel(room)  # pause: take a copy of the data as it is now
    host.flush()  # (what a bot just did is committed a moment later)
    copy = tmp_path / "copy.sqlite3"
    with sqlite3.connect(copy) as target:
        store.tables.db.backup(target)
    paused_at = state.actions
    host.announce()  # resume the original
    while host.rooms[room].status != "over":
        await asyncio.sleep(0)
    original = encode_state(host.rooms[room].state)

    restarted = Host(Store(copy), bot_delay=0.0)
    assert restarted.rooms[room].state.actions == paused_at
    restarted.announce()
    while restarted.rooms[room].status != "over":
        await asyncio.sleep(0)
    assert encode_state(restarted.rooms[room].state) == original
    restarted.store.close()


class RecorderBot(RandomBot):
    """A test bot kind: plays at random, and keeps every event it is told."""

    made: list[RecorderBot] = []

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[object] = []
        RecorderBot.made.append(self)

    def observe(self, events) -> None:
        self.seen.extend(events)


async def test_bots_are_told_every_event_once_in_order(
        host: Host, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from server.ratelimit import RateLimiter
    from shared.bots import BOT_KINDS
    from shared.events import redact
    from shared.record import replay

    monkeypatch.setitem(BOT_KINDS, "recorder", RecorderBot)
    RecorderBot.made.clear()
    host.limiter = RateLimiter(rate=1e6, burst=1e6)  # this player answers at machine speed
    creator = WireClient(host)
    room = creator.reply(p.CreateRoom(name="Told", options=p.RoomOptions(bot="recorder"))).room.id
    creator.reply(p.Join(room=room, name="Ann"))
    creator.reply(p.Start(room=room, bots=True))
    mine = RandomBot(99)
    for _ in range(20000):
        state = host.rooms[room].state
        if state.winner is not None:
            break
        if state.pending.seat == 0:
            ann = view(state, 0)
            creator.reply(p.Act(room=room, decision=ann.pending.id, action=mine.choose(ann)))
        await asyncio.sleep(0)
    assert host.rooms[room].status == "over"
    everything: list[object] = []
    replay(store.game_record(room), on_event=lambda _i, event: everything.append(event))
    assert len(RecorderBot.made) == 3
    expected = [[redact(e, seat) for e in everything] for seat in (1, 2, 3)]
    assert sorted(expected.index(bot.seen) for bot in RecorderBot.made) == [0, 1, 2]


@pytest.mark.both_backends
async def test_a_restart_gives_a_decision_the_time_it_had_left(host: Host, store: Store,
                                                                reopen) -> None:
    import time

    clients, room = table(host, turn_timeout=60)
    start(clients, room)
    record = host.rooms[room].record
    pending = host.rooms[room].state.pending
    assert record.deadline is not None and record.deadline[0] == pending.id
    assert 55 < record.deadline[1] - time.time() <= 60
    record.deadline = (pending.id, time.time() + 5)  # as if 55 seconds had gone by
    store.save_room(host.rooms[room])
    host.flush()
    store.close()
    again = Host(reopen(), bot_delay=0.0)
    again.announce()
    assert again.timers.remaining(room) is not None and again.timers.remaining(room) <= 5
    again.timers.cancel_all()
    again.store.close()


async def test_a_broker_reconnect_does_not_restart_the_clock(host: Host) -> None:
    clients, room = table(host, turn_timeout=60)
    start(clients, room)
    before = host.timers.remaining(room)
    await asyncio.sleep(0.3)
    host.announce()  # what the host does after every broker reconnect
    after = host.timers.remaining(room)
    assert before is not None and after is not None and after <= before - 0.2
    host.timers.pause()  # the link is down: the clock stands still
    frozen = host.timers.remaining(room)
    await asyncio.sleep(0.3)
    assert host.timers.remaining(room) == frozen
