"""A stranger on a shared broker (Mosquitto and the embedded amqtt broker) against honest
players using the real client (`client.net.Remote`): each test plays one attack and checks
that the honest side notices nothing but keeps playing, with nothing lost."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiomqtt
import msgspec
import pytest
from netkit import Player

from client.net import Status, TableUpdate
from client.net.remote import mqtt_client
from server.host import Host
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.views import view

ROOT = Path(__file__).resolve().parents[2]


def of_room(room: str, test: Callable[[TableUpdate], bool]) -> Callable[[Any], bool]:
    return lambda u: isinstance(u, TableUpdate) and u.room == room and test(u)


def my_turn_or_over(room: str, answered: int | None = None) -> Callable[[Any], bool]:
    return of_room(room, lambda u: u.info.status == "over" or (
        u.view is not None and bool(u.view.options) and u.view.pending.id != answered))


async def solo_game(player: Player, seats: int = 3) -> str:
    """Create a room, sit at seat 0 and start it with in-host bots in the other seats."""
    room = await player.remote.create_room("Solo", seats=seats, turn_timeout=0)
    assert await player.remote.join(room.id, "Ann") == 0
    await player.remote.start(room.id, bots=True)
    return room.id


async def play_strict(player: Player, room: str, seed: int, since: int = 0,
                      moves: int | None = None, pace: float = 0.0,
                      on_move: Callable[[], None] | None = None) -> tuple[TableUpdate, int, int]:
    """Answer every decision of our seat (updates from index `since` on) until the game is
    over, or after `moves` answers, `pace` seconds apart at least; a refused or unanswered
    request (RemoteError) fails the test. Returns the last update, the number of answers and
    the update's index."""
    bot = RandomBot(seed)
    answered: int | None = None
    count = 0
    while True:
        index, update = await player.next(my_turn_or_over(room, answered), since)
        since = index + 1
        if update.info.status == "over" or count == moves:
            return update, count, index
        answered = update.view.pending.id
        await player.remote.act(room, answered, bot.choose(update.view))  # raises if refused
        count += 1
        if on_move is not None:
            on_move()
        await asyncio.sleep(pace)


async def quiet(player: Player, host: Host, room: str, since: int = 0) -> tuple[int, Any]:
    """Until the room waits on our seat (or is over) and our view has caught up with it."""
    return await player.next(of_room(room, lambda u: u.seq == host.rooms[room].record.seq and (
        u.info.status == "over" or bool(u.view and u.view.options))), since)


def check_view(update: TableUpdate, host: Host, room: str, seat: int = 0) -> None:
    """The client's picture is exactly the host's."""
    live = host.rooms[room]
    assert update.seq == live.record.seq
    assert update.view == view(live.state, seat)
    assert update.info == live.info()


async def first_message(client: aiomqtt.Client, topic: str, timeout: float = 10.0) -> bytes:
    """The first non-empty message on `topic` (retained or live)."""
    async with asyncio.timeout(timeout):
        async for message in client.messages:
            if message.topic.value == topic and message.payload:
                return bytes(message.payload)
    raise AssertionError("the subscription ended")


async def retained(address: p.BrokerAddress, topic: str) -> list[bytes]:
    """What a new subscriber to `topic` gets at once: a sentinel published after the
    subscription marks the end of the retained messages."""
    sentinel = f"bang-test/{secrets.token_hex(6)}"
    got: list[bytes] = []
    async with mqtt_client(address) as client:
        await client.subscribe(topic, qos=1)
        await client.subscribe(sentinel, qos=1)
        await client.publish(sentinel, b"end", qos=1)
        async with asyncio.timeout(10):
            async for message in client.messages:
                if message.topic.value == sentinel:
                    return got
                got.append(bytes(message.payload))
    raise AssertionError("the subscription ended")


