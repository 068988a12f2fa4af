"""100,000 hostile messages straight into the host core: random bytes, bit-flipped genuine
requests, genuine envelopes around random bodies, random topics. The host never raises, logs
no internal error, and an honest table plays on afterwards with nothing lost."""

from __future__ import annotations

import logging
import random

import msgspec
from hostkit import WireClient, host_errors

from server.host import Host
from server.ratelimit import RateLimiter
from shared import crypto
from shared import protocol as p
from shared.serialize import encode_state

KINDS = ["hello", "bye", "ping", "list", "create", "join", "watch", "ready", "start", "fill",
         "leave", "kick", "act", "snapshot", "handover", "dance"]
FIELDS = ["room", "name", "seat", "ready", "bots", "decision", "action", "options", "offset",
          "will", "kind", "card", "target", "cards", "pick", "seats", "pool", "turn_timeout"]


def value(rng: random.Random, depth: int = 0) -> object:
    choice = rng.randrange(8 if depth < 3 else 5)
    if choice == 0:
        return rng.randrange(-2**63, 2**64) if rng.random() < 0.2 else rng.randrange(-3, 90)
    if choice == 1:
        return "".join(chr(rng.randrange(0x20, 0x2FF)) for _ in range(rng.randrange(30)))
    if choice == 2:
        return rng.randbytes(rng.randrange(40))
    if choice == 3:
        return rng.choice([None, True, False, 1.5])
    if choice == 4:
        return rng.choice(["abc", "0" * 16, "x" * 17, "../#"])
    if choice == 5:
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(FIELDS): value(rng, depth + 1) for _ in range(rng.randrange(5))}


def body(rng: random.Random, room: str) -> bytes:
    message = {rng.choice(FIELDS): value(rng) for _ in range(rng.randrange(4))}
    message["t"] = rng.choice(KINDS)
    if rng.random() < 0.5:
        message["room"] = room
    return msgspec.msgpack.encode(message)


async def test_a_hundred_thousand_hostile_messages(host: Host, caplog) -> None:
    caplog.set_level(logging.INFO, logger="bang")
    honest = [WireClient(host) for _ in range(3)]
    room = honest[0].reply(p.CreateRoom(name="Honest", options=p.RoomOptions(seats=3))).room.id
    for i, client in enumerate(honest):
        client.reply(p.Join(room=room, name=f"H{i}"))
    for client in honest[1:]:
        client.reply(p.Ready(room=room))
    honest[0].reply(p.Start(room=room))
    state = host.rooms[room].state
    rng = random.Random(2026)
    strangers = [WireClient(host) for _ in range(4)]
    host.limiter = RateLimiter(rate=1e9, burst=1e9)  # let everything reach the deep checks
    genuine = [s.envelope(p.Hello()) for s in strangers]
    before = encode_state(state)
    for n in range(100_000):
        kind = n % 5
        stranger = strangers[n % len(strangers)]
        if kind == 0:
            topic, payload = p.inbox_topic(stranger.cid), rng.randbytes(rng.randrange(300))
        elif kind == 1:
            flipped = bytearray(rng.choice(genuine))
            flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
            topic, payload = p.inbox_topic(stranger.cid), bytes(flipped)
        elif kind == 2:
            stranger.ctr = crypto.next_counter(stranger.ctr)
            inner = body(rng, room)
            padded = p.pad(inner, p.REQUEST_CLASS) if len(inner) < 250 else inner
            box = crypto.seal(stranger.session.to_host, padded,
                              p.request_aad(stranger.cid, stranger.ctr))
            topic = p.inbox_topic(stranger.cid)
            payload = p.encode(p.Request(v=p.VERSION, pub=stranger.key.public,
                                         ctr=stranger.ctr, box=box))
        elif kind == 3:
            topic = rng.choice([f"bang/v2/c/{rng.randbytes(12).hex()}/in", "bang/v2/discover/x",
                                f"bang/v2/discover/{rng.randbytes(12).hex()}", "bang/v1/c/zz/in",
                                "#", "", "bang/v2/c//in"])
            payload = rng.randbytes(rng.randrange(100))
        else:
            topic = p.inbox_topic(honest[n % 3].cid)  # junk on the honest players' topics
            payload = msgspec.msgpack.encode(value(rng))
        host.handle(topic, payload)
        if n % 1000 == 0:
            host.flush()
            host.outbox.clear()
    host.flush()
    assert encode_state(state) == before  # strangers changed nothing in the honest game
    assert not host_errors(caplog.records)
    for client in honest:
        client.inbox()  # the clear errors the junk on their topics earned
    for _ in range(10):  # and the honest table plays on
        decision = state.pending
        answer = honest[decision.seat].reply(p.Act(room=room, decision=decision.id,
                                                   action=decision.default))
        assert isinstance(answer, p.SeatUpdate) and answer.ref is not None
