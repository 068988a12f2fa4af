"""On a shared broker: an outsider reading `#` learns no hand or role (sealed payloads even
come in a few fixed lengths), a spectator sees the public view only, and forged, replayed or
spectator actions are refused, as is a replayed goodbye."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiomqtt
from msgspec import UNSET
from netkit import Player, seat_table, step

from client.net import RemoteError, Status, TableUpdate
from client.net.remote import mqtt_client
from server import legacy
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.model import Action
from shared.roles import SHERIFF
from shared.views import TableView, view
from shared.wireview import patch

SECRET_ROLES = (b"outlaw", b"renegade", b"deputy")


async def eavesdrop(client: aiomqtt.Client, log: list[tuple[str, bytes]]) -> None:
    async for message in client.messages:
        log.append((message.topic.value, bytes(message.payload)))


def check_public_view(view, over: bool) -> None:
    assert view.viewer is None and view.hand == () and view.role is None
    assert view.options == () and view.private == () and view.default is None
    for player in view.players:
        if player.role is not None:
            assert player.role == SHERIFF or not player.alive or over


async def eventually(condition, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def host_has_read(client: aiomqtt.Client) -> None:
    """A barrier: the host answers a discovery request from `client` only after it has read
    what `client` published before it."""
    asker = crypto.ClientKey.generate().cid
    await client.subscribe(p.outbox_topic(asker), qos=1)
    await client.publish(p.discover_topic(asker), b"", qos=1)
    async with asyncio.timeout(10):
        async for message in client.messages:
            if message.topic.value == p.outbox_topic(asker):
                return


def sealed_lengths() -> set[int]:
    """The length of a Sealed envelope of each reply class: the only lengths an outsider may
    see on an outbox (the box is a padded body, a nonce and a tag)."""
    session = crypto.Session.for_client(crypto.ClientKey.generate(),
                                        crypto.HostKeys.generate().kx_public)
    return {len(p.encode(p.Sealed(v=p.VERSION, box=crypto.seal(session.to_client,
                                                               bytes(size), b""))))
            for size in p.REPLY_CLASSES}


def check_public_delta(delta: p.RoomDelta, over: bool) -> None:
    """A public room change: private cards travel as counts, hidden roles not at all."""
    for event in delta.events:
        assert not (event.private_to and event.cards), event
    if delta.table is None or delta.table.players is UNSET:
        return
    for player in delta.table.players:
        if player.role is not None:
            assert player.role == SHERIFF or not player.alive or over, player


async def test_outsider_and_spectator_learn_no_secrets(running_host, tmp_path: Path) -> None:
    address = p.parse_broker_url(running_host.url)
    heard: list[tuple[str, bytes]] = []
    async with mqtt_client(address) as outsider:
        await outsider.subscribe("#", qos=1)
        listening = asyncio.create_task(eavesdrop(outsider, heard))
        table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
        spectator = await Player(running_host.url, tmp_path / "spectator").open()
        await spectator.remote.watch(room)
        shown = await spectator.until(lambda u: isinstance(u, TableUpdate) and u.view)
        try:
            await spectator.remote.act(room, shown.view.pending.id, Action(kind="end_turn"))
            raise AssertionError("a spectator acted")
        except RemoteError as exc:
            assert exc.code == "not_seated"
        bots = [RandomBot(i) for i in range(4)]
        while await step(table, room, bots):
            pass
        await spectator.until(lambda u: isinstance(u, TableUpdate) and u.info.status == "over")
        await asyncio.sleep(1.5)  # the retained snapshot catches up with the end
        listening.cancel()

        state = running_host.host.rooms[room].state
        assert state.winner is not None and problems(state) == []

        # The spectator saw public views only.
        seen = [u for u in spectator.updates if isinstance(u, TableUpdate) and u.view]
        assert seen and all(u.seat is None for u in seen)
        for update in seen:
            check_public_view(update.view, update.info.status == "over")
            for event in update.events:
                assert not (event.private_to and event.cards)
        assert seen[-1].view == view(state, None)

        # The outsider: sealed traffic stays shut and comes in a few fixed lengths; signed
        # traffic is public views only; version 1's topics only carry the host's announce.
        me = crypto.ClientKey.generate()
        my_session = crypto.Session.for_client(me, running_host.host.keys.kx_public)
        lengths = sealed_lengths()
        box_length = len(crypto.seal(my_session.to_host, bytes(p.REQUEST_CLASS), b""))
        kinds: set[str] = set()
        sealed_seen: set[int] = set()
        public: dict[str, TableView] = {}  # room -> its view, rebuilt from the deltas
        over: set[str] = set()
        for topic, payload in heard:
            if not topic.startswith(f"{p.ROOT}/"):
                assert topic == legacy.HOST_TOPIC, topic
                assert not any(role in payload for role in SECRET_ROLES)
                continue
            if not payload:  # an emptied retained topic, or a request for the host's hello
                continue
            if topic.endswith("/in"):
                request = p.decode_request(payload)
                kinds.add("request")
                assert len(request.box) == box_length
                assert not any(role in request.box for role in SECRET_ROLES)
                continue
            envelope = p.decode_outbound(payload)
            if isinstance(envelope, p.Sealed):
                kinds.add("sealed")
                assert topic.endswith("/out"), topic
                assert len(payload) in lengths, (len(payload), lengths)
                sealed_seen.add(len(payload))
                assert not any(role in envelope.box for role in SECRET_ROLES)
                try:
                    crypto.open_box(my_session.to_client, envelope.box, p.reply_aad(me.cid))
                    raise AssertionError("an outsider opened a sealed box")
                except crypto.CryptoError:
                    pass
                continue
            kinds.add("signed")
            crypto.verify(running_host.host.keys.sign_public, envelope.sig, envelope.body)
            message = p.decode_public(envelope.body)
            if isinstance(message, p.RoomSnapshot) and message.view is not None:
                check_public_view(message.view, message.info.status == "over")
            elif isinstance(message, p.RoomDelta) and topic == p.room_topic(message.room):
                if message.info is not None and message.info.status == "over":
                    over.add(message.room)
                if message.table is not None:
                    if message.table.winner not in (UNSET, None):
                        over.add(message.room)
                    public[message.room] = patch(public.get(message.room), message.table)
                    check_public_view(public[message.room], message.room in over)
                check_public_delta(message, message.room in over)
            elif isinstance(message, p.LobbyEntry):
                assert topic == p.lobby_topic(message.room.id)
        assert kinds == {"request", "sealed", "signed"}
        assert len(sealed_seen) >= 2  # replies, and seat updates that carry options
        # Piecing the public deltas together gives the spectators' view, nothing more.
        assert public[room] == view(state, None)
    for player in [*table, spectator]:
        await player.close()


async def test_forged_and_replayed_actions_are_refused(running_host, tmp_path: Path) -> None:
    address = p.parse_broker_url(running_host.url)
    heard: list[tuple[str, bytes]] = []
    async with mqtt_client(address) as attacker:
        table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
        victim = table[0]
        # Which of the victim's (sealed, same-sized) requests are actions or goodbyes: the
        # test knows, the attacker needs not.
        acts: set[bytes] = set()
        byes: set[bytes] = set()
        seal = victim.remote._seal

        def spy(message: p.ClientMessage) -> tuple[int, bytes]:
            ctr, envelope = seal(message)
            if isinstance(message, p.Act):
                acts.add(envelope)
            elif isinstance(message, p.Bye):
                byes.add(envelope)
            return ctr, envelope

        victim.remote._seal = spy
        await attacker.subscribe(p.inbox_topic(victim.remote.cid), qos=1)
        listening = asyncio.create_task(eavesdrop(attacker, heard))
        bots = [RandomBot(i) for i in range(4)]
        for steps in range(500):
            if steps >= 20 and any(payload in acts for _, payload in heard):
                break
            assert await step(table, room, bots), "the game ended before the victim acted"
        await asyncio.sleep(0.2)
        listening.cancel()
        action = [payload for _, payload in heard if payload in acts][-1]
        state = running_host.host.rooms[room].state
        actions = state.actions
        victim.updates.clear()

        # 1. replay a captured action of the victim, verbatim
        await attacker.publish(p.inbox_topic(victim.remote.cid), action, qos=1)
        error = await victim.until(lambda u: isinstance(u, p.Error))
        assert error.code == "replay"
        # 2. a fresh counter on the captured box: the box no longer opens
        captured = p.decode_request(action)
        forged = p.Request(v=p.VERSION, pub=captured.pub, ctr=captured.ctr + 10**9,
                           box=captured.box)
        await attacker.publish(p.inbox_topic(victim.remote.cid), p.encode(forged), qos=1)
        error = await victim.until(lambda u: isinstance(u, p.PublicError))
        assert error.code == "bad_box"
        # 3. the attacker's own key on the victim's topic
        eve = crypto.ClientKey.generate()
        session = crypto.Session.for_client(eve, running_host.host.keys.kx_public)
        decision = state.pending
        act = p.Act(room=room, decision=decision.id, action=decision.default)
        box = crypto.seal(session.to_host, p.pad(p.encode(act), p.REQUEST_CLASS),
                          p.request_aad(victim.remote.cid, 1))
        mine = p.Request(v=p.VERSION, pub=eve.public, ctr=crypto.next_counter(0), box=box)
        await attacker.publish(p.inbox_topic(victim.remote.cid), p.encode(mine), qos=1)
        error = await victim.until(lambda u: isinstance(u, p.PublicError) and u.code == "bad_key")
        # 4. the attacker's own identity, acting in a room where it has no seat
        intruder = await Player(running_host.url, tmp_path / "eve").open()
        try:
            await intruder.remote.act(room, decision.id, decision.default)
            raise AssertionError("an intruder acted")
        except RemoteError as exc:
            assert exc.code == "not_seated"
        assert state.actions == actions
        # 5. the victim's goodbye (a clean close), replayed once the victim is back: ignored
        # (the host takes it for a late will of an old connection), the seat stays online
        live = running_host.host.rooms[room]
        heard.clear()
        listening = asyncio.create_task(eavesdrop(attacker, heard))
        await victim.close()
        await eventually(lambda: not live.info().seats[0].online)
        await eventually(lambda: any(payload in byes for _, payload in heard))
        listening.cancel()
        bye = next(payload for _, payload in heard if payload in byes)
        victim = table[0] = await Player(running_host.url, tmp_path / "client0").open()
        assert live.info().seats[0].online
        await attacker.publish(p.inbox_topic(victim.remote.cid), bye, qos=1)
        await host_has_read(attacker)  # ... everything the attacker sent before
        assert live.info().seats[0].online
    for player in [*table, intruder]:
        await player.close()


async def test_a_pinned_client_never_talks_to_another_host(broker_url: str,
                                                           tmp_path: Path) -> None:
    from netkit import RunningHost

    first = RunningHost(broker_url, tmp_path / "first.sqlite3")
    await first.start()
    player = await Player(broker_url, tmp_path / "me").open()  # pins the first host
    await player.close()
    await first.stop()
    impostor = RunningHost(broker_url, tmp_path / "impostor.sqlite3")  # new keys
    host = await impostor.start()
    try:
        back = Player(broker_url, tmp_path / "me")
        await back.remote.__aenter__()
        async def first_status() -> Status:
            async for update in back.remote.updates():
                if isinstance(update, Status):
                    return update
            raise AssertionError("the update stream ended")

        status = await asyncio.wait_for(first_status(), 10)
        assert not status.connected and host.keys.fingerprint in status.reason
        assert back.remote.host is not None  # still the pinned key
        assert back.remote.host.fingerprint != host.keys.fingerprint
        try:
            await back.remote.wait_connected(timeout=1.0)
            raise AssertionError("connected to an impostor")
        except TimeoutError:
            pass
        await back.remote.close()
    finally:
        await impostor.stop()
