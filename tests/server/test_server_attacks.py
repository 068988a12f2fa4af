"""A stranger on the wire against the host core (real crypto, no broker): each test plays one
attack and checks the property of protocol v2 that defeats it, deterministically.

Every message the host publishes is read back from `hostkit.Bus` and opened (or verified) the
way a client or an eavesdropper would, then compared with the host's own state."""

from __future__ import annotations

import asyncio
import logging
import random
import statistics
import time
import types
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest
from hostkit import Bus, WireClient, host_errors, verified

import server.host as host_module
from server import legacy
from server.host import Host, Outgoing
from server.ratelimit import RateLimiter
from server.store import StoreError
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.engine import apply, start_game
from shared.events import redact
from shared.invariants import problems
from shared.model import Event
from shared.record import replay
from shared.serialize import decode_state, encode_state
from shared.setup import Setup
from shared.views import TableView, view
from shared.wireview import patch, split

SEED = 20260611
#: The length of a Sealed envelope per reply class: nonce (12) + padded body + tag (16).
CLASS_OF_LENGTH = {len(p.encode(p.Sealed(v=p.VERSION, box=b"\0" * (12 + size + 16)))): size
                   for size in p.REPLY_CLASSES}


# --- helpers -----------------------------------------------------------------------------------


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int = SEED) -> None:
    """Games dealt by this host use `seed`: the whole game is then deterministic."""
    monkeypatch.setattr(host_module, "secrets", types.SimpleNamespace(randbits=lambda _: seed))


def fast_players(host: Host) -> None:
    """Players here answer at machine speed: lift the per-client rate limit for them."""
    host.limiter = RateLimiter(rate=1e9, burst=1e9)


def table(host: Host, humans: int, seats: int | None = None) -> tuple[list[WireClient], str]:
    """A room of `seats` seats, `humans` of them taken by WireClients; not started."""
    clients = [WireClient(host) for _ in range(humans)]
    opts = p.RoomOptions(seats=seats or humans, turn_timeout=0)
    ok = clients[0].reply(p.CreateRoom(name="Saloon", options=opts))
    assert isinstance(ok, p.Ok), ok
    for i, client in enumerate(clients):
        assert client.reply(p.Join(room=ok.room.id, name=f"P{i}")).seat == i
    return clients, ok.room.id


def start(clients: list[WireClient], room: str) -> None:
    """Everyone is ready, the creator starts; empty seats get in-host bots."""
    for client in clients[1:]:
        assert isinstance(client.reply(p.Ready(room=room)), p.Ok)
    assert isinstance(clients[0].reply(p.Start(room=room, bots=True)), p.Ok)


async def play_out(host: Host, room: str, clients: list[WireClient],
                   after_each: Callable[[], None] | None = None) -> None:
    """Play the game to its end: WireClients (seats 0..) choose with seeded random bots over
    the wire, in-host bots move on their timers. `after_each` runs after every human move."""
    choosers = [RandomBot(SEED + seat) for seat in range(len(clients))]
    for _ in range(200_000):
        state = host.rooms[room].state
        assert state is not None
        if state.winner is not None:
            return
        decision = state.pending
        if decision.seat < len(clients):
            action = choosers[decision.seat].choose(view(state, decision.seat))
            answer = clients[decision.seat].reply(p.Act(room=room, decision=decision.id,
                                                        action=action))
            assert isinstance(answer, p.SeatUpdate) and answer.ref is not None, answer
            if after_each is not None:
                after_each()
        else:
            await asyncio.sleep(0)
    raise AssertionError("the game did not end")