def signed_by(keys: crypto.HostKeys, message: Any) -> bytes:
    body = p.encode(message)
    return p.encode(p.Signed(v=p.VERSION, body=body, sig=crypto.sign(keys, body)))


# --- 9. a cleared host topic ------------------------------------------------------------------


async def test_a_cleared_host_topic_does_not_hide_the_host(running_host, tmp_path: Path) -> None:
    """Attack: empty the retained announce on bang/v2/host so newcomers find no host.
    Guards discovery: the host answers `bang/v2/discover/{cid}` with its signed announce on
    the asker's outbox, so a brand-new client still finds it and plays."""
    host = running_host.host
    address = p.parse_broker_url(running_host.url)
    async with mqtt_client(address) as stranger:
        await stranger.subscribe(p.HOST_TOPIC, qos=1)
        await first_message(stranger, p.HOST_TOPIC)  # the host has announced itself
        await stranger.publish(p.HOST_TOPIC, b"", qos=1, retain=True)
    assert not [m for m in await retained(address, p.HOST_TOPIC) if m]

    newcomer = await Player(running_host.url, tmp_path / "new").open()  # knows nothing
    try:
        assert newcomer.remote.host is not None
        assert newcomer.remote.host.fingerprint == host.keys.fingerprint
        room = await solo_game(newcomer)
        final, moves, _ = await play_strict(newcomer, room, seed=9)
        assert moves > 0 and final.info.status == "over"
        assert problems(host.rooms[room].state) == []
        check_view(final, host, room)
    finally:
        await newcomer.close()


# --- 10. a forged host announce ----------------------------------------------------------------


async def test_a_forged_host_announce_is_ignored(running_host, tmp_path: Path) -> None:
    """Attack: a retained, validly self-signed HostHello with the stranger's keys on
    bang/v2/host (and on a victim's outbox). Guards the client's trust: a client that
    pinned the real host (known_hosts) ignores it and plays on; a new client told the real
    `fingerprint=` connects to the real host, never to the stranger."""
    host = running_host.host
    real = host.keys.fingerprint
    address = p.parse_broker_url(running_host.url)
    ann = await Player(running_host.url, tmp_path / "ann").open()  # pins the real host
    bob: Player | None = None
    try:
        room = await solo_game(ann)
        since, _ = await quiet(ann, host, room)
        eve = crypto.HostKeys.generate()
        forged = signed_by(eve, p.HostHello(sign_key=eve.sign_public, kx_key=eve.kx_public,
                                            fingerprint=eve.fingerprint, n=2**62, link=7))
        async with mqtt_client(address) as stranger:
            await stranger.publish(p.HOST_TOPIC, forged, qos=1, retain=True)
            await stranger.publish(p.outbox_topic(ann.remote.cid), forged, qos=1)
        _, status = await ann.next(lambda u: isinstance(u, Status) and
                                   eve.fingerprint in u.reason)
        assert not status.connected  # said once, and ignored
        assert ann.remote.host.fingerprint == real
        final, moves, _ = await play_strict(ann, room, seed=10, since=since)  # plays on
        assert moves > 0 and final.info.status == "over"
        check_view(final, host, room)
        assert ann.remote.host.fingerprint == real

        assert forged in await retained(address, p.HOST_TOPIC)  # still there for Bob
        bob = await Player(running_host.url, tmp_path / "bob", fingerprint=real).open()
        assert bob.remote.host.fingerprint == real
        assert room in [r.id for r in await bob.remote.list_rooms()]
        await bob.next(lambda u: isinstance(u, Status) and eve.fingerprint in u.reason)
        assert bob.remote.host.fingerprint == real
        assert isinstance(await bob.remote.request(p.Hello()), p.Welcome)
    finally:
        await ann.close()
        if bob is not None:
            await bob.close()


# --- 11. a stolen client id ---------------------------------------------------------------------


