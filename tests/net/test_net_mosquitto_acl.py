"""The example Mosquitto configuration in docs/mosquitto works for protocol v2: a full game runs
through it (players on the anonymous listener with their client id as username, the host on
its password-only listener), and a client that is not the host (eve: a username of her own,
the host's username without its password, or no username at all) can neither overwrite the
retained topics, nor read another client's outbox or anyone's inbox, nor publish into another
client's inbox."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import re
import shutil
import subprocess
from pathlib import Path

import aiomqtt
import pytest
from netkit import MOSQUITTO, MosquittoProcess, RunningHost, free_port, seat_table, step, wait_port

from client.net.remote import mqtt_client
from shared import crypto
from shared import protocol as p
from shared.bots.random_bot import RandomBot

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mosquitto"
JUNK = b"junk from eve"
#: Who eve is on the players' listener: her own client id (what her client sends), a made-up
#: name, the host's account name (no password there: none is asked), and nobody (anonymous).
#: (Someone who claims another player's id gets that player's sealed mailbox: the broker cannot
#: tell; see bang.acl.)
EVES = (crypto.ClientKey.generate().cid, "eve", "bang-host", None)


class AclBroker(MosquittoProcess):
    """Mosquitto running docs/mosquitto/bang.conf, with its two listeners on free ports."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.host_port = free_port()

    def host_url(self, user: str, password: str) -> str:
        return f"mqtt://{user}:{password}@127.0.0.1:{self.host_port}"

    def start(self) -> None:
        super().start()
        wait_port(self.host_port)


@pytest.fixture
def acl_broker(tmp_path: Path):
    passwd_tool = shutil.which("mosquitto_passwd")
    if MOSQUITTO is None or passwd_tool is None:
        pytest.skip("mosquitto and mosquitto_passwd are not installed (package `mosquitto`)")
    passwd = tmp_path / "bang.passwd"
    subprocess.run([passwd_tool, "-c", "-b", str(passwd), "bang-host", "s3cret"], check=True)
    broker = AclBroker(tmp_path)
    conf = (DOCS / "bang.conf").read_text()
    conf = conf.replace("/etc/mosquitto/bang.passwd", str(passwd))
    conf = conf.replace("/etc/mosquitto/bang.acl", str(DOCS / "bang.acl"))
    listeners = re.findall(r"^listener .*$", conf, flags=re.M)
    assert listeners == ["listener 1883", "listener 1884 127.0.0.1"], listeners
    conf = conf.replace("listener 1883\n", f"listener {broker.port} 127.0.0.1\n")
    conf = conf.replace("listener 1884 127.0.0.1\n", f"listener {broker.host_port} 127.0.0.1\n")
    # Run as root, Mosquitto would switch to the `mosquitto` user, who cannot read tmp_path.
    conf += f"user {getpass.getuser()}\nlog_dest stderr\nlog_type error\n"
    broker.conf.write_text(conf)
    broker.start()
    yield broker
    broker.stop()


def eve_url(broker: AclBroker, user: str | None) -> str:
    return f"mqtt://{user}@127.0.0.1:{broker.port}" if user else broker.url


async def first_message(url: str, topic: str, timeout: float) -> bytes | None:
    """The first payload a fresh subscriber to `topic` gets (a retained one), or None."""
    async with mqtt_client(p.parse_broker_url(url)) as client:
        await client.subscribe(topic, qos=1)
        try:
            async with asyncio.timeout(timeout):
                message = await anext(aiter(client.messages))
        except TimeoutError:
            return None
        return bytes(message.payload)


async def listen(client: aiomqtt.Client, into: list[tuple[str, bytes]]) -> None:
    async for message in client.messages:
        into.append((message.topic.value, bytes(message.payload)))


def signed_by(host_key: bytes, payload: bytes | None) -> p.PublicMessage:
    assert payload is not None
    envelope = p.decode_outbound(payload)
    assert isinstance(envelope, p.Signed), envelope
    crypto.verify(host_key, envelope.sig, envelope.body)
    return p.decode_public(envelope.body)


