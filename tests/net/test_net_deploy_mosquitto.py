"""deploy/mosquitto works: Mosquitto with the dynamic-security plugin, its accounts made by
setup-dynsec.sh. A game runs through it (the host on `bang-host`, the players on the shared
`bang-player` account), and the players' account can neither join the hosts' shared
subscription nor read the requests, while the hosts' account can."""

from __future__ import annotations

import getpass
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from netkit import MOSQUITTO, MosquittoProcess, RunningHost, seat_table, step

from client.net.remote import mqtt_client
from server.cluster import Cluster
from shared import protocol as p
from shared.bots.random_bot import RandomBot

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto"
PLUGIN = "/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so"
GROUP = "s3cret-group"
HOST_PASSWORD = "host-pw"
PLAYER_PASSWORD = "player-pw"


def _plugin() -> str | None:
    """The dynamic-security plugin as the package installed it."""
    if Path(PLUGIN).exists():
        return PLUGIN
    if shutil.which("dpkg") is None:
        return None
    listed = subprocess.run(["dpkg", "-L", "mosquitto"], capture_output=True, text=True)
    found = [line for line in listed.stdout.splitlines() if "dynamic_security" in line]
    return found[0] if found else None


@pytest.fixture
def dynsec_broker(tmp_path: Path):
    ctrl, plugin = shutil.which("mosquitto_ctrl"), _plugin()
    if MOSQUITTO is None or ctrl is None or plugin is None:
        pytest.skip("mosquitto, mosquitto_ctrl or the dynamic-security plugin is not "
                    "installed (package `mosquitto`)")
    config = tmp_path / "dynamic-security.json"
    subprocess.run([ctrl, "dynsec", "init", str(config), "bang-admin", "admin-pw"], check=True,
                   capture_output=True)
    broker = MosquittoProcess(tmp_path)
    conf = (DEPLOY / "mosquitto.conf").read_text()
    assert re.findall(r"^listener .*$", conf, flags=re.M) == ["listener 1883"]
    conf = conf.replace("listener 1883\n", f"listener {broker.port} 127.0.0.1\n")
    conf = conf.replace(PLUGIN, plugin)
    conf = conf.replace("/var/lib/mosquitto/dynamic-security.json", str(config))
    # Run as root, Mosquitto would switch to the `mosquitto` user, who cannot read tmp_path.
    conf += f"user {getpass.getuser()}\nlog_dest stderr\nlog_type error\n"
    broker.conf.write_text(conf)
    broker.start()
    env = os.environ | {"MQTT_PORT": str(broker.port), "ADMIN_PASSWORD": "admin-pw",
                        "HOST_PASSWORD": HOST_PASSWORD, "PLAYER_PASSWORD": PLAYER_PASSWORD}
    subprocess.run(["sh", str(DEPLOY / "setup-dynsec.sh"), GROUP], check=True, env=env,
                   capture_output=True)
    yield broker
    broker.stop()


def url(broker: MosquittoProcess, user: str, password: str) -> str:
    return f"mqtt://{user}:{password}@127.0.0.1:{broker.port}"


async def granted(broker_url: str, topic: str) -> bool:
    async with mqtt_client(p.parse_broker_url(broker_url)) as client:
        codes = await client.subscribe(topic, qos=1)
    return all(getattr(code, "value", code) < 0x80 for code in codes)


async def test_only_the_hosts_account_joins_the_group(dynsec_broker: MosquittoProcess) -> None:
    host = url(dynsec_broker, "bang-host", HOST_PASSWORD)
    player = url(dynsec_broker, "bang-player", PLAYER_PASSWORD)
    shared = f"$share/{GROUP}/{p.INBOX_FILTER}"
    for topic in Cluster(GROUP).filters():
        assert await granted(host, topic), topic
    for topic in (shared, f"$share/{GROUP}/{p.DISCOVER_FILTER}", f"$share/other/{p.INBOX_FILTER}",
                  p.INBOX_FILTER, p.DISCOVER_FILTER, "#"):
        assert not await granted(player, topic), topic
    assert await granted(player, p.HOST_TOPIC)
    assert await granted(player, p.LOBBY_FILTER)


async def test_a_game_through_the_deploy_config(dynsec_broker: MosquittoProcess,
                                                tmp_path: Path) -> None:
    running = RunningHost(url(dynsec_broker, "bang-host", HOST_PASSWORD),
                          tmp_path / "host.sqlite3")
    await running.start()
    try:
        table, room = await seat_table(url(dynsec_broker, "bang-player", PLAYER_PASSWORD),
                                       tmp_path, turn_timeout=0)
        bots = [RandomBot(i) for i in range(len(table))]
        for _ in range(20):
            if not await step(table, room, bots):
                break
        for player in table:
            await player.close()
    finally:
        await running.stop()