async def test_reusing_a_client_id_does_not_kick_the_victim(
        running_host, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attack: the client id is in every topic; the stranger connects with MQTT identifier
    = that id and username = that id, hoping the broker drops the victim's connection (and
    fires its will). Guards the client's random MQTT identifier per connection: the victim
    stays connected (no Status(False)) and its seat stays online."""
    caplog.set_level(logging.INFO, logger="bang.host")
    host = running_host.host
    victim = await Player(running_host.url, tmp_path / "victim").open()
    try:
        room = await solo_game(victim)
        since, _ = await quiet(victim, host, room)
        cid = victim.remote.cid
        mark = len(victim.updates)
        address = p.parse_broker_url(running_host.url)
        as_victim = p.BrokerAddress(address.host, address.port, username=cid)
        async with mqtt_client(as_victim, identifier=cid) as stranger:
            await stranger.subscribe(p.outbox_topic(cid), qos=1)
            await stranger.publish(p.inbox_topic(cid), b"\xc1", qos=1)
            # Requests go through while the stranger is on (a kicked client would have lost
            # its link, fired its will and reconnected by now).
            assert room in [r.id for r in await victim.remote.list_rooms()]
            last, moves, since = await play_strict(victim, room, seed=11, since=since, moves=3)
            assert moves == 3 or last.info.status == "over"  # (a game may end sooner)
            assert room in [r.id for r in await victim.remote.list_rooms()]
            await asyncio.sleep(0.5)
        assert not [u for u in victim.updates[mark:] if isinstance(u, Status)]
        assert not [r for r in caplog.records if "went away" in r.getMessage()]
        live = host.rooms[room]
        assert cid in live.online and live.info().seats[0].online
        for update in victim.updates[mark:]:
            if isinstance(update, TableUpdate):
                assert update.info.seats[0].online, update.info
        final, _, _ = await play_strict(victim, room, seed=111, since=since)
        assert final.info.status == "over"
        check_view(final, host, room)
    finally:
        await victim.close()


# --- 12. forged and replayed public messages --------------------------------------------------


async def test_forged_and_replayed_public_messages_do_not_reach_the_view(
        running_host, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Attack: publish on the room topic a RoomDelta signed with the wrong key, a genuine
    one with a tampered body, and old genuine messages captured on '#' (a RoomDelta, a
    LobbyEntry, a RoomSnapshot). Guards the client: the Ed25519 check of every signed message
    (`crypto.verify`), and `_fresh_n` / the mirror's `seq` that drop old ones. The view
    afterwards is exactly the host's."""
    caplog.set_level(logging.DEBUG, logger="bang.remote")
    host = running_host.host
    address = p.parse_broker_url(running_host.url)
    heard: list[tuple[str, bytes]] = []

    async def capture(client: aiomqtt.Client) -> None:
        async for message in client.messages:
            heard.append((message.topic.value, bytes(message.payload)))

    def captured(topic: str, kind: type, test: Callable[[Any], bool] = lambda m: True) -> bytes:
        for where, payload in heard:
            envelope = p.decode_outbound(payload) if where == topic and payload else None
            if isinstance(envelope, p.Signed):
                message = p.decode_public(envelope.body)
                if isinstance(message, kind) and test(message):
                    return payload
        raise AssertionError(f"no {kind.__name__} captured on {topic}")

    honest: Player | None = None
    async with mqtt_client(address) as stranger:
        await stranger.subscribe("#", qos=1)
        listening = asyncio.create_task(capture(stranger))
        try:
            honest = await Player(running_host.url, tmp_path / "honest").open()
            room = (await honest.remote.create_room("Solo", seats=3, turn_timeout=0)).id
            assert await honest.remote.join(room, "Ann") == 0
            lobby = p.lobby_topic(room)
            async with asyncio.timeout(10):  # the stranger keeps the lobby entry of then
                while not any(t == lobby and m for t, m in heard):
                    await asyncio.sleep(0.02)
            await honest.remote.start(room, bots=True)
            since, update = await quiet(honest, host, room)
            async with asyncio.timeout(10):  # and the honest client's lobby is up to date
                while getattr(honest.remote.lobby.get(room), "status", "") != "playing":
                    await asyncio.sleep(0.02)
            seq = host.rooms[room].record.seq
            state = host.rooms[room].state
            outbox = p.outbox_topic(honest.remote.cid)

            old_delta = captured(p.room_topic(room), p.RoomDelta)
            old_entry = captured(lobby, p.LobbyEntry, lambda m: m.room.status == "waiting")
            old_snapshot = captured(outbox, p.RoomSnapshot)
            pwned = msgspec.structs.replace(update.info, name="pwned")
            fake = p.RoomDelta(room=room, seq=seq + 1, n=2**62, info=pwned,
                               table=p.TableDelta(three_player=not state.three_player))
            eve = crypto.HostKeys.generate()
            genuine = p.decode_outbound(old_delta)
            tampered = p.encode(p.Signed(v=p.VERSION, body=p.encode(fake), sig=genuine.sig))
            mark = len(honest.updates)
            attacks = [
                (p.room_topic(room), signed_by(eve, fake)),  # the wrong key
                (p.room_topic(room), tampered),  # a genuine signature, another body
                (p.room_topic(room), old_delta),  # replays of old genuine messages
                (lobby, old_entry),
                (outbox, old_snapshot),
                (outbox, signed_by(eve, p.PublicError(code="forged", message="x", n=2**62))),
            ]
            for topic, payload in attacks:
                await stranger.publish(topic, payload, qos=1)
            # A malformed message after them on each topic: once the client has logged it,
            # it has handled what came before (one publisher, one topic: in order).
            for topic in {t for t, _ in attacks}:
                await stranger.publish(topic, b"\xc1", qos=1)
                async with asyncio.timeout(10):
                    while not any(r.getMessage().startswith(f"ignored a message on {topic}:")
                                  and "MessagePack" in r.getMessage() for r in caplog.records):
                        await asyncio.sleep(0.02)

            assert not [u for u in honest.updates[mark:] if isinstance(u, TableUpdate)]
            assert not [u for u in honest.updates[mark:] if isinstance(u, p.PublicError)]
            assert honest.remote.lobby[room].status == "playing"
            assert honest.remote.lobby[room].name != "pwned"
            # The game goes on; the client's view is the host's, move after move.
            final, moves, _ = await play_strict(honest, room, seed=12, since=since)
            assert moves > 0 and final.info.status == "over"
            check_view(final, host, room)
            assert not [u for u in honest.updates[mark:]
                        if isinstance(u, TableUpdate) and u.info.name == "pwned"]
        finally:
            listening.cancel()
            if honest is not None:
                await honest.close()


