"""Thousands of random and mutated messages thrown at a live host while a game is played:
the host keeps running, answers, and every game stays intact and replays exactly."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import msgspec
from netkit import Player, seat_table, step

from client.net import Remote
from client.net.remote import mqtt_client
from server.store import Store
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.model import Action
from shared.serialize import encode_state

KINDS = ["play", "pass", "end_turn", "discard", "missed", "beer", "draw", "pick", "dance", ""]


def random_value(rng: random.Random, depth: int = 0) -> object:
    choice = rng.randrange(9 if depth < 3 else 6)
    if choice == 0:
        return rng.randint(-2**63, 2**64 - 1)
    if choice == 1:
        return rng.random() * 1e6
    if choice == 2:
        return "".join(chr(rng.randrange(0x20, 0x2FF)) for _ in range(rng.randrange(20)))
    if choice == 3:
        return rng.randbytes(rng.randrange(40))
    if choice == 4:
        return rng.choice([None, True, False])
    if choice == 5:
        return rng.choice(["hello", "act", "join", "create", "start", "watch", "leave"])
    if choice == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    keys = ["t", "v", "room", "name", "seat", "action", "decision", "kind", "card", "pub",
            "ctr", "box", "options", "seats", "ready", "bots"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(6))}


def random_action(rng: random.Random) -> Action:
    return Action(kind=rng.choice(KINDS), card=rng.choice([None, rng.randrange(-5, 90)]),
                  target=rng.choice([None, rng.randrange(-2, 9)]),
                  pick=rng.choice([None, rng.randrange(90)]),
                  cards=tuple(rng.randrange(90) for _ in range(rng.randrange(3))))


def mutate(rng: random.Random, data: bytes) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        op = rng.randrange(4)
        if op == 0 and buf:
            buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
        elif op == 1 and buf:
            del buf[rng.randrange(len(buf)):]
        elif op == 2:
            buf[rng.randrange(len(buf) + 1):0] = rng.randbytes(rng.randrange(1, 9))
        else:
            buf += rng.randbytes(rng.randrange(1, 30))
    return bytes(buf)


class Fuzzer:
    """Valid crypto for its own identities, so some fuzz reaches the rooms' logic."""

    def __init__(self, host_kx: bytes, rng: random.Random) -> None:
        self.rng = rng
        self.keys = [crypto.ClientKey.generate() for _ in range(8)]
        self.sessions = [crypto.Session.for_client(k, host_kx) for k in self.keys]
        self.ctr = 0

    def sealed(self, message_bytes: bytes, first: int = 0) -> tuple[str, bytes]:
        """Sealed for one of the fuzz identities, padded to the request class as a client
        pads it (now and then not, or when it does not fit: the host refuses the padding)."""
        i = self.rng.randrange(first, len(self.keys))
        key, session = self.keys[i], self.sessions[i]
        self.ctr = crypto.next_counter(self.ctr)
        ctr = self.ctr if self.rng.random() > 0.05 else self.rng.randrange(10)
        if len(message_bytes) + 2 <= p.REQUEST_CLASS and self.rng.random() > 0.05:
            message_bytes = p.pad(message_bytes, p.REQUEST_CLASS)
        box = crypto.seal(session.to_host, message_bytes, p.request_aad(key.cid, ctr))
        return p.inbox_topic(key.cid), p.encode(p.Request(v=p.VERSION, pub=key.public,
                                                          ctr=ctr, box=box))

    def answer(self, topic: str, payload: bytes) -> object | None:
        """What the host sent to an outbox: a signed message (anyone may read it), or a
        sealed reply to one of our identities, opened. None for someone else's sealed box."""
        envelope = p.decode_outbound(payload)
        if isinstance(envelope, p.Signed):
            return p.decode_public(envelope.body)
        for key, session in zip(self.keys, self.sessions, strict=True):
            if topic == p.outbox_topic(key.cid):
                plain = crypto.open_box(session.to_client, envelope.box, p.reply_aad(key.cid))
                return p.decode_reply(p.unpad(plain, p.REPLY_CLASSES))
        return None

    def message(self, rooms: list[str]) -> tuple[str, bytes]:
        rng = self.rng
        room = rng.choice(rooms)
        kind = rng.randrange(8)
        if kind == 0:  # random bytes on a random inbox
            return p.inbox_topic(rng.randbytes(12).hex()), rng.randbytes(rng.randrange(300))
        if kind == 1:  # random MessagePack
            return (p.inbox_topic(rng.randbytes(12).hex()),
                    msgspec.msgpack.encode(random_value(rng)))
        if kind == 2:  # a valid envelope, mutated
            topic, data = self.sealed(p.encode(p.Hello()))
            return topic, mutate(rng, data)
        if kind == 3:  # valid crypto, random inner MessagePack
            return self.sealed(msgspec.msgpack.encode(random_value(rng)))
        if kind == 4:  # valid crypto, a random action in the real room
            act = p.Act(room=room, decision=rng.randrange(-1, 400), action=random_action(rng))
            return self.sealed(p.encode(act))
        if kind == 5:  # valid crypto, lobby requests on the real room
            message = rng.choice([
                p.Join(room=room, name="fuzz"), p.Leave(room=room), p.Start(room=room),
                p.Ready(room=room), p.FillBots(room=room), p.Handover(room=room, seat=1),
                p.Snapshot(room=room), p.Watch(room=room), p.ListRooms(), p.Hello(),
                p.CreateRoom(name="fz", options=p.RoomOptions(seats=rng.randrange(3, 8))),
            ])
            return self.sealed(p.encode(message), first=1)  # identity 0 keeps its seat
        if kind == 6:  # a valid inner message, mutated before sealing
            act = p.Act(room=room, decision=1, action=random_action(rng))
            return self.sealed(mutate(rng, p.encode(act)))
        return p.inbox_topic(self.keys[0].cid), b"\x92" * (p.MAX_BYTES + rng.randrange(1, 9))


