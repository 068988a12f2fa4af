"""The store's fsync in a worker thread (server.syncer), as `bang host` runs it: the host goes
on while the disk writes, and publishes nothing about a commit before an fsync of it has
returned. Real SQLite files; the fsync is held back or made to fail by wrapping the real one."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest
from hostkit import Bus, WireClient
from test_server_attacks import start, table

import server.syncer as syncer_module
from server.host import Host
from server.store import Store, StoreError
from shared import protocol as p


async def until(condition: object, seconds: float = 10.0) -> None:
    """Let the event loop (and the worker thread) run until `condition()` holds."""
    for _ in range(int(seconds / 0.01)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def an_act(host: Host, clients: list[WireClient], room: str) -> tuple[WireClient, bytes]:
    decision = host.rooms[room].state.pending
    actor = clients[decision.seat]
    return actor, actor.envelope(p.Act(room=room, decision=decision.id,
                                       action=decision.default))


async def test_nothing_is_published_before_the_fsync_of_its_commit_returns(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: a power cut after the COMMIT and before its fsync undoes a move the table was
    already told of. Guards `Host.flush` and `Syncer`: the update waits for the fsync, and a
    reply to a request that wrote nothing, handled meanwhile, waits behind it (order kept)."""
    clients, room = table(host, humans=4)
    start(clients, room)
    Bus.of(host).pump()
    gate, synced = threading.Event(), threading.Event()
    real_sync = host.store.tables.sync

    def held_sync() -> None:
        gate.wait(10)
        real_sync()
        synced.set()

    monkeypatch.setattr(host.store.tables, "sync", held_sync)
    host.sync_in_background()
    seq = host.rooms[room].record.seq
    actor, envelope = an_act(host, clients, room)
    host.handle(p.inbox_topic(actor.cid), envelope)
    host.flush()
    assert not host.store.pending  # committed...
    watcher = WireClient(host)
    host.handle(p.inbox_topic(watcher.cid), watcher.envelope(p.ListRooms()))
    host.flush()
    await asyncio.sleep(0.3)
    assert list(host.outbox) == []  # ...but nothing is out before the fsync returned
    gate.set()
    await until(lambda: len(host.outbox) > 0)
    assert synced.is_set()
    answer = [m for m in actor.inbox() if getattr(m, "ref", None) == actor.ctr]
    assert [type(m) for m in answer] == [p.SeatUpdate]
    assert answer[0].seq == seq + 1
    published = Bus.of(host).published
    to_watcher = [i for i, item in enumerate(published) if item.topic == p.outbox_topic(
        watcher.cid)]
    to_actor = [i for i, item in enumerate(published) if item.topic == p.outbox_topic(actor.cid)]
    assert to_watcher and max(to_actor) < to_watcher[-1]
    host.sync_in_foreground()


async def test_a_failed_fsync_holds_the_messages_until_one_succeeds(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """Attack: the disk fails the fsync (EIO). What the commit speaks of is not known to be
    durable: it stays unpublished, and goes out once a later fsync succeeds."""
    monkeypatch.setattr(syncer_module, "RETRY", 0.2)
    clients, room = table(host, humans=3)
    start(clients, room)
    Bus.of(host).pump()
    real_sync = host.store.tables.sync
    calls: list[int] = []

    def failing_once() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise StoreError("cannot sync: Input/output error (injected)")
        real_sync()

    monkeypatch.setattr(host.store.tables, "sync", failing_once)
    host.sync_in_background()
    actor, envelope = an_act(host, clients, room)
    host.handle(p.inbox_topic(actor.cid), envelope)
    host.flush()
    await until(lambda: len(calls) == 1)
    await asyncio.sleep(0.05)
    assert list(host.outbox) == []
    await until(lambda: len(host.outbox) > 0)
    assert len(calls) == 2
    assert any(getattr(m, "ref", None) == actor.ctr for m in actor.inbox())
    host.sync_in_foreground()


async def test_stopping_the_host_syncs_and_releases_what_waited(
        host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """`bang host` stopping while an fsync runs: what waited is synced in the foreground and
    released, not lost."""
    clients, room = table(host, humans=3)
    start(clients, room)
    Bus.of(host).pump()
    gate = threading.Event()
    real_sync = host.store.tables.sync

    def held_sync() -> None:
        gate.wait(10)
        real_sync()

    monkeypatch.setattr(host.store.tables, "sync", held_sync)
    host.sync_in_background()
    actor, envelope = an_act(host, clients, room)
    host.handle(p.inbox_topic(actor.cid), envelope)
    host.flush()
    await asyncio.sleep(0.1)
    assert list(host.outbox) == []
    threading.Timer(0.2, gate.set).start()
    host.stop()
    assert host.syncer is None
    assert any(getattr(m, "ref", None) == actor.ctr for m in actor.inbox())


def fsynced_paths(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the file of every os.fsync from now on (the edge we do not own)."""
    paths: list[str] = []
    real = os.fsync

    def recording(fd: int) -> None:
        paths.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", recording)
    return paths


def test_a_commit_is_durable_by_an_fsync_of_the_wal_now_or_at_sync(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(tmp_path / "host.sqlite3")
    wal = str(tmp_path / "host.sqlite3-wal")
    paths = fsynced_paths(monkeypatch)
    store.tables.put_meta("a", b"1")
    store.commit()
    assert paths == [wal]
    store.tables.put_meta("b", b"2")
    store.commit(sync=False)
    assert paths == [wal]  # committed, not synced...
    store.sync()
    assert paths == [wal, wal]  # ...until now
    store.sync()
    assert paths == [wal, wal]  # nothing new: no fsync
    store.close()
    assert Store(tmp_path / "host.sqlite3").tables.meta("b") == b"2"