# --- 13. a pre-auth flood over the broker -----------------------------------------------------

#: The stranger's flood, run as a program of its own (as a stranger would): argv is the broker
#: URL, then the victims' client ids and public keys in hex. Prints how many it sent and how
#: long it took.
FLOOD = """
import asyncio, random, sys, time
from client.net.remote import mqtt_client
from shared import protocol as p

url, victims = sys.argv[1], sys.argv[2:]
victims = [(victims[i], bytes.fromhex(victims[i + 1])) for i in range(0, len(victims), 2)]
rng = random.Random(13)

def junk(i):
    kind, (cid, pub) = i % 6, victims[i % len(victims)]
    if kind in (0, 1):  # a forged box with the victim's key, on the victim's inbox
        forged = p.Request(v=p.VERSION, pub=pub, ctr=rng.randrange(1, 2**62),
                           box=rng.randbytes(p.REQUEST_CLASS + 28))
        return p.inbox_topic(cid), p.encode(forged)
    if kind == 2:  # random bytes on the victim's inbox
        return p.inbox_topic(cid), rng.randbytes(rng.randrange(1, 300))
    if kind == 3:  # a fresh random id
        forged = p.Request(v=p.VERSION, pub=rng.randbytes(32), ctr=1, box=rng.randbytes(60))
        return p.inbox_topic(rng.randbytes(12).hex()), p.encode(forged)
    topic = rng.choice([p.room_topic("x" + rng.randbytes(4).hex()), p.HOST_TOPIC,
                        p.outbox_topic(cid), "junk/%d" % rng.randrange(1000)])
    return topic, rng.randbytes(rng.randrange(1, 200))

async def main():
    sent, started = 0, time.monotonic()
    async with mqtt_client(p.parse_broker_url(url)) as stranger:
        for second in range(3):
            for tick in range(20):  # 50 messages every 50 ms
                for _ in range(50):
                    await stranger.publish(*junk(sent), qos=0)
                    sent += 1
                await asyncio.sleep(max(0.0, started + second + (tick + 1) / 20
                                        - time.monotonic()))
    print(sent, round(time.monotonic() - started, 2))

asyncio.run(main())
"""