def opened(host: Host, clients: list[WireClient], items: list[Outgoing]) -> Iterator[
        tuple[Outgoing, WireClient | None, Any]]:
    """Every published item with the client it is for (None: public) and its content:
    sealed ones opened with that client's key, signed ones verified."""
    by_outbox = {p.outbox_topic(c.cid): c for c in clients}
    for item in items:
        if not item.payload or not item.topic.startswith(f"{p.ROOT}/"):
            continue
        owner = by_outbox.get(item.topic)
        envelope = p.decode_outbound(item.payload)
        if isinstance(envelope, p.Sealed):
            assert owner is not None, f"a sealed message for nobody we know: {item.topic}"
            plain = crypto.open_box(owner.session.to_client, envelope.box,
                                    p.reply_aad(owner.cid))
            yield item, owner, p.decode_reply(p.unpad(plain, p.REPLY_CLASSES))
        else:
            yield item, owner, verified(host, item.payload)


def seat_online(host: Host, room: str, client: WireClient) -> bool:
    live = host.rooms[room]
    seat = live.seat_of(client.cid)
    assert seat is not None
    return client.cid in live.online and live.info().seats[seat].online


def mixed_changes(seed: int, seats: int) -> int:
    """Simulate (engine only) the all-WireClient game `play_out` plays with deal `seed`:
    the number of (change, seat) where the seat is shown some private cards but not others.
    Such a change is where a seat update could leak another seat's cards."""
    setup = Setup(players=seats, seed=seed, names=[f"P{i}" for i in range(seats)])
    state, events = start_game(setup)
    choosers = [RandomBot(SEED + seat) for seat in range(seats)]
    count = 0
    while True:
        count += sum(1 for seat in range(seats)
                     if any(e.cards and seat in e.private_to for e in events)
                     and any(e.cards and e.private_to and seat not in e.private_to
                             for e in events))
        if state.winner is not None:
            return count
        decision = state.pending
        action = choosers[decision.seat].choose(view(state, decision.seat))
        events = apply(state, decision.seat, action, decision.id)


def all_events(host: Host, room: str) -> list[Event]:
    """Every event of the room's game, unredacted, by replaying the stored record."""
    events: list[Event] = []
    record = host.store.game_record(room)
    assert record is not None
    replay(record, on_event=lambda _index, event: events.append(event))
    return events


# --- 1. publish only after commit ------------------------------------------------------------


