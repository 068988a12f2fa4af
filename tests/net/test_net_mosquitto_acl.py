"""The example Mosquitto configuration in docs/mosquitto works: a full game runs through it,
and a client that is not the host can neither overwrite the retained topics nor read another
client's mailbox, even encrypted."""

from __future__ import annotations

import asyncio
import getpass
import shutil
import subprocess
from pathlib import Path

import pytest
from netkit import MOSQUITTO, MosquittoProcess, RunningHost, seat_table, step

from server.connection import mqtt_client
from shared import protocol as p
from shared.bots.random_bot import RandomBot

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mosquitto"


@pytest.fixture
def acl_broker(tmp_path: Path):
    passwd_tool = shutil.which("mosquitto_passwd")
    if MOSQUITTO is None or passwd_tool is None:
        pytest.skip("mosquitto and mosquitto_passwd are not installed (package `mosquitto`)")
    passwd = tmp_path / "bang.passwd"
    subprocess.run([passwd_tool, "-c", "-b", str(passwd), "bang-host", "s3cret"], check=True)
    conf = (DOCS / "bang.conf").read_text()
    conf = conf.replace("/etc/mosquitto/bang.passwd", str(passwd))
    conf = conf.replace("/etc/mosquitto/bang.acl", str(DOCS / "bang.acl"))
    broker = MosquittoProcess(tmp_path)
    conf = conf.replace("listener 1883\n", f"listener {broker.port} 127.0.0.1\n")
    # Run as root, Mosquitto would switch to the `mosquitto` user, who cannot read tmp_path.
    conf += f"user {getpass.getuser()}\n"
    broker.conf.write_text(conf)
    broker.start()
    yield broker
    broker.stop()


async def test_example_acl_config(acl_broker: MosquittoProcess, tmp_path: Path) -> None:
    host_url = f"mqtt://bang-host:s3cret@127.0.0.1:{acl_broker.port}"
    host = RunningHost(host_url, tmp_path / "host.sqlite3")
    await host.start()
    heard: list[str] = []
    try:
        table, room = await seat_table(acl_broker.url, tmp_path, turn_timeout=0)
        async with mqtt_client(p.parse_broker_url(acl_broker.url), "eve") as eve:
            await eve.subscribe("#", qos=1)

            async def listen() -> None:
                async for message in eve.messages:
                    heard.append(message.topic.value)

            listening = asyncio.create_task(listen())
            await eve.publish(p.LOBBY_TOPIC, b"junk", qos=1, retain=True)
            await eve.publish(p.inbox_topic(table[0].remote.cid), b"junk", qos=1)
            bots = [RandomBot(i) for i in range(4)]
            while await step(table, room, bots):
                pass
            await asyncio.sleep(0.2)
            listening.cancel()
        assert host.host.rooms[room].state.winner is not None
        assert heard, "eve should still read the public topics"
        assert all(not t.startswith("bang/v1/c/") for t in heard), heard
        # The retained lobby is still the host's.
        async with mqtt_client(p.parse_broker_url(acl_broker.url), "late") as late:
            await late.subscribe(p.LOBBY_TOPIC, qos=1)
            async with asyncio.timeout(5):
                message = await anext(aiter(late.messages))
            assert isinstance(p.decode_outbound(bytes(message.payload)), p.Signed)
        for player in table:
            await player.close()
    finally:
        await host.stop()
