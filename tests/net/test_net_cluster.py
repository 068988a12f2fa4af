"""Several host processes as one (`bang host --cluster`), on a real Mosquitto and a throwaway
PostgreSQL: rooms spread over the hosts, every room is reachable through any of them, and when
the host running a game is killed with SIGKILL another one takes it over: the game goes on and
finishes, with every acknowledged action in the store."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from netkit import MOSQUITTO, MosquittoProcess, Player, seat_table, step

from server.store import open_store
from shared.bots.random_bot import RandomBot
from shared.invariants import problems

ROOT = Path(__file__).resolve().parents[2]
GROUP = "testgroup"


def start_host(broker: str, store: str, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "client.cli", "host", "--broker", broker, "--store", store,
               "--cluster", GROUP, "--bot-delay", "0"]
    with log.open("ab") as sink:
        return subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=sink)


def host_ids(logs: list[Path]) -> list[str]:
    """Each host's id, from the line it logs at start (waits for them)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        found = [re.search(rf"cluster {GROUP}: host (\w+)", log.read_text()) for log in logs]
        if all(found):
            return [m.group(1) for m in found if m]
        time.sleep(0.1)
    raise AssertionError("a host did not start:\n" + "\n".join(log.read_text() for log in logs))


@pytest.fixture
def cluster(tmp_path: Path, pg_url: str):
    if MOSQUITTO is None:
        pytest.skip("the mosquitto binary is not installed (Debian package `mosquitto`)")
    mosquitto = MosquittoProcess(tmp_path)
    mosquitto.start()
    logs = [tmp_path / f"host{i}.log" for i in range(2)]
    hosts: list[subprocess.Popen[bytes]] = []
    try:  # nothing is left running, even when a host does not start
        hosts += [start_host(mosquitto.url, pg_url, log) for log in logs]
        yield mosquitto.url, pg_url, hosts, host_ids(logs), logs
    finally:
        for host in hosts:
            if host.poll() is None:
                host.send_signal(signal.SIGTERM)
                try:
                    host.wait(15)
                except subprocess.TimeoutExpired:
                    host.kill()
                    host.wait()
        mosquitto.stop()


async def test_rooms_spread_over_the_hosts_and_each_is_reached_through_any(
        cluster, tmp_path: Path) -> None:
    url, store_url, hosts, ids, logs = cluster
    players = [await Player(url, tmp_path / f"client{i}").open() for i in range(6)]
    try:
        made = [await player.remote.create_room(f"Table {i}", seats=3)
                for i, player in enumerate(players)]
        store = open_store(store_url)
        owners = {store.owner(room.id, int(time.time() * 1000)) for room in made}
        store.close()
        assert owners == set(ids), "six rooms made through the shared subscription"
        # Everyone lists every room, whichever host it asked (a host learns the others' rooms
        # from their lobby entries, within moments); a seat in a room another host runs is
        # taken through the host it asked (forwarded).
        wanted = {room.id for room in made}
        async with asyncio.timeout(10):
            while not wanted <= {room.id for room in await players[5].remote.list_rooms()}:
                await asyncio.sleep(0.2)
        for player, room in zip(players, made[::-1], strict=False):
            await player.remote.join(room.id, "Ann")
        assert all(host.poll() is None for host in hosts)
    finally:
        for player in players:
            await player.close()


async def test_a_killed_hosts_game_goes_on_at_another_host(cluster, tmp_path: Path) -> None:
    url, store_url, hosts, ids, logs = cluster
    table, room = await seat_table(url, tmp_path, turn_timeout=0)
    bots = [RandomBot(i) for i in range(4)]
    try:
        for _ in range(20):
            await step(table, room, bots)
        store = open_store(store_url)
        owner = store.owner(room, int(time.time() * 1000))
        store.close()
        victim = hosts[ids.index(owner)]
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        assert await step(table, room, bots)  # answered once the other host took it over
        while await step(table, room, bots):
            pass
        final = table[0].last(room)
        survivor = logs[1 - ids.index(owner)].read_text()
        assert f"room {room}: taken over" in survivor
    finally:
        for player in table:
            await player.close()
    store = open_store(store_url)
    restored = {r.id: r for r in store.load_rooms(keep_finished=100)}[room]
    store.close()
    assert restored.state.winner == final.view.winner is not None
    assert restored.record.seq == final.seq  # every acknowledged change is in the store
    assert problems(restored.state) == []
