"""On a shared broker: an outsider reading `#` learns no hand or role, a spectator sees the
public view only, and forged, replayed or spectator actions are refused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiomqtt
from netkit import Player, seat_table, step

from client.net import RemoteError, Status
from server.connection import mqtt_client
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.model import Action
from shared.roles import SHERIFF

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


async def test_outsider_and_spectator_learn_no_secrets(running_host, tmp_path: Path) -> None:
    address = p.parse_broker_url(running_host.url)
    heard: list[tuple[str, bytes]] = []
    async with mqtt_client(address) as outsider:
        await outsider.subscribe("#", qos=1)
        listening = asyncio.create_task(eavesdrop(outsider, heard))
        table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
        spectator = await Player(running_host.url, tmp_path / "spectator").open()
        await spectator.remote.watch(room)
        with_act = None
        bots = [RandomBot(i) for i in range(4)]
        while await step(table, room, bots):
            if with_act is None:
                with_act = len(heard)
        await spectator.until(lambda u: isinstance(u, p.RoomUpdate) and u.info.status == "over")
        try:
            await spectator.remote.act(room, 0, Action(kind="end_turn"))
            raise AssertionError("a spectator acted")
        except RemoteError as exc:
            assert exc.code == "not_seated"
        await asyncio.sleep(0.2)
        listening.cancel()

        state = running_host.host.rooms[room].state
        assert state.winner is not None and problems(state) == []

        # The spectator saw public views only.
        seen = [u for u in spectator.updates if isinstance(u, p.RoomUpdate) and u.view]
        assert seen
        for update in seen:
            check_public_view(update.view, update.info.status == "over")
            for event in update.events:
                assert not (event.private_to and event.cards)

        # The outsider: sealed traffic stays shut, signed traffic is public views only.
        me = crypto.ClientKey.generate()
        my_session = crypto.Session.for_client(me, running_host.host.keys.kx_public)
        kinds = set()
        for topic, payload in heard:
            if topic.endswith("/in"):
                request = p.decode_request(payload)
                kinds.add("request")
                assert not any(role in request.box for role in SECRET_ROLES)
                continue
            envelope = p.decode_outbound(payload)
            if isinstance(envelope, p.Sealed):
                kinds.add("sealed")
                assert not any(role in envelope.box for role in SECRET_ROLES)
                try:
                    crypto.open_box(my_session.to_client, envelope.box, p.reply_aad(me.cid))
                    raise AssertionError("an outsider opened a sealed box")
                except crypto.CryptoError:
                    pass
                continue
            kinds.add("signed")
            message = p.decode_public(envelope.body)
            if isinstance(message, p.RoomUpdate) and message.view is not None:
                check_public_view(message.view, message.info.status == "over")
        assert kinds == {"request", "sealed", "signed"}
    for player in [*table, spectator]:
        await player.close()


async def test_forged_and_replayed_actions_are_refused(running_host, tmp_path: Path) -> None:
    address = p.parse_broker_url(running_host.url)
    heard: list[tuple[str, bytes]] = []
    async with mqtt_client(address) as attacker:
        table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
        victim = table[0]
        await attacker.subscribe(p.inbox_topic(victim.remote.cid), qos=1)
        listening = asyncio.create_task(eavesdrop(attacker, heard))
        bots = [RandomBot(i) for i in range(4)]
        for _ in range(20):
            await step(table, room, bots)
        await asyncio.sleep(0.2)
        listening.cancel()
        assert heard, "the victim sent nothing to capture"
        state = running_host.host.rooms[room].state
        actions = state.actions
        victim.updates.clear()

        # 1. replay a captured request of the victim, verbatim
        await attacker.publish(p.inbox_topic(victim.remote.cid), heard[-1][1], qos=1)
        error = await victim.until(lambda u: isinstance(u, p.Error))
        assert error.code == "replay"
        # 2. a fresh counter on the captured box: the box no longer opens
        captured = p.decode_request(heard[-1][1])
        forged = p.Request(v=1, pub=captured.pub, ctr=captured.ctr + 10**9, box=captured.box)
        await attacker.publish(p.inbox_topic(victim.remote.cid), p.encode(forged), qos=1)
        error = await victim.until(lambda u: isinstance(u, p.PublicError))
        assert error.code == "bad_box"
        # 3. the attacker's own key on the victim's topic
        eve = crypto.ClientKey.generate()
        session = crypto.Session.for_client(eve, running_host.host.keys.kx_public)
        decision = state.pending
        act = p.Act(room=room, decision=decision.id, action=decision.default)
        box = crypto.seal(session.to_host, p.encode(act), p.request_aad(victim.remote.cid, 1))
        mine = p.Request(v=1, pub=eve.public, ctr=crypto.next_counter(0), box=box)
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