async def test_a_flood_of_junk_over_the_broker_starves_nobody(
        running_host, tmp_path: Path) -> None:
    """Attack: ~1,000 junk messages a second for ~3 s on the players' inboxes (forged boxes
    with their own keys, random bytes), fresh random inboxes and random topics. Guards the
    host's budgets: a client's budget is charged only after it is authenticated, strangers
    share theirs; every request of the honest players is answered and their games go on."""
    host = running_host.host
    honest = await Player(running_host.url, tmp_path / "honest").open()
    other = await Player(running_host.url, tmp_path / "other").open()
    victims = [x for r in (honest.remote, other.remote) for x in (r.cid, r.key.public.hex())]
    games = moves = asked = during = 0

    def moved() -> None:
        nonlocal during
        during += not flooded.done()

    try:
        flooding = await asyncio.create_subprocess_exec(
            sys.executable, "-c", FLOOD, running_host.url, *victims, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE)
        flooded = asyncio.create_task(flooding.communicate())
        while True:  # back-to-back games while the flood lasts
            since = len(honest.updates)
            room = await solo_game(honest)
            # At most ~25 requests a second: a quick human, well within the host's budget.
            final, count, _ = await play_strict(honest, room, seed=games, since=since,
                                                pace=0.04, on_move=moved)
            games, moves = games + 1, moves + count
            rooms = await other.remote.list_rooms()  # the other player is answered too
            asked += 1
            assert room in [r.id for r in rooms]
            check_view(final, host, room)
            assert problems(host.rooms[room].state) == []
            if flooded.done():
                break
        out, _ = await flooded
        assert flooding.returncode == 0
    finally:
        await honest.close()
        await other.close()
    sent, seconds = out.split()
    print(f"flood: {int(sent)} messages in {float(seconds)} s; {games} games, {moves} moves, "
          f"{during} during the flood")
    assert int(sent) == 3000
    assert games >= 1 and during >= 1 and asked == games


# --- 14. an oversized message on the host's inbox ---------------------------------------------


async def test_an_oversized_message_on_an_inbox_is_skipped(running_host, tmp_path: Path) -> None:
    """Attack: a 3 MB message on a player's inbox, then on the discovery topic, split over many
    reads. Guards the host's own MQTT reader (shared.mqtt): it skips a packet over its limit,
    stays in step with the stream, and the player still plays."""
    address = p.parse_broker_url(running_host.url)
    player = await Player(running_host.url, tmp_path / "victim").open()
    try:
        async with mqtt_client(address) as stranger:
            for topic in (p.inbox_topic(player.remote.cid), p.discover_topic("ab" * 12)):
                await stranger.publish(topic, secrets.token_bytes(3 << 20), qos=1)
        room = await solo_game(player)
        final, moves, _ = await play_strict(player, room, seed=14)
        assert moves > 0 and final.info.status == "over"
    finally:
        await player.close()
