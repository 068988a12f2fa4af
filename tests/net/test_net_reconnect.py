"""Drops: a client that goes away reclaims its seat with the key on its disk, or the creator
hands the seat to a bot; the host and the clients ride out a broker restart."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from netkit import MOSQUITTO, MosquittoProcess, Player, RunningHost, seat_table, step, synced

from client.net import Status, TableUpdate
from shared import protocol as p
from shared.bots.random_bot import RandomBot
from shared.invariants import problems
from shared.views import view

ROOT = Path(__file__).resolve().parents[2]


async def test_client_drops_and_reclaims_its_seat(running_host, tmp_path: Path) -> None:
    table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
    bots = [RandomBot(i) for i in range(4)]
    for _ in range(10):
        await step(table, room, bots)
    before = table[1].last(room)
    await table[1].close()  # the SSH session dies
    table[1] = await Player(running_host.url, tmp_path / "client1").open()  # same key dir
    assert table[1].remote.seats == {room: 1}
    snapshot = await table[1].until(lambda u: isinstance(u, TableUpdate) and u.room == room)
    # Only the seat's presence changed meanwhile (offline, online): two room changes.
    assert (snapshot.seat, snapshot.seq) == (1, before.seq + 2)
    assert p.encode(snapshot.view) == p.encode(before.view)
    assert snapshot.view == view(running_host.host.rooms[room].state, 1)
    while await step(table, room, bots):
        pass
    state = running_host.host.rooms[room].state
    assert state.winner is not None and problems(state) == []
    for player in table:
        await player.close()


async def test_creator_hands_a_lost_seat_to_a_bot(running_host, tmp_path: Path) -> None:
    table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
    bots = [RandomBot(i) for i in range(4)]
    for _ in range(5):
        await step(table, room, bots)
    await table[3].close()
    await table[0].remote.handover(room, 3)
    assert running_host.host.rooms[room].record.seats[3].kind == "bot"
    stranger = await Player(running_host.url, tmp_path / "client3").open()
    assert stranger.remote.seats == {}  # the key no longer holds a seat
    rest = table[:3]
    for _ in range(2000):
        latest = [pl.last(room) for pl in rest]
        if any(u.info.status == "over" for u in latest):
            break
        movers = [(i, u) for i, u in enumerate(latest) if u.view.options]
        if movers:
            seat, update = movers[0]
            await rest[seat].remote.act(room, update.view.pending.id,
                                        bots[seat].choose(update.view))
        seq = running_host.host.rooms[room].record.seq
        await synced(rest, room, seq)
    state = running_host.host.rooms[room].state
    assert state.winner is not None and problems(state) == []
    for player in [*rest, stranger]:
        await player.close()


async def test_everyone_rides_out_a_broker_restart(tmp_path: Path) -> None:
    if MOSQUITTO is None:
        pytest.skip("the mosquitto binary is not installed (Debian package `mosquitto`)")
    broker = MosquittoProcess(tmp_path)
    broker.start()
    host = RunningHost(broker.url, tmp_path / "host.sqlite3")
    await host.start()
    try:
        table, room = await seat_table(broker.url, tmp_path, turn_timeout=0)
        bots = [RandomBot(i) for i in range(4)]
        for _ in range(5):
            await step(table, room, bots)
        broker.stop()
        for player in table:
            await player.until(lambda u: isinstance(u, Status) and not u.connected)
            player.updates.clear()
        broker.start()
        for player in table:
            await player.until(lambda u: isinstance(u, Status) and u.connected, timeout=30)
        await synced(table, room, host.host.rooms[room].record.seq)
        while await step(table, room, bots):
            pass
        state = host.host.rooms[room].state
        assert state.winner is not None and problems(state) == []
        for player in table:
            await player.close()
    finally:
        await host.stop()
        broker.stop()


async def eventually(condition, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def test_presence_follows_clean_closes_and_dropped_processes(running_host,
                                                                   tmp_path: Path) -> None:
    table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
    live = running_host.host.rooms[room]

    def online(seat: int) -> bool:
        return live.info().seats[seat].online

    assert all(online(seat) for seat in range(4))
    await table[1].close()  # a clean close says Bye
    await eventually(lambda: not online(1))
    # A process that dies without a word: the broker delivers its will.
    script = (
        "import asyncio, os, sys\n"
        "from pathlib import Path\n"
        "from client.net import Remote\n"
        "async def main():\n"
        "    remote = Remote(sys.argv[1], config_dir=Path(sys.argv[2]))\n"
        "    await remote.__aenter__()\n"
        "    await remote.wait_connected()\n"
        "    print('up', flush=True)\n"
        "    sys.stdin.readline()\n"
        "    os._exit(0)\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, running_host.url,
                             str(tmp_path / "client1")], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert await asyncio.to_thread(proc.stdout.readline) == "up\n"
        await eventually(lambda: online(1))
        proc.stdin.write("\n")
        proc.stdin.flush()
        await asyncio.to_thread(proc.wait, 15)
        await eventually(lambda: not online(1))
    finally:
        if proc.poll() is None:
            proc.kill()
    # Everyone else learns it from the lobby.
    await eventually(lambda: room in table[0].remote.lobby
                     and not table[0].remote.lobby[room].seats[1].online)
    for player in table:
        await player.close()


async def test_a_sequence_gap_asks_for_a_snapshot(running_host, tmp_path: Path) -> None:
    table, room = await seat_table(running_host.url, tmp_path, turn_timeout=0)
    bots = [RandomBot(i) for i in range(4)]
    for _ in range(3):
        await step(table, room, bots)
    seen = table[2].last(room).seq
    remote = table[2].remote
    remote._mirrors[room].seq = seen - 3  # as if changes seen-2 .. seen were lost
    asked = []
    snapshot = remote.snapshot

    async def spy(room_id: str) -> None:
        asked.append(room_id)
        await snapshot(room_id)

    remote.snapshot = spy

    # Change seen+1 arrives after a gap: the client asks for a snapshot on its own, and shows
    # the change from it (the delta chain alone cannot get there).
    await step(table, room, bots)
    assert room in asked
    update = table[2].last(room)
    assert update.seq >= seen + 1 and remote._mirrors[room].seq == update.seq
    assert update.view == view(running_host.host.rooms[room].state, 2)
    assert {u.seq for u in table[2].updates if isinstance(u, TableUpdate) and u.seq > seen} \
        == {update.seq}
    await step(table, room, bots)  # and the chain carries on from there
    for player in table:
        await player.close()


async def test_a_first_time_client_that_dies_is_seen_offline(running_host,
                                                             tmp_path: Path) -> None:
    """No key pinned yet: the client learns the host key before connecting, so even its very
    first connection carries the will."""
    creator = await Player(running_host.url, tmp_path / "creator").open()
    room = await creator.remote.create_room("Waiting", seats=3)
    script = (
        "import asyncio, os, sys\n"
        "from pathlib import Path\n"
        "from client.net import Remote\n"
        "async def main():\n"
        "    remote = Remote(sys.argv[1], config_dir=Path(sys.argv[2]))\n"
        "    await remote.__aenter__()\n"
        "    await remote.wait_connected()\n"
        "    await remote.join(sys.argv[3], 'Newcomer')\n"
        "    print('up', flush=True)\n"
        "    sys.stdin.readline()\n"
        "    os._exit(0)\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script, running_host.url,
                             str(tmp_path / "newcomer"), room.id], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    live = running_host.host.rooms[room.id]
    try:
        assert await asyncio.to_thread(proc.stdout.readline) == "up\n"
        assert live.info().seats[0].online
        proc.stdin.write("\n")
        proc.stdin.flush()
        await asyncio.to_thread(proc.wait, 15)
        await eventually(lambda: not live.info().seats[0].online)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert live.info().seats[0].name == "Newcomer"  # the seat is held for them
    await creator.close()