async def test_nothing_is_published_before_the_commit_and_a_failed_commit_publishes_nothing(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: make the host tell the world about a move its disk never kept (a crash or a
    full disk between apply and commit). Guards `Host.flush`: staged output is released only
    after `store.commit()`, and a failed commit drops it and rolls the rooms back."""
    clients, room = table(host, humans=4)
    start(clients, room)
    Bus.of(host).pump()
    before_state = encode_state(host.rooms[room].state)
    before_seq = host.rooms[room].record.seq
    before_actions = host.store.action_count(room)
    decision = host.rooms[room].state.pending
    actor = clients[decision.seat]
    envelope = actor.envelope(p.Act(room=room, decision=decision.id, action=decision.default))
    ctr = actor.ctr

    host.handle(p.inbox_topic(actor.cid), envelope)
    assert host.rooms[room].record.seq == before_seq + 1  # applied in memory...
    assert list(host.outbox) == []  # ...but nothing is out before the commit

    real_commit = host.store.commit
    calls = []

    def commit_fails_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise StoreError("disk I/O error (injected)")
        real_commit()

    monkeypatch.setattr(host.store, "commit", commit_fails_once)
    host.flush()
    assert calls == [1]
    mark = len(Bus.of(host).published)
    await asyncio.sleep(host_module.SNAPSHOT_EVERY + 0.3)  # let delayed refreshes go out too
    later = Bus.of(host).pump()[mark:]
    assert encode_state(host.rooms[room].state) == before_state
    assert host.rooms[room].record.seq == before_seq
    assert host.store.action_count(room) == before_actions
    for item, _owner, message in opened(host, clients, later):
        seq = getattr(message, "seq", None)
        assert seq is None or seq <= before_seq, (item.topic, message)
        assert getattr(message, "ref", None) != ctr, message
        if isinstance(message, p.RoomSnapshot):
            assert encode_state(host.rooms[room].state) == before_state
            assert message.view == view(host.rooms[room].state, None)

    # The player's client re-sends the unanswered request as it is: it is applied now.
    answer = [m for m in actor.send_raw(envelope) if getattr(m, "ref", None) == ctr]
    assert [type(m) for m in answer] == [p.SeatUpdate]
    assert host.rooms[room].record.seq == before_seq + 1
    assert host.store.action_count(room) == before_actions + 1
    for seat, client in enumerate(clients):
        update = client.view_of(room)
        assert update.seq == before_seq + 1
        assert update.view == view(host.rooms[room].state, seat)


class RecorderBot(RandomBot):
    """A test bot kind: plays at random and keeps every event it is told."""

    made: list[RecorderBot] = []

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[Event] = []
        RecorderBot.made.append(self)

    def observe(self, events: Any) -> None:
        self.seen.extend(events)


async def test_a_failed_commit_is_rolled_back_in_the_bots_memory_too(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rollback of test 1 seen by the in-host bots: after a failed commit and the redo,
    each bot must have been told every event of the game once, in order, as a bot rebuilt
    from the stored record (a restart) would have been."""
    from shared.bots import BOT_KINDS

    monkeypatch.setitem(BOT_KINDS, "recorder", RecorderBot)
    RecorderBot.made.clear()
    fixed_seed(monkeypatch)
    ann = WireClient(host)
    opts = p.RoomOptions(seats=3, turn_timeout=0, bot="recorder")
    room = ann.reply(p.CreateRoom(name="Told", options=opts)).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    ann.reply(p.Start(room=room, bots=True))
    for _ in range(10_000):  # until both bots have moved and Ann must decide
        state = host.rooms[room].state
        if len(RecorderBot.made) == 2 and state.pending.seat == 0:
            break
        if state.pending.seat == 0:
            ann.reply(p.Act(room=room, decision=state.pending.id, action=state.pending.default))
        await asyncio.sleep(0)
    decision = host.rooms[room].state.pending
    assert len(RecorderBot.made) == 2 and decision.seat == 0
    host.flush()  # the bots' moves so far are stored
    state = host.rooms[room].state
    action = next(a for a in view(state, 0).options  # one the bots hear about
                  if apply(decode_state(encode_state(state)), 0, a, decision.id))
    envelope = ann.envelope(p.Act(room=room, decision=decision.id, action=action))
    told = [len(bot.seen) for bot in RecorderBot.made]
    host.handle(p.inbox_topic(ann.cid), envelope)
    real_commit = host.store.commit
    calls: list[int] = []

    def commit_fails_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise StoreError("disk I/O error (injected)")
        real_commit()

    heard = [len(bot.seen) for bot in RecorderBot.made]
    assert heard != told  # the bots were told this change
    monkeypatch.setattr(host.store, "commit", commit_fails_once)
    host.flush()
    redo = [m for m in ann.send_raw(envelope) if getattr(m, "ref", None) == ann.ctr]
    assert [type(m) for m in redo] == \
        [p.SeatUpdate], redo  # redone
    for _ in range(10_000):  # the bots play on until Ann must decide again
        state = host.rooms[room].state
        if state.winner is not None or \
                (state.pending.seat == 0 and len(host.drivers[room].bots) == 2):
            break
        await asyncio.sleep(0)
    everything = all_events(host, room)
    for seat, bot in host.drivers[room].bots.items():
        assert bot.seen == [redact(e, seat) for e in everything], (seat, len(bot.seen))


# --- 2. additional data binds every box to its client (and counter) ----------------------------


async def test_boxes_are_bound_to_their_client_by_the_aad(host: Host) -> None:
    """Attack: move a sealed box to another context (another client's outbox, another
    counter, no AAD at all). Guards the AAD the host seals replies with (`reply_aad(cid)`)
    and checks requests against (`request_aad(cid, ctr)`)."""
    fast_players(host)
    clients, room = table(host, humans=3)
    start(clients, room)
    for _ in range(10):
        state = host.rooms[room].state
        decision = state.pending
        clients[decision.seat].reply(p.Act(room=room, decision=decision.id,
                                           action=decision.default))
    sealed = 0
    for item in Bus.of(host).pump():
        envelope = p.decode_outbound(item.payload) if item.payload else None
        if not isinstance(envelope, p.Sealed):
            continue
        owner = next(c for c in clients if item.topic == p.outbox_topic(c.cid))
        aad = f"{p.ROOT} out|{owner.cid}".encode()
        assert p.reply_aad(owner.cid) == aad  # the documented AAD
        crypto.open_box(owner.session.to_client, envelope.box, aad)
        for wrong in (b"", *(f"{p.ROOT} out|{c.cid}".encode() for c in clients if c != owner)):
            with pytest.raises(crypto.CryptoError):
                crypto.open_box(owner.session.to_client, envelope.box, wrong)
        sealed += 1
    assert sealed > 20

    ann, other = clients[0], clients[1]
    ann.inbox()
    before = host.clients.get(ann.cid)
    for label, aad_of in [
        ("empty", lambda ctr: b""),
        ("other counter", lambda ctr: p.request_aad(ann.cid, ctr + 1)),
        ("other client", lambda ctr: p.request_aad(other.cid, ctr)),
        ("reply direction", lambda ctr: p.reply_aad(ann.cid)),
    ]:
        ctr = crypto.next_counter(ann.ctr)
        box = crypto.seal(ann.session.to_host, p.pad(p.encode(p.Hello()), p.REQUEST_CLASS),
                          aad_of(ctr))
        request = p.Request(v=p.VERSION, pub=ann.key.public, ctr=ctr, box=box)
        answers = ann.send_raw(p.encode(request))
        assert [(type(a), a.code) for a in answers] == [(p.PublicError, "bad_box")], label
    assert host.clients.get(ann.cid) == before  # the counter did not move
    assert isinstance(ann.reply(p.Hello()), p.Welcome)


# --- 3. redaction --------------------------------------------------------------------------------


async def test_private_cards_reach_only_their_seats(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: read the room topic, the retained snapshot, or another seat's updates, for
    cards one may not see. Guards `server.broadcast`: public events are redacted
    (`redact(e, None)`), a SeatUpdate's `shown` carries the cards of exactly the events private
    to its seat, and a seat's private part (hand, options, private cards) goes to that seat
    only. A whole seeded game, every seat a WireClient, checked after every move against the
    host's state."""
    seed = next(s for s in range(SEED, SEED + 100) if mixed_changes(s, 4))
    fixed_seed(monkeypatch, seed)
    fast_players(host)
    clients, room = table(host, humans=4)
    watcher = WireClient(host)
    watcher.reply(p.Watch(room=room))
    everyone = [*clients, watcher]
    deltas: dict[int, p.RoomDelta] = {}
    updates: dict[tuple[int, int], p.SeatUpdate] = {}  # (seq, seat) -> its update
    cursor = 0
    public: TableView | None = None
    checked = {"updates": 0, "snapshots": 0}

    def check_new() -> None:
        """Everything published since the last look, against the state right now (no bots:
        the state only changes on our moves)."""
        nonlocal cursor, public
        items = Bus.of(host).pump()
        new, cursor = items[cursor:], len(items)
        state = host.rooms[room].state
        for _item, owner, message in opened(host, everyone, new):
            if isinstance(message, p.RoomDelta):
                deltas[message.seq] = message
                for event in message.events:
                    assert not (event.private_to and event.cards), event
                if message.table is not None:  # the public view, pieced together
                    public = patch(public, message.table)
                    assert public == view(state, None)
            elif isinstance(message, p.RoomSnapshot) and message.view is not None:
                checked["snapshots"] += 1
                assert message.view == view(state, None)
                assert (message.view.hand, message.view.options, message.view.private) == \
                    ((), (), ())
            elif isinstance(message, p.SeatUpdate) and message.mine is not None:
                assert owner is not None and owner is not watcher
                seat = clients.index(owner)
                assert message.seat == seat
                assert message.mine == split(view(state, seat))  # its own part, exactly
                others = {c for s, pl in enumerate(state.players) if s != seat for c in pl.hand}
                mine = message.mine
                ids = {*mine.hand, *mine.private, *(a.card for a in mine.options),
                       *(a.pick for a in mine.options), *(c for a in mine.options
                                                          for c in a.cards)}
                assert not ids & others, (seat, ids & others)
                for shown in message.shown:  # cards of an event private to this seat only
                    event = deltas[message.seq].events[shown.index]
                    assert seat in event.private_to, (seat, event, shown)
                if not message.snapshot:
                    updates[(message.seq, seat)] = message
                checked["updates"] += 1

    check_new()
    start(clients, room)
    check_new()
    first = min(s for s, d in deltas.items() if d.events)
    await play_out(host, room, clients, after_each=check_new)
    check_new()
    assert checked["updates"] > 100 and checked["snapshots"] >= 2

    # Every game event, unredacted, from the stored record; the deltas told them in order.
    truth = all_events(host, room)
    told = [e for s in sorted(deltas) if s >= first for e in deltas[s].events]
    assert told == [redact(e, None) for e in truth]
    # The cards of each private event went to exactly the seats in private_to, within the
    # SeatUpdate of its change: put together, that seat sees the change as it may see it.
    private = offset = mixed = 0
    for seq in sorted(s for s in deltas if s >= first):
        real = truth[offset: offset + len(deltas[seq].events)]
        offset += len(real)
        for seat in range(len(clients)):
            update = updates.get((seq, seat))
            expected = [p.Shown(index, e.cards) for index, e in enumerate(real)
                        if e.cards and e.private_to and seat in e.private_to]
            assert (update.shown if update is not None else []) == expected, (seq, seat)
            if expected:
                assert update is not None and seat in deltas[seq].to, (seq, seat)
                seen = list(deltas[seq].events)
                for shown in update.shown:
                    seen[shown.index] = msgspec.structs.replace(seen[shown.index],
                                                                cards=shown.cards)
                assert seen == [redact(e, seat) for e in real], (seq, seat)
                private += 1
                mixed += any(e.cards and e.private_to and seat not in e.private_to
                             for e in real)
    assert offset == len(truth)
    assert private > 20 and mixed > 0  # the seed was chosen so that mixed > 0


# --- 4. size classes -----------------------------------------------------------------------------


@pytest.mark.parametrize("seats,humans", [(3, 2), (5, 2), (7, 3)])
async def test_sealed_sizes_say_only_public_facts(
        host: Host, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        seats: int, humans: int) -> None:
    """Attack: learn a seat's secrets from the length of its sealed messages. Guards the
    padding: every sealed body is padded to a class, a SeatUpdate's class follows only from
    public facts (the pending seat, its hand count) via `p.seat_update_class`, and nothing
    outgrows its class. Also keeps the public side small: one RoomDelta per change."""
    caplog.set_level(logging.INFO, logger="bang.host")
    fixed_seed(monkeypatch, SEED + seats)
    fast_players(host)
    clients, room = table(host, humans=humans, seats=seats)
    start(clients, room)
    start_seq = host.rooms[room].record.seq
    await play_out(host, room, clients)
    await asyncio.sleep(host_module.LOBBY_DELAY + 0.1)  # the last lobby entry goes out
    items = Bus.of(host).pump()
    assert problems(host.rooms[room].state) == []

    public: TableView | None = None
    public_at: dict[int, TableView | None] = {}
    per_seq: dict[int, dict[str, int]] = {}
    delta_sizes: list[int] = []  # the RoomDelta of each change, encoded
    signed_sizes: list[int] = []  # the same in its signed envelope, as published
    updates = 0
    for item, owner, message in opened(host, clients, items):
        if item.topic == p.room_topic(room):
            if message.table is not None:
                public = patch(public, message.table)
            public_at[message.seq] = public
            if message.seq > start_seq:
                delta_sizes.append(len(p.encode(message)))
                signed_sizes.append(len(item.payload))
        seq = getattr(message, "seq", None)
        if seq is not None and seq > start_seq:
            kind = type(message).__name__
            counts = per_seq.setdefault(seq, {})
            counts[kind] = counts.get(kind, 0) + 1
        if owner is None or not isinstance(p.decode_outbound(item.payload), p.Sealed):
            continue
        size = CLASS_OF_LENGTH.get(len(item.payload))
        assert size is not None, (len(item.payload), CLASS_OF_LENGTH)
        if isinstance(message, p.SeatUpdate):
            facts = public_at.get(message.seq)
            hand = facts.players[message.seat].hand_count if facts is not None else 0
            deciding = facts is not None and facts.pending is not None and \
                facts.pending.seat == message.seat
            expected = p.REPLY_CLASSES[0] if not deciding else \
                p.REPLY_CLASSES[1] if hand <= p.OPTIONS_HAND_LIMIT else p.REPLY_CLASSES[2]
            assert size == expected == p.seat_update_class(message, hand), (message, hand)
            updates += 1
        else:
            assert size == p.reply_class(message), message
    assert updates > 50
    assert not [r for r in caplog.records if "outgrew" in r.getMessage()]
    assert not host_errors(caplog.records)

    # Per change: one RoomDelta, at most one snapshot, and the seats' updates.
    for seq, counts in per_seq.items():
        extra = sum(n for kind, n in counts.items() if kind != "SeatUpdate")
        assert counts.get("RoomDelta") == 1, (seq, counts)
        assert extra <= 2, (seq, counts)
    lobby = [i for i in items if i.topic == p.lobby_topic(room) and i.payload]
    assert len(lobby) <= 2 + sum(1 for i, _o, m in opened(host, clients, items)
                                 if i.topic == p.room_topic(room) and m.info is not None)
    median = statistics.median(delta_sizes)
    print(f"{seats} seats: {len(delta_sizes)} changes, RoomDelta median {median} bytes, "
          f"{statistics.median(signed_sizes)} bytes signed")
    if seats == 7:  # the RoomDelta itself; its signed envelope adds ~90 bytes (sig, framing)
        assert median <= 300


# --- 5. counters ---------------------------------------------------------------------------------


@pytest.mark.parametrize("ctr", [0, -1, 2**63, 2**64 - 1])
async def test_out_of_range_counters_are_refused_and_the_key_keeps_working(
        host: Host, ctr: int) -> None:
    """Attack (or a buggy client): a request counter outside 1..2^63-1. Guards
    `p.decode_request`'s range check: refused as `invalid` before anything is stored, so the
    key is not bricked (v1 stored 2^64-1 and refused everything after as a replay)."""
    ann = WireClient(host)
    assert isinstance(ann.reply(p.Hello()), p.Welcome)
    before = host.clients.get(ann.cid)
    # A box that opens: without the range check the host would accept this request.
    box = crypto.seal(ann.session.to_host, p.pad(p.encode(p.Hello()), p.REQUEST_CLASS),
                      p.request_aad(ann.cid, ctr))
    payload = msgspec.msgpack.encode({"v": p.VERSION, "pub": ann.key.public, "ctr": ctr,
                                      "box": box})
    answers = ann.send_raw(payload)
    assert [(type(a), a.code) for a in answers] == [(p.PublicError, "invalid")]
    assert "counter" in answers[0].message
    assert host.clients.get(ann.cid) == before
    assert isinstance(ann.reply(p.Hello()), p.Welcome)  # the key still works
    assert isinstance(ann.reply(p.ListRooms()), p.Rooms)


# --- 6. a replayed will -------------------------------------------------------------------------


async def test_a_replayed_will_is_refused_and_the_seat_stays_online(host: Host) -> None:
    """Attack: capture a client's MQTT will (a sealed Bye) and replay it later to show the
    player as gone. Guards the host's will bookkeeping: the Bye registered by Hello(will=W)
    is accepted once (`wills.pop`), after that it is an old counter like any other."""
    clients, room = table(host, humans=3)
    start(clients, room)
    ann = clients[1]
    will = ann.envelope(p.Bye())  # sealed first, registered with the broker as the will
    will_ctr = ann.ctr
    assert isinstance(ann.reply(p.Hello(will=will_ctr)), p.Welcome)
    assert seat_online(host, room, ann)

    # The connection drops: the broker publishes the will, the seat goes offline once.
    ann.inbox()
    told = ann.send_raw(will)
    assert not [m for m in told if isinstance(m, p.Error | p.PublicError)]
    assert not seat_online(host, room, ann)
    gone = [m for m in told if isinstance(m, p.RoomDelta)]
    assert len(gone) == 1 and gone[0].info.seats[1].online is False
    # The player is back: any request marks the seat online again.
    assert isinstance(ann.reply(p.Snapshot(room=room)), p.Ok)
    assert seat_online(host, room, ann)
    seq = host.rooms[room].record.seq

    # Someone replays the captured will, verbatim: refused as an old counter (silently: it
    # looks like the late will of an old connection, which gets no answer; or as `replay`).
    ann.inbox()
    replayed = ann.send_raw(will)
    codes = [m.code for m in replayed if isinstance(m, p.Error | p.PublicError)]
    assert codes in ([], ["replay"]), codes
    assert seat_online(host, room, ann)
    assert host.rooms[room].record.seq == seq  # no presence change went out
    assert not [m for m in replayed if isinstance(m, p.RoomDelta)]


# --- 7. a v1 client ----------------------------------------------------------------------------


async def test_a_v1_client_gets_a_signed_version_error(host: Host) -> None:
    """A v1 client sends on v1's inbox. Guards `server.legacy`: the host answers on v1's
    outbox with a v1 `signed` envelope (verifiable with the host key) carrying an `error`
    with code `version`, instead of leaving it waiting in silence."""
    key = crypto.ClientKey.generate()
    topic = f"bang/v1/c/{key.cid}/in"
    request = msgspec.msgpack.encode({"v": 1, "pub": key.public, "ctr": 1,
                                      "box": random.Random(1).randbytes(60)})
    host.handle(topic, request)
    items = Bus.of(host).pump()
    answers = [i for i in items if i.topic == f"bang/v1/c/{key.cid}/out"]
    assert len(answers) == 1 and not answers[0].retain
    assert not [i for i in items if key.cid in i.topic and i is not answers[0]]
    envelope = msgspec.msgpack.decode(answers[0].payload)
    assert set(envelope) == {"e", "v", "body", "sig"}
    assert envelope["e"] == "signed" and envelope["v"] == 1
    crypto.verify(host.keys.sign_public, envelope["sig"], envelope["body"])
    body = msgspec.msgpack.decode(envelope["body"])
    assert body["t"] == "error" and body["code"] == "version"
    assert "upgrade" in body["message"] and body["message"] == legacy.UPGRADE
    with pytest.raises(crypto.CryptoError):  # and the signature covers the body
        crypto.verify(host.keys.sign_public, envelope["sig"], envelope["body"] + b"\0")


# --- 8. an unauthenticated flood -----------------------------------------------------------------


async def test_an_unauthenticated_flood_does_not_starve_a_client(
        host: Host, caplog: pytest.LogCaptureFixture) -> None:
    """Attack: 5,000 junk messages (random bytes, forged boxes on the victim's own inbox,
    fresh keys) around a victim's real requests. Guards: the per-client budget is charged
    only after authentication, so the victim is answered every time; refusals are logged
    within `LogBudget` and answered in clear within the budget all strangers share."""
    caplog.set_level(logging.INFO, logger="bang.host")
    clients, room = table(host, humans=1, seats=3)
    victim = clients[0]
    start(clients, room)
    victim.inbox()
    eve = crypto.ClientKey.generate()
    rng = random.Random(SEED)
    pub_errors = 0
    answered = 0
    asked = 0

    def junk(i: int) -> tuple[str, bytes]:
        kind = i % 6
        if kind == 0:  # random bytes from a fresh random id
            return p.inbox_topic(rng.randbytes(12).hex()), rng.randbytes(rng.randrange(200))
        if kind == 1:  # random bytes on the victim's inbox
            return p.inbox_topic(victim.cid), rng.randbytes(rng.randrange(200))
        if kind == 2:  # a forged box with the victim's key on the victim's inbox
            forged = p.Request(v=p.VERSION, pub=victim.key.public, ctr=rng.randrange(1, 2**62),
                               box=rng.randbytes(p.REQUEST_CLASS + 28))
            return p.inbox_topic(victim.cid), p.encode(forged)
        if kind == 3:  # a fresh key: the host must agree a session before it can refuse
            fresh = crypto.ClientKey.generate()
            forged = p.Request(v=p.VERSION, pub=fresh.public, ctr=rng.randrange(1, 2**62),
                               box=rng.randbytes(p.REQUEST_CLASS + 28))
            return p.inbox_topic(fresh.cid), p.encode(forged)
        if kind == 4:  # Eve's key on the victim's inbox
            forged = p.Request(v=p.VERSION, pub=eve.public, ctr=1, box=rng.randbytes(300))
            return p.inbox_topic(victim.cid), p.encode(forged)
        return p.inbox_topic(rng.randbytes(12).hex()), b"\x92" * rng.randrange(1, 9)

    budget = host.clear_answers.burst, host.clear_answers.rate
    lines = host.log_budget.lines, host.log_budget.window
    mark = len(caplog.records)
    started = time.monotonic()
    for i in range(5000):
        host.handle(*junk(i))
        if i % 50 == 49:
            state = host.rooms[room].state
            if state.winner is None and state.pending.seat == 0:
                message: Any = p.Act(room=room, decision=state.pending.id,
                                     action=state.pending.default)
            else:
                message = [p.ListRooms(), p.Snapshot(room=room), p.Hello()][i % 3]
            asked += 1
            got = victim.send(message)
            answer = [m for m in got if getattr(m, "ref", None) == victim.ctr]
            assert len(answer) == 1 and not isinstance(answer[0], p.Error), (message, got)
            answered += 1
            pub_errors += sum(isinstance(m, p.PublicError) for m in got)
            await asyncio.sleep(0)  # the bots move
    items = Bus.of(host).pump()
    elapsed = time.monotonic() - started
    assert asked == answered == 100

    # Refusals in clear: within the shared budget, whoever the senders claimed to be.
    clear = sum(1 for i in items if i.topic.endswith("/out") and i.payload and
                isinstance(p.decode_outbound(i.payload), p.Signed) and
                isinstance(verified(host, i.payload), p.PublicError))
    assert 0 < clear <= budget[0] + budget[1] * elapsed + 1, (clear, elapsed)
    assert pub_errors <= clear
    # The log: a few lines per window, not one per refusal.
    logged = [r for r in caplog.records[mark:] if r.name == "bang.host"]
    refusals = [r for r in logged if r.getMessage().startswith("refused from")]
    allowed = lines[0] * (elapsed // lines[1] + 2)
    assert 0 < len(refusals) <= allowed, len(refusals)
    assert len(logged) <= allowed + 10, len(logged)
    # The victim lost nothing: its counter, its seat, its view; newcomers are still welcome.
    assert host.clients.get(victim.cid)[1] == victim.ctr
    assert seat_online(host, room, victim)
    state = host.rooms[room].state
    assert state.actions > 0 and problems(state) == []
    assert victim.view_of(room).view == view(state, 0)
    assert isinstance(WireClient(host).reply(p.Hello()), p.Welcome)
