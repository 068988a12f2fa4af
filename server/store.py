"""Durable storage in SQLite: host keys, rooms, every accepted action, clients' keys and
request counters.

A room's game is stored as its setup plus the accepted actions; `load_rooms` rebuilds the
live state by replaying them through the engine, so a restarted host carries on exactly.
Writes are grouped: they open a transaction that `commit` makes durable, so a burst of
requests costs one fsync. The host publishes nothing about a write before that commit.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import msgspec

from server.rooms import Room, RoomRecord
from shared.crypto import HostKeys
from shared.engine import apply, start_game
from shared.events import time_up
from shared.model import Action
from shared.record import GameRecord, move_of

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, decision INTEGER,
    action BLOB NOT NULL, timed_out INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room, n));
CREATE TABLE IF NOT EXISTS clients (cid TEXT PRIMARY KEY, pub BLOB NOT NULL, ctr INTEGER NOT NULL);
"""

# An upsert keeps the row id, so rooms load in creation order.
_SAVE_ROOM = ("INSERT INTO rooms VALUES (?, ?) "
              "ON CONFLICT(id) DO UPDATE SET record = excluded.record")

log = logging.getLogger("bang.store")
_enc = msgspec.msgpack.Encoder()
# Lenient: version 1 stored `turn_timeout` as a float.
_record_dec = msgspec.msgpack.Decoder(RoomRecord, strict=False)
_action_dec = msgspec.msgpack.Decoder(Action)


class ReplayError(Exception):
    """A stored game does not replay: the engine changed, or the file is damaged."""


def _private_file(path: Path) -> None:
    """The data file holds the host's private keys and every game: a new directory for it is
    made 0700 and a new file 0600 (SQLite gives its -wal and -shm files the file's mode). An
    existing file that others may read is left as it is, with a warning saying how to fix it."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        log.warning("%s holds the host's private keys and other users of this machine may "
                    "read it (mode %o): run `chmod 600 %s`", path, mode, path)


class Store:
    def __init__(self, path: Path | str) -> None:
        if str(path) != ":memory:":
            _private_file(Path(path))
        self.db = sqlite3.connect(str(path), isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(actions)")}
        if "timed_out" not in columns:  # a data file from before timeouts were stored
            self.db.execute("ALTER TABLE actions ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0")
        self._open = False  # a write transaction is open

    def close(self) -> None:
        self.rollback()
        self.db.close()

    @property
    def pending(self) -> bool:
        """Writes wait for `commit`."""
        return self._open

    def _write(self, sql: str, args: tuple) -> None:
        if not self._open:
            self.db.execute("BEGIN")
            self._open = True
        self.db.execute(sql, args)

    def commit(self) -> None:
        """Make every write since the last commit durable (one fsync)."""
        if self._open:
            self.db.execute("COMMIT")
            self._open = False

    def rollback(self) -> None:
        if self._open:
            self._open = False
            self.db.execute("ROLLBACK")

    def host_keys(self) -> HostKeys:
        """The host's keys, created on first start (the fingerprint survives restarts)."""
        row = self.db.execute("SELECT value FROM meta WHERE key='host_keys'").fetchone()
        if row:
            return HostKeys.from_bytes(row[0])
        keys = HostKeys.generate()
        self._write("INSERT INTO meta VALUES ('host_keys', ?)", (keys.to_bytes(),))
        self.commit()
        return keys

    def client(self, cid: str) -> tuple[bytes, int] | None:
        """A client seen before: (public key, last request counter)."""
        row = self.db.execute("SELECT pub, ctr FROM clients WHERE cid=?", (cid,)).fetchone()
        return (row[0], row[1]) if row else None

    def save_client(self, cid: str, pub: bytes, ctr: int) -> None:
        self._write("INSERT OR REPLACE INTO clients VALUES (?, ?, ?)", (cid, pub, ctr))

    def save_room(self, room: Room) -> None:
        self._write(_SAVE_ROOM, (room.id, _enc.encode(room.record)))

    def save_action(self, room: Room, n: int, seat: int, decision: int | None,
                    action: Action, timed_out: bool = False) -> None:
        """Store action number `n` of the room's game together with the room record.
        `timed_out`: the default the host applied when the seat's time ran out."""
        self._write("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)",
                    (room.id, n, seat, decision, _enc.encode(action), int(timed_out)))
        self.save_room(room)

    def action_count(self, room_id: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM actions WHERE room=?",
                               (room_id,)).fetchone()[0]

    def load_rooms(self, keep_finished: int) -> list[Room]:
        """Every open room, and the latest `keep_finished` finished ones, rebuilt by replay
        (older finished games stay on disk, for `bang host --export`)."""
        records = [_record_dec.decode(blob)
                   for (blob,) in self.db.execute("SELECT record FROM rooms ORDER BY rowid")]
        finished = [r.id for r in records if r.status == "over"]
        keep = set(finished[max(0, len(finished) - keep_finished):])
        return [self.load_room(r) for r in records if r.status != "over" or r.id in keep]

    def finished_before(self, created_ms: int) -> list[str]:
        """Finished rooms created before `created_ms` (milliseconds since the epoch)."""
        out = []
        for room_id, blob in self.db.execute("SELECT id, record FROM rooms"):
            record = _record_dec.decode(blob)
            if record.status == "over" and record.created < created_ms:
                out.append(room_id)
        return out

    def delete_room(self, room_id: str) -> None:
        self._write("DELETE FROM actions WHERE room=?", (room_id,))
        self._write("DELETE FROM rooms WHERE id=?", (room_id,))

    def game_record(self, room_id: str) -> GameRecord | None:
        """The room's game as a record for `bang replay` (bug reports); None before it starts."""
        record = self.load_record(room_id)
        if record.setup is None:
            return None
        rows = self.db.execute("SELECT seat, action FROM actions WHERE room=? ORDER BY n",
                               (room_id,))
        moves = [move_of(seat, _action_dec.decode(blob)) for seat, blob in rows]
        return GameRecord(setup=record.setup, version=record.rules, actions=moves)

    def load_record(self, room_id: str) -> RoomRecord:
        row = self.db.execute("SELECT record FROM rooms WHERE id=?", (room_id,)).fetchone()
        if row is None:
            raise KeyError(f"no room {room_id!r} in this data file")
        return _record_dec.decode(row[0])

    def load_room(self, record: RoomRecord) -> Room:
        room = Room(record)
        if record.setup is None:
            return room
        state, events = start_game(record.setup, version=record.rules)
        rows = self.db.execute(
            "SELECT n, seat, decision, action, timed_out FROM actions WHERE room=? ORDER BY n",
            (record.id,)
        )
        for n, seat, decision, blob, timed_out in rows:
            action = _action_dec.decode(blob)
            if timed_out:
                events.append(time_up(seat, action))
            try:
                events += apply(state, seat, action, decision)
            except Exception as exc:
                raise ReplayError(f"room {record.id}: action {n} does not replay: {exc}") from exc
        room.state, room.events = state, events
        return room
