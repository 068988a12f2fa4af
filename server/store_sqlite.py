"""The store's tables in one SQLite file: the default, for a host that runs as one process."""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.store_tables import CLUSTER_SCHEMA, StoreUnavailable, Tables

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, decision INTEGER,
    action BLOB NOT NULL, timed_out INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room, n));
CREATE TABLE IF NOT EXISTS clients (cid TEXT PRIMARY KEY, pub BLOB NOT NULL, ctr INTEGER NOT NULL);
"""

log = logging.getLogger("bang.store")


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


class SqliteTables(Tables):
    ERRORS = sqlite3.Error
    ROOMS = "SELECT id, record FROM rooms ORDER BY rowid"

    def __init__(self, path: Path | str) -> None:
        self.where = str(path)
        try:
            if self.where != ":memory:":
                _private_file(Path(path))
            self.db = sqlite3.connect(self.where, isolation_level=None)
            self._set_up()
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"cannot open the SQLite file {path}: {exc}") from None

    def _set_up(self) -> None:
        """WAL with a durable commit; the tables, and a column older files lack."""
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA + CLUSTER_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(actions)")}
        if "timed_out" not in columns:  # a data file from before timeouts were stored
            self.db.execute("ALTER TABLE actions ADD COLUMN timed_out INTEGER NOT NULL DEFAULT 0")

    def _run(self, sql: str, args: Sequence[object] = ()) -> list[Any]:
        return self.db.execute(sql, args).fetchall()

    def close(self) -> None:
        self.rollback()
        self.db.close()