async def test_fuzz_a_live_host(running_host, tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bang")
    host = running_host.host
    table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
    bots = [RandomBot(i) for i in range(4)]
    rng = random.Random(20261129)
    fuzzer = Fuzzer(host.keys.kx_public, rng)
    # One fuzz identity holds a seat in a table of bots, so its random actions meet the rules.
    own = Remote(running_host.url, config_dir=tmp_path / "fuzz", key=fuzzer.keys[0])
    async with own:
        await own.wait_connected()
        bot_room = (await own.create_room("fuzz table", seats=3, turn_timeout=0)).id
        await own.join(bot_room, "fuzz")
        await own.start(bot_room, bots=True)
    fuzzer.ctr = own._ctr
    address = p.parse_broker_url(running_host.url)
    sent = 0

    async def throw() -> None:
        nonlocal sent
        async with mqtt_client(address) as client:
            for _ in range(3000):
                topic, payload = fuzzer.message([room, bot_room])
                await client.publish(topic, payload, qos=0)
                sent += 1
                if sent % 50 == 0:
                    await asyncio.sleep(0.005)

    # The refusals come back on the senders' outboxes: signed in clear when the request could
    # not be authenticated, sealed (and opened here) for the fuzz identities.
    refusals: set[str] = set()

    async def listen(client) -> None:
        async for message in client.messages:
            payload = bytes(message.payload)
            if payload:
                answer = fuzzer.answer(message.topic.value, payload)
                if isinstance(answer, p.Error | p.PublicError):
                    refusals.add(answer.code)

    async with mqtt_client(address) as listener:
        await listener.subscribe(p.outbox_topic("+"), qos=1)
        listening = asyncio.create_task(listen(listener))
        fuzzing = asyncio.create_task(throw())
        while await step(table, room, bots):
            pass
        await fuzzing
        await asyncio.sleep(0.5)
        listening.cancel()
    assert sent == 3000

    # Nothing failed inside the host; refusals were answered, and logged within the log's
    # budget: thousands of refusals, a few lines.
    assert not [r for r in caplog.records  # the host's (not an earlier test's leftovers)
                if r.levelno >= logging.ERROR and r.name.startswith("bang")]
    assert {"malformed", "invalid", "bad_box", "too_large", "padding", "not_seated"} <= refusals
    assert refusals & {"illegal", "stale"}  # actions the rules or the decision id refused
    logged = [r for r in caplog.records if r.getMessage().startswith("refused from")]
    budget = host.log_budget
    span = logged[-1].created - logged[0].created
    assert 0 < len(logged) <= budget.lines * (span // budget.window + 1)
    # The host still answers, and every game is intact.
    late = await Player(running_host.url, tmp_path / "late").open()
    rooms = await late.remote.list_rooms()
    assert room in [r.id for r in rooms]
    await late.close()
    state = host.rooms[room].state
    assert state.winner is not None
    assert [s.kind for s in host.rooms[room].record.seats] == ["human"] * 4
    for live in host.rooms.values():
        if live.state is not None:
            assert problems(live.state) == [], live.id
    store = Store(running_host.data)
    for restored in store.load_rooms(keep_finished=100):
        live = host.rooms[restored.id]
        assert restored.record == live.record
        if live.state is not None:
            assert encode_state(restored.state) == encode_state(live.state)
    store.close()
    for player in table:
        await player.close()
