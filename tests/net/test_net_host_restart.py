"""A host process killed with SIGKILL mid-game and started again loses nothing: every room
comes back by replay, clients reconnect and reclaim their seats, the game carries on. With the
store in SQLite, and in PostgreSQL (`--store postgresql://…`)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from netkit import MOSQUITTO, MosquittoProcess, free_port, seat_table, step, synced
from pgcluster import PASSWORD

from client.net import Status, TableUpdate
from server.store import open_store
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.serialize import encode_state

ROOT = Path(__file__).resolve().parents[2]


async def eventually(condition, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


def start_host(args: list[str], store: str, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "client.cli", "host", "--store", store,
               "--bot-delay", "0", *args]
    with log.open("ab") as sink:
        return subprocess.Popen(command, cwd=ROOT, stdout=sink, stderr=sink)


@pytest.mark.parametrize(("broker", "backend"), [
    ("mosquitto", "sqlite"), ("amqtt", "sqlite"), ("mosquitto", "postgresql")])
async def test_kill_9_and_restart_loses_nothing(broker: str, backend: str, tmp_path: Path,
                                                request: pytest.FixtureRequest) -> None:
    log = tmp_path / "host.log"
    data = request.getfixturevalue("pg_url") if backend == "postgresql" \
        else str(tmp_path / "host.sqlite3")
    mosquitto = None
    if broker == "mosquitto":
        if MOSQUITTO is None:
            pytest.skip("the mosquitto binary is not installed (Debian package `mosquitto`)")
        mosquitto = MosquittoProcess(tmp_path)
        mosquitto.start()
        url, args = mosquitto.url, ["--broker", mosquitto.url]
    else:  # the embedded broker dies with the host and comes back with it
        port = free_port()
        url, args = f"mqtt://127.0.0.1:{port}", ["--port", str(port)]
    host = start_host(args, data, log)
    table = []
    try:
        table, room = await seat_table(url, tmp_path, turn_timeout=0)
        bots = [RandomBot(i) for i in range(4)]
        for _ in range(25):
            await step(table, room, bots)
        before = [player.last(room) for player in table]
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        if mosquitto is None:
            for player in table:
                await player.until(lambda u: isinstance(u, Status) and not u.connected)
        else:  # the broker stays: nobody notices until the host speaks again
            assert not any(isinstance(u, Status) and not u.connected
                           for pl in table for u in pl.updates)
        for player in table:
            player.updates.clear()
        host = start_host(args, data, log)
        for player, old in zip(table, before, strict=True):
            update = await player.until(lambda u: isinstance(u, TableUpdate) and u.room == room,
                                        timeout=30)
            # Reconnecting players come back online: presence changes may add to `seq`, but
            # no accepted action is lost and the game is exactly where it was.
            assert update.seat == old.seat and update.seq >= old.seq
            assert p.encode(update.view) == p.encode(old.view)
        # Everyone greets the new host (by reconnecting, or on its announce): all online. The
        # restarted host knows nobody online until they greet it, so a room change after the
        # kill that shows all online means that all did (the lobby from before the kill showed
        # them online too).
        killed_at = max(old.seq for old in before)
        await table[3].until(lambda u: isinstance(u, TableUpdate) and u.room == room
                             and u.seq > killed_at and all(s.online for s in u.info.seats),
                             timeout=30)
        await eventually(lambda: any(r.id == room and all(s.online for s in r.seats)
                                     for r in table[3].remote.lobby.values()))
        await synced(table, room, max(u.seq for pl in table for u in pl.updates
                                      if isinstance(u, TableUpdate)))
        while await step(table, room, bots):
            pass
        final = table[0].last(room)
        host.send_signal(signal.SIGTERM)
        assert host.wait(15) == 0, log.read_text()
    finally:
        for player in table:
            await player.close()
        if host.poll() is None:
            host.kill()
            host.wait()
        if mosquitto is not None:
            mosquitto.stop()
    store = open_store(data)
    restored = {r.id: r for r in store.load_rooms(keep_finished=100)}[room]
    store.close()
    assert restored.state.winner == final.view.winner is not None
    assert restored.record.seq == final.seq
    assert problems(restored.state) == []
    assert encode_state(restored.state)  # replays to the end without error
    if backend == "postgresql":
        logged = log.read_text()
        assert "data in PostgreSQL database t_" in logged and PASSWORD not in logged
