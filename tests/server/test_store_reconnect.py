"""A PostgreSQL store whose connection drops (the server closed it: a restart, an
administrator, a proxy) connects again: a read retried, a batch cut by the drop lost whole and
said so, and a host that carries on with its game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import urlsplit

import psycopg
import pytest
from hostkit import WireClient

from server import cluster as c
from server.cluster_host import ClusterHost
from server.host import Host
from server.store import Store, StoreError, open_store
from shared import protocol as p

pytestmark = pytest.mark.parametrize("backend", ["postgresql"])


def drop_connections(url: str, name: str | None = None) -> int:
    """Close every other connection to database `name` (`url`'s) from the server's side."""
    name = name or urlsplit(url).path.lstrip("/")
    with psycopg.connect(url, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()", (name,)).fetchall()
    return len(rows)


KEY = b"k" * 32


def counters(store: Store, *cids: str) -> list[int | None]:
    return [None if (row := store.client(cid)) is None else row[1] for cid in cids]


def test_a_read_after_a_drop_is_run_again_on_a_new_connection(store: Store,
                                                              store_spec: str) -> None:
    store.save_client("ann", KEY, 1)
    store.commit()
    assert drop_connections(store_spec) == 1
    assert counters(store, "ann") == [1]
    store.save_client("bob", KEY, 2)
    store.commit()
    again = open_store(store_spec)
    assert counters(again, "ann", "bob") == [1, 2]
    again.close()


def test_a_batch_cut_by_a_drop_is_lost_whole_and_the_next_one_is_stored(
        store: Store, store_spec: str) -> None:
    store.save_client("kept", KEY, 1)
    store.commit()
    store.save_client("cut", KEY, 2)  # the batch is open on the connection about to drop
    drop_connections(store_spec)
    with pytest.raises(StoreError):
        store.save_client("also cut", KEY, 3)
    with pytest.raises(StoreError, match="rolled back"):
        store.commit()
    store.save_client("next", KEY, 4)
    store.commit()
    assert counters(store, "kept", "cut", "also cut", "next") == [1, None, None, 4]


def test_a_commit_on_a_dropped_connection_fails_and_stores_nothing(store: Store,
                                                                   store_spec: str) -> None:
    store.save_client("cut", KEY, 1)
    drop_connections(store_spec)
    with pytest.raises(StoreError):
        store.commit()
    assert counters(store, "cut") == [None]


async def test_a_host_goes_on_playing_after_its_connection_drops(host: Host, store: Store,
                                                                 store_spec: str) -> None:
    creator = WireClient(host)
    room_id = creator.reply(p.CreateRoom(name="Bots")).room.id
    creator.reply(p.Start(room=room_id, bots=True))
    drops, dropped_at = 0, 0
    for _ in range(20000):
        room = host.rooms[room_id]  # (a failed commit would rebuild it from the store)
        if room.status == "over":
            break
        assert room.state is not None
        if room.state.actions >= dropped_at + 5:  # right after a commit: no batch is cut
            host.flush()
            drops += drop_connections(store_spec)
            dropped_at = room.state.actions
        await asyncio.sleep(0)
    host.flush()
    final = host.rooms[room_id].state
    assert final is not None and final.winner is not None
    assert drops > 1
    assert store.action_count(room_id) == final.actions


def test_while_the_database_cannot_be_reached_each_call_fails_then_it_goes_on(
        store: Store, store_spec: str) -> None:
    name = urlsplit(store_spec).path.lstrip("/")
    admin_url = store_spec.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            drop_connections(store_spec.rsplit("/", 1)[0] + "/postgres", name)
            for _ in range(2):  # as often as it is asked: a clear error, no crash
                with pytest.raises(StoreError):
                    store.client("ann")
        finally:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    store.save_client("ann", KEY, 1)
    store.commit()
    assert counters(store, "ann") == [1]


async def test_a_host_whose_database_is_away_for_a_while_loses_no_stored_action(
        host: Host, store: Store, store_spec: str, reopen: Callable[[], Store],
        caplog: pytest.LogCaptureFixture) -> None:
    """Bots keep moving while nothing can be stored: what the host could not store is undone,
    the rooms it could not read back wait, and once the database is back the game goes on
    from what was stored and finishes, the store replaying to the host's final state."""
    name = urlsplit(store_spec).path.lstrip("/")
    admin_url = store_spec.rsplit("/", 1)[0] + "/postgres"
    creator = WireClient(host)
    room_id = creator.reply(p.CreateRoom(name="Bots")).room.id
    creator.reply(p.Start(room=room_id, bots=True))
    for _ in range(3):  # a few actions: the game is surely still on
        await asyncio.sleep(0)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            drop_connections(admin_url, name)
            for _ in range(300):
                await asyncio.sleep(0)
            assert room_id in host.unread  # what it holds may be ahead of the store
            refused = creator.reply(p.Snapshot(room=room_id))  # its counter: not checked
            assert isinstance(refused, p.Error) and refused.code == "storage"
        finally:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    refused = creator.reply(p.Snapshot(room=room_id))  # the room: not read back yet
    assert isinstance(refused, p.Error) and refused.code == "storage"
    for _ in range(100):
        if room_id not in host.unread:
            break
        await asyncio.sleep(0.05)
    assert not isinstance(creator.reply(p.Snapshot(room=room_id)), p.Error)
    for _ in range(200):
        room = host.rooms.get(room_id)
        if room is not None and room.status == "over":
            break
        await asyncio.sleep(0.05)
    host.flush()
    assert not host.unread
    final = host.rooms[room_id].state
    assert final is not None and final.winner is not None
    assert not [r for r in caplog.records if r.name == "asyncio"]  # nothing raised
    again = reopen()
    [restored] = [r for r in again.load_rooms(keep_finished=1) if r.id == room_id]
    assert restored.state == final
    again.close()


async def test_a_cluster_host_drops_what_it_cannot_store_and_keeps_its_link(
        store: Store, store_spec: str, reopen: Callable[[], Store],
        caplog: pytest.LogCaptureFixture) -> None:
    """A message whose handling needs the store while it is away (here: another host's
    signed notice that it is gone, whose rooms must be taken from the store) is dropped with
    a line in the log: `handle` raising would cut the host's link to the broker."""
    first = ClusterHost(store, c.Cluster("g"), bot_delay=0.0)
    second = ClusterHost(reopen(), c.Cluster("g"), bot_delay=0.0)
    ann = WireClient(first)
    ann.reply(p.CreateRoom(name="Saloon"))
    name = urlsplit(store_spec).path.lstrip("/")
    admin_url = store_spec.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        try:
            drop_connections(admin_url, name)
            second.handle(second.cluster.gone_topic, c.gone(first.keys, first.cluster.host_id))
        finally:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    assert any("dropped: the store failed" in r.getMessage() for r in caplog.records)
    second.store.close()

