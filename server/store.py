"""Durable storage: host keys, rooms, every accepted action, clients' keys and request
counters, in SQLite (the default) or PostgreSQL (`open_store`).

A room's game is stored as its setup plus the accepted actions; `load_rooms` rebuilds the
live state by replaying them through the engine, so a restarted host carries on exactly.
Writes are grouped: they open a transaction that `commit` makes durable, so a burst of
requests costs one fsync. The host publishes nothing about a write before that commit.

The commit blocks the host's event loop for its fsync (SQLite: ~0.6-0.9 ms here). Running the
fsync in a worker thread instead was tried and measured (commits 76376b0, 8c27cab): the host
alone got ~20% more actions through, but `bang bench relay` got slower (p50 +0.4 ms idle,
-15-25% actions/s under load) on a machine whose cores the broker and clients share.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from server.rooms import Room, RoomRecord
from server.store_sqlite import SqliteTables
from server.store_tables import StoreError, StoreUnavailable, Tables
from shared.crypto import HostKeys
from shared.engine import apply, start_game
from shared.events import time_up
from shared.model import Action
from shared.record import GameRecord, move_of

__all__ = ["ReplayError", "Store", "StoreError", "StoreUnavailable", "open_store"]

POSTGRES_SCHEMES = ("postgresql", "postgres")

_enc = msgspec.msgpack.Encoder()
# Lenient: version 1 stored `turn_timeout` as a float.
_record_dec = msgspec.msgpack.Decoder(RoomRecord, strict=False)
_action_dec = msgspec.msgpack.Decoder(Action)


def kept(records: list[RoomRecord], keep_finished: int) -> list[RoomRecord]:
    """The rooms a host keeps in memory, in the order given: every open one, and the
    `keep_finished` finished ones created last."""
    finished = sorted((r for r in records if r.status == "over"), key=lambda r: r.created)
    latest = {r.id for r in finished[max(0, len(finished) - keep_finished):]}
    return [r for r in records if r.status != "over" or r.id in latest]


class ReplayError(Exception):
    """A stored game does not replay: the engine changed, or the file is damaged."""


def open_store(spec: Path | str) -> Store:
    """`bang host --store`: a postgresql:// URL, or the path of a SQLite file.
    `StoreUnavailable` says, in one line, why it cannot be opened."""
    scheme, url, _ = str(spec).partition("://")
    if not url:
        return Store(spec)
    if scheme not in POSTGRES_SCHEMES:
        raise StoreUnavailable(f"cannot store in {scheme}://…: give a postgresql:// URL or "
                               "the path of a SQLite file")
    try:
        from server.store_postgres import PostgresTables  # psycopg is an optional extra
    except ImportError:
        raise StoreUnavailable("PostgreSQL needs psycopg 3: install with: "
                               "pip install 'bang-terminal[postgresql]'") from None
    return Store(PostgresTables(str(spec)))


class Store:
    def __init__(self, tables: Tables | Path | str) -> None:
        """`tables`: a SQLite file's path (or ":memory:"), or another backend's tables."""
        self.tables = tables if isinstance(tables, Tables) else SqliteTables(tables)
        self._seats: dict[str, tuple[tuple[str, int], ...]] = {}  # room -> seats stored

    @property
    def where(self) -> str:
        """Where the data is, for logs (never a password)."""
        return self.tables.where

    def close(self) -> None:
        self.tables.close()

    @property
    def pending(self) -> bool:
        """Writes wait for `commit`."""
        return self.tables.pending

    def commit(self) -> None:
        """Make every write since the last commit durable (one fsync); `StoreError` if one of
        them or the commit failed, and then nothing of them is stored."""
        self.tables.commit()

    def rollback(self) -> None:
        self.tables.rollback()
        self._seats.clear()

    def host_keys(self) -> HostKeys:
        """The host's keys, created on first start (the fingerprint survives restarts)."""
        stored = self.tables.meta("host_keys")
        if stored is None:
            self.tables.add_meta("host_keys", HostKeys.generate().to_bytes())
            self.commit()
            stored = self.tables.meta("host_keys")  # another host's, had it come first
            assert stored is not None
        return HostKeys.from_bytes(stored)

    def client(self, cid: str) -> tuple[bytes, int] | None:
        """A client seen before: (public key, last request counter)."""
        return self.tables.client(cid)

    def save_client(self, cid: str, pub: bytes, ctr: int) -> None:
        self.tables.put_client(cid, pub, ctr)

    def advance_client(self, cid: str, pub: bytes, ctr: int) -> bool:
        """Store the client's counter if it is newer than the stored one: whether it was (the
        check and the write are one statement, so hosts sharing the store agree)."""
        return self.tables.advance_client(cid, pub, ctr)

    def save_room(self, room: Room) -> None:
        self.tables.put_room(room.id, _enc.encode(room.record))
        seats = tuple(sorted((cid, seat) for seat, cid in room.human_seats()))
        if self._seats.get(room.id) != seats:  # where clients sit, for hosts that greet them
            self.tables.put_seats(room.id, seats)
            self._seats[room.id] = seats

    # --- a cluster of hosts (`bang host --cluster`): leases on rooms, where clients sit -----

    def claim(self, room_id: str, host: str, until: int, now: int) -> bool:
        """Take the room's lease (or keep it) until `until`, in ms since the epoch, unless
        another host's runs past `now`: whether `host` holds it (once committed)."""
        return self.tables.claim(room_id, host, until, now)

    def renew(self, host: str, until: int) -> set[str]:
        """Extend the leases `host` holds; the rooms it still holds."""
        return self.tables.renew(host, until)

    def release(self, room_id: str, host: str) -> None:
        self.tables.release(room_id, host)

    def expire(self, host: str) -> None:
        """The leases of `host` run out now: its rooms go to whichever host claims them."""
        self.tables.expire(host)

    def owner(self, room_id: str, now: int) -> str | None:
        """The host holding the room's lease at `now`, if any."""
        return self.tables.owner(room_id, now)

    def orphans(self, now: int) -> list[str]:
        """Rooms whose lease nobody holds at `now`."""
        return self.tables.orphans(now)

    def cluster_link(self) -> int:
        """The `link` every host of a cluster announces (0: none yet)."""
        stored = self.tables.meta("cluster_link")
        return int(stored.decode()) if stored else 0

    def set_cluster_link(self, link: int) -> None:
        self.tables.put_meta("cluster_link", str(link).encode())

    def seats_of(self, cid: str) -> list[tuple[str, int]]:
        """(room, seat) of every room where the client sits, whichever host runs it."""
        return self.tables.seats_of(cid)

    def save_action(self, room: Room, n: int, seat: int, decision: int | None,
                    action: Action, timed_out: bool = False) -> None:
        """Store action number `n` of the room's game together with the room record.
        `timed_out`: the default the host applied when the seat's time ran out."""
        self.tables.add_action(room.id, n, seat, decision, _enc.encode(action), timed_out,
                               _enc.encode(room.record))

    def action_count(self, room_id: str) -> int:
        return self.tables.action_count(room_id)

    def load_rooms(self, keep_finished: int) -> list[Room]:
        """Every open room, and the latest `keep_finished` finished ones, rebuilt by replay
        (older finished games stay on disk, for `bang host --export`)."""
        records = [_record_dec.decode(blob) for _, blob in self.tables.rooms()]
        return [self.load_room(r) for r in kept(records, keep_finished)]

    def finished_before(self, created_ms: int) -> list[str]:
        """Finished rooms created before `created_ms` (milliseconds since the epoch)."""
        out = []
        for room_id, blob in self.tables.rooms():
            record = _record_dec.decode(blob)
            if record.status == "over" and record.created < created_ms:
                out.append(room_id)
        return out

    def delete_room(self, room_id: str) -> None:
        self.tables.delete_room(room_id)
        self._seats.pop(room_id, None)

    def game_record(self, room_id: str) -> GameRecord | None:
        """The room's game as a record for `bang replay` (bug reports); None before it starts."""
        record = self.load_record(room_id)
        if record.setup is None:
            return None
        moves = [move_of(seat, _action_dec.decode(blob))
                 for _, seat, _, blob, _ in self.tables.actions(room_id)]
        return GameRecord(setup=record.setup, version=record.rules, actions=moves)

    def load_record(self, room_id: str) -> RoomRecord:
        blob = self.tables.room(room_id)
        if blob is None:
            raise KeyError(f"no room {room_id!r} in this store")
        return _record_dec.decode(blob)

    def load_room(self, record: RoomRecord) -> Room:
        room = Room(record)
        room.restored = True
        if record.setup is None:
            return room
        state, events = start_game(record.setup, version=record.rules)
        for n, seat, decision, blob, timed_out in self.tables.actions(record.id):
            action = _action_dec.decode(blob)
            if timed_out:
                events.append(time_up(seat, action))
            try:
                events += apply(state, seat, action, decision)
            except Exception as exc:
                raise ReplayError(f"room {record.id}: action {n} does not replay: {exc}") from exc
        room.state, room.events = state, events
        return room
