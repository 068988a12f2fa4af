"""The store's tables, in SQL written once for both backends (SQLite and PostgreSQL): rows in
and rows out, grouped writes, no game logic. A backend brings its connection, its schema and
the few statements where the two dialects differ.

A failed write fails its whole batch, on both backends: the batch is rolled back at once and
the next `commit` raises `StoreError`, so the host drops what it staged and rebuilds its rooms
from the store (PostgreSQL could not go on anyway: an error aborts the transaction).
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

# An upsert keeps the row, and with it the room's place in the creation order.
PUT_ROOM = ("INSERT INTO rooms (id, record) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET record = excluded.record")
ADD_ACTION = ("INSERT INTO actions (room, n, seat, decision, action, timed_out) "
              "VALUES (?, ?, ?, ?, ?, ?)")

#: The tables only a cluster of hosts uses (`bang host --cluster`), in both backends: who owns
#: each room (a lease a host renews), and where each client sits (for a host that greets a
#: client whose rooms another host runs).
CLUSTER_SCHEMA = """
CREATE TABLE IF NOT EXISTS leases (room TEXT PRIMARY KEY, host TEXT NOT NULL,
    until BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (cid TEXT NOT NULL, room TEXT NOT NULL, seat INTEGER NOT NULL,
    PRIMARY KEY (cid, room));
"""

#: (n, seat, decision, action, timed_out) of one stored action.
ActionRow = tuple[int, int, int | None, bytes, int]


class StoreError(Exception):
    """A write or a commit failed: nothing of its batch is stored."""


class StoreUnavailable(Exception):
    """The store cannot be opened (a bad URL, an unreachable server, a missing driver): the
    message is one line for the user."""


class Tables(ABC):
    #: The driver's base exception.
    ERRORS: ClassVar[type[Exception]]
    #: (id, record) of every room, in creation order.
    ROOMS: ClassVar[str]
    #: Where the data is, for logs (never a password).
    where: str
    #: Writes wait for `commit`.
    pending = False
    _lost = False  # a write of this batch failed: `commit` must fail

    @abstractmethod
    def _run(self, sql: str, args: Sequence[object] = ()) -> list[Any]:
        """Run one statement (placeholders are `?`); its rows, none for a write."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection; an open batch is lost."""

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[Any]:
        """Run a query; a failure of the database is a `StoreError` like a failed write."""
        try:
            return self._run(sql, args)
        except self.ERRORS as exc:
            raise StoreError(_first_line(exc)) from exc

    def _write(self, sql: str, args: Sequence[object]) -> list[Any]:
        """Run a write in the open batch (opened if needed); its rows (RETURNING)."""
        try:
            if not self.pending:
                self._run("BEGIN")
                self.pending = True
            return self._run(sql, args)
        except self.ERRORS as exc:
            self._abort()
            self._lost = True
            raise StoreError(_first_line(exc)) from exc

    def _abort(self) -> None:
        """Roll back after a failure (the database may have done it already)."""
        self.pending = False
        with contextlib.suppress(self.ERRORS):
            self._run("ROLLBACK")

    def commit(self) -> None:
        """Make every write since the last commit durable (one transaction, one fsync)."""
        if self._lost:
            self.rollback()
            raise StoreError("a write of this batch failed: the whole batch is rolled back")
        if not self.pending:
            return
        try:
            self._run("COMMIT")
        except self.ERRORS as exc:
            self._abort()
            raise StoreError(_first_line(exc)) from exc
        self.pending = False

    def rollback(self) -> None:
        self._lost = False
        if self.pending:
            self.pending = False
            self._run("ROLLBACK")

    def meta(self, key: str) -> bytes | None:
        rows = self._read("SELECT value FROM meta WHERE key=?", (key,))
        return rows[0][0] if rows else None

    def put_meta(self, key: str, value: bytes) -> None:
        self._write("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) "
                    "DO UPDATE SET value = excluded.value", (key, value))

    def add_meta(self, key: str, value: bytes) -> None:
        """Store `value` unless the key has one already."""
        self._write("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                    (key, value))

    def client(self, cid: str) -> tuple[bytes, int] | None:
        rows = self._read("SELECT pub, ctr FROM clients WHERE cid=?", (cid,))
        return (rows[0][0], rows[0][1]) if rows else None

    def put_client(self, cid: str, pub: bytes, ctr: int) -> None:
        self._write("INSERT INTO clients (cid, pub, ctr) VALUES (?, ?, ?) ON CONFLICT (cid) "
                    "DO UPDATE SET pub = excluded.pub, ctr = excluded.ctr", (cid, pub, ctr))

    def advance_client(self, cid: str, pub: bytes, ctr: int) -> bool:
        """Record the client's counter if it is newer than the stored one (or the client is
        new): whether it was. One statement, so two hosts cannot both accept one counter."""
        return bool(self._write(
            "INSERT INTO clients (cid, pub, ctr) VALUES (?, ?, ?) ON CONFLICT (cid) "
            "DO UPDATE SET pub = excluded.pub, ctr = excluded.ctr "
            "WHERE clients.ctr < excluded.ctr RETURNING cid", (cid, pub, ctr)))

    def claim(self, room_id: str, host: str, until: int, now: int) -> bool:
        """Take or keep the room's lease until `until` (ms), unless another host holds it
        beyond `now`: whether this host holds it now."""
        return bool(self._write(
            "INSERT INTO leases (room, host, until) VALUES (?, ?, ?) ON CONFLICT (room) "
            "DO UPDATE SET host = excluded.host, until = excluded.until "
            "WHERE leases.host = excluded.host OR leases.until < ? RETURNING room",
            (room_id, host, until, now)))

    def renew(self, host: str, until: int) -> set[str]:
        """Extend every lease `host` holds; the rooms it still holds."""
        return {row[0] for row in self._write(
            "UPDATE leases SET until = ? WHERE host = ? RETURNING room", (until, host))}

    def expire(self, host: str) -> None:
        """Every lease of `host` runs out now (it stopped, or its link died)."""
        self._write("UPDATE leases SET until = 0 WHERE host = ?", (host,))

    def release(self, room_id: str, host: str) -> None:
        self._write("DELETE FROM leases WHERE room = ? AND host = ?", (room_id, host))

    def owner(self, room_id: str, now: int) -> str | None:
        """The host whose lease on the room runs past `now`."""
        rows = self._read("SELECT host FROM leases WHERE room = ? AND until >= ?", (room_id, now))
        return rows[0][0] if rows else None

    def orphans(self, now: int) -> list[str]:
        """Rooms no host holds a lease on (never taken, or its holder stopped renewing)."""
        return [row[0] for row in self._read(
            "SELECT rooms.id FROM rooms LEFT JOIN leases ON leases.room = rooms.id "
            "WHERE leases.room IS NULL OR leases.until < ?", (now,))]

    def put_seats(self, room_id: str, seats: Sequence[tuple[str, int]]) -> None:
        """Who sits where in the room: (client id, seat) for each human seat."""
        self._write("DELETE FROM seats WHERE room = ?", (room_id,))
        for cid, seat in seats:
            self._write("INSERT INTO seats (cid, room, seat) VALUES (?, ?, ?)",
                        (cid, room_id, seat))

    def seats_of(self, cid: str) -> list[tuple[str, int]]:
        """(room, seat) of every room the client sits in."""
        return [(row[0], row[1]) for row in self._read(
            "SELECT room, seat FROM seats WHERE cid = ?", (cid,))]

    def put_room(self, room_id: str, record: bytes) -> None:
        self._write(PUT_ROOM, (room_id, record))

    def add_action(self, room_id: str, n: int, seat: int, decision: int | None, action: bytes,
                   timed_out: bool, record: bytes) -> None:
        """Action `n` of the room's game, and the room's record as it is after it. A second
        write of the same (room, n) fails: the primary key."""
        self._write(ADD_ACTION, (room_id, n, seat, decision, action, int(timed_out)))
        self.put_room(room_id, record)

    def action_count(self, room_id: str) -> int:
        return int(self._read("SELECT COUNT(*) FROM actions WHERE room=?", (room_id,))[0][0])

    def rooms(self) -> list[tuple[str, bytes]]:
        return self._read(self.ROOMS)

    def room(self, room_id: str) -> bytes | None:
        rows = self._read("SELECT record FROM rooms WHERE id=?", (room_id,))
        return rows[0][0] if rows else None

    def actions(self, room_id: str) -> list[ActionRow]:
        """The room's actions in order."""
        return self._read("SELECT n, seat, decision, action, timed_out FROM actions "
                         "WHERE room=? ORDER BY n", (room_id,))

    def delete_room(self, room_id: str) -> None:
        self._write("DELETE FROM seats WHERE room=?", (room_id,))
        self._write("DELETE FROM leases WHERE room=?", (room_id,))
        self._write("DELETE FROM actions WHERE room=?", (room_id,))
        self._write("DELETE FROM rooms WHERE id=?", (room_id,))


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
