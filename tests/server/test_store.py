"""What the store keeps, the same on SQLite and PostgreSQL: keys, counters, rooms in creation
order, and a second write of the same action refused with its whole batch."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from hostkit import WireClient

from server.host import Host
from server.rooms import Room, RoomRecord
from server.store import Store, StoreError
from shared import protocol as p
from shared.model import Action

pytestmark = pytest.mark.both_backends


def room(room_id: str, status: str = "waiting") -> Room:
    return Room(RoomRecord(id=room_id, name=room_id, creator="c", creator_name="C",
                           options=p.RoomOptions(), seats=[], status=status))


def test_the_host_keys_are_made_once(store: Store, reopen: Callable[[], Store]) -> None:
    fingerprint = store.host_keys().fingerprint
    assert store.host_keys().fingerprint == fingerprint
    store.close()
    again = reopen()
    assert again.host_keys().fingerprint == fingerprint
    again.close()


def test_a_client_keeps_its_key_and_latest_counter(store: Store,
                                                    reopen: Callable[[], Store]) -> None:
    counter = time.time_ns() // 1000  # microseconds since the epoch: more than 32 bits
    store.save_client("ann", b"key-1", counter)
    store.save_client("ann", b"key-2", counter + 1)
    assert store.client("ann") == (b"key-2", counter + 1)  # seen inside the batch
    store.commit()
    store.close()
    again = reopen()
    assert again.client("ann") == (b"key-2", counter + 1)
    assert again.client("bob") is None
    again.close()


def test_rooms_load_in_creation_order_after_updates(store: Store) -> None:
    for room_id in ("c", "a", "b"):
        store.save_room(room(room_id))
    store.commit()
    store.save_room(room("a", status="over"))  # an update keeps the room's place
    store.save_room(room("c"))
    store.commit()
    assert [r.id for r in store.load_rooms(keep_finished=1)] == ["c", "a", "b"]
    assert [r.id for r in store.load_rooms(keep_finished=0)] == ["c", "b"]
    store.delete_room("c")
    store.commit()
    assert [r.id for r in store.load_rooms(keep_finished=1)] == ["a", "b"]
    with pytest.raises(KeyError):
        store.load_record("c")


def test_rollback_forgets_the_batch(store: Store) -> None:
    store.save_room(room("kept"))
    store.commit()
    store.save_room(room("dropped"))
    assert store.pending
    store.rollback()
    assert not store.pending
    assert [r.id for r in store.load_rooms(keep_finished=0)] == ["kept"]


def test_a_second_write_of_the_same_action_fails_with_its_batch(store: Store) -> None:
    """The (room, n) key: a host that stored action n cannot store another action n. The
    batch it was in is rolled back, and the commit says so."""
    first = room("r")
    store.save_action(first, 0, 1, 7, Action("pass"))
    store.commit()
    store.save_room(room("other"))
    with pytest.raises(StoreError):
        store.save_action(first, 0, 2, 7, Action("pass"))
    with pytest.raises(StoreError, match="rolled back"):
        store.commit()
    assert store.action_count("r") == 1
    assert [r.id for r in store.load_rooms(keep_finished=0)] == ["r"]
    store.save_action(first, 1, 2, 8, Action("pass"))  # and the store goes on
    store.commit()
    assert store.action_count("r") == 2


async def test_a_game_replays_from_the_store(host: Host, store: Store,
                                             reopen: Callable[[], Store]) -> None:
    creator = WireClient(host)
    room_id = creator.reply(p.CreateRoom(name="Bots")).room.id
    creator.reply(p.Start(room=room_id, bots=True))
    for _ in range(20000):
        if host.rooms[room_id].status == "over":
            break
        await asyncio.sleep(0)
    host.flush()
    final = host.rooms[room_id].state
    store.close()
    again = reopen()
    [restored] = again.load_rooms(keep_finished=1)
    assert restored.state is not None and final is not None
    assert restored.state.winner == final.winner is not None
    assert restored.state.actions == final.actions == again.action_count(room_id)
    record = again.game_record(room_id)
    assert record is not None and len(record.actions) == final.actions
    again.close()


def test_a_counter_is_taken_once_even_by_two_hosts(store: Store,
                                                    reopen: Callable[[], Store]) -> None:
    """Two stores on one database stand for two hosts: one counter is accepted once."""
    other = reopen()
    assert store.advance_client("ann", b"key", 10)
    store.commit()
    assert not other.advance_client("ann", b"key", 10)  # a replay on the other host
    assert not other.advance_client("ann", b"key", 9)
    assert other.advance_client("ann", b"key", 11)
    other.commit()
    assert store.client("ann") == (b"key", 11)
    other.close()


def test_a_room_lease_is_held_by_one_host_until_it_runs_out(
        store: Store, reopen: Callable[[], Store]) -> None:
    other = reopen()
    store.save_room(room("r1"))
    store.save_room(room("r2"))
    assert store.claim("r1", "a", until=1_000, now=0)
    store.commit()
    assert not other.claim("r1", "b", until=1_500, now=500)  # a's lease runs to 1000
    other.commit()
    assert other.owner("r1", now=900) == "a" and other.orphans(now=900) == ["r2"]
    assert store.renew("a", until=2_000) == {"r1"}
    store.commit()
    assert other.claim("r1", "b", until=3_000, now=2_001)  # a stopped renewing: b takes it
    other.commit()
    assert store.renew("a", until=4_000) == set()  # a learns it lost the room
    store.commit()
    assert store.owner("r1", now=2_500) == "b"
    other.close()


def test_where_a_client_sits_is_kept_for_every_room(store: Store) -> None:
    seated = Room.create("r1", "ann", "Ann", "r1", p.RoomOptions())
    seated.join("ann", "Ann", None)
    store.save_room(seated)
    store.save_room(room("r2"))
    store.commit()
    assert store.seats_of("ann") == [("r1", 0)]
    seated.leave("ann")
    store.save_room(seated)
    store.commit()
    assert store.seats_of("ann") == []