async def test_example_acl_config(acl_broker: AclBroker, tmp_path: Path) -> None:
    running = RunningHost(acl_broker.host_url("bang-host", "s3cret"), tmp_path / "host.sqlite3")
    host = await running.start()
    received: list[tuple[str, bytes]] = []  # everything the host was handed by the broker
    handle = host.handle

    def spy(topic: str, payload: bytes) -> None:
        received.append((topic, payload))
        handle(topic, payload)

    host.handle = spy  # type: ignore[method-assign]
    heard: dict[str | None, list[tuple[str, bytes]]] = {user: [] for user in EVES}
    try:
        table, room = await seat_table(acl_broker.url, tmp_path, turn_timeout=0)
        victim = table[0].remote.cid
        received.clear()  # from here on, eve is at work (the victim's own discovery went)
        forbidden = {
            p.inbox_topic(victim): JUNK,  # another client's inbox
            p.discover_topic(victim): b"",  # another client's discovery topic
            p.HOST_TOPIC: JUNK,  # the retained topics
            p.lobby_topic(room): JUNK,
            p.lobby_topic("nosuchroom"): JUNK,
            p.snapshot_topic(room): JUNK,
            p.room_topic(room): JUNK,
            p.outbox_topic(victim): JUNK,
            "bang/v1/host": JUNK,
        }
        async with contextlib.AsyncExitStack() as stack:
            listeners = []
            for user in EVES:
                eve = await stack.enter_async_context(
                    mqtt_client(p.parse_broker_url(eve_url(acl_broker, user))))
                await eve.subscribe("#", qos=1)
                await eve.subscribe(p.outbox_topic(victim), qos=1)
                await eve.subscribe(p.inbox_topic(victim), qos=1)
                listeners.append(asyncio.create_task(listen(eve, heard[user])))
                for topic, payload in forbidden.items():
                    await eve.publish(topic, payload, qos=1, retain=True)
            bots = [RandomBot(i) for i in range(4)]
            while await step(table, room, bots):
                pass
            await asyncio.sleep(0.3)
            for task in listeners:
                task.cancel()
        assert host.rooms[room].state.winner is not None
        for user, messages in heard.items():
            topics = {topic for topic, _ in messages}
            assert p.room_topic(room) in topics, (user, "should read the public topics")
            assert not [t for t in topics if t.startswith(f"{p.ROOT}/c/")], (user, topics)
            assert all(payload != JUNK for _, payload in messages), user
        # Nothing of eve's reached the host: not the junk, not a discovery in another's name.
        assert all(payload != JUNK for _, payload in received)
        asked = [t for t, _ in received if t == p.discover_topic(victim)]
        assert asked == [], asked
        # The retained topics are still the host's, and eve left nothing retained anywhere.
        key = host.keys.sign_public
        assert isinstance(signed_by(key, await first_message(acl_broker.url, p.HOST_TOPIC, 5)),
                          p.HostHello)
        entry = signed_by(key, await first_message(acl_broker.url, p.lobby_topic(room), 5))
        assert isinstance(entry, p.LobbyEntry) and entry.room.status == "over"
        snap = signed_by(key, await first_message(acl_broker.url, p.snapshot_topic(room), 5))
        assert isinstance(snap, p.RoomSnapshot) and snap.view.winner is not None
        assert await first_message(acl_broker.url, p.lobby_topic("nosuchroom"), 0.5) is None
        everything = acl_broker.host_url("bang-host", "s3cret")  # reads every topic
        assert await first_message(everything, p.inbox_topic(victim), 0.5) is None
        assert await first_message(everything, p.room_topic(room), 0.5) is None
        v1 = await first_message(everything, "bang/v1/host", 5)
        assert v1 is not None and v1 != JUNK
        for player in table:
            await player.close()
    finally:
        await running.stop()


async def test_the_host_listener_takes_only_the_host(acl_broker: AclBroker) -> None:
    """No one gets onto the host's listener without its password, and no client id works
    there as a username: the players' listener is the only way in for them."""
    for user, password in (("bang-host", "wrong"), (EVES[0], "x")):
        with pytest.raises(aiomqtt.MqttError):
            async with mqtt_client(p.parse_broker_url(acl_broker.host_url(user, password))):
                pass
    with pytest.raises(aiomqtt.MqttError):
        async with mqtt_client(p.parse_broker_url(f"mqtt://127.0.0.1:{acl_broker.host_port}")):
            pass
