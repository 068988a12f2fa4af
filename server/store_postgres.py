"""The store's tables in PostgreSQL (`bang host --store postgresql://…`), through psycopg 3.

psycopg's synchronous API, on purpose: the host calls its store synchronously from its event
loop and publishes nothing about a write before `commit()` has returned. A synchronous driver
keeps that rule ("durable before published") and the store interface identical for SQLite and
PostgreSQL; asyncpg would turn every store call into a coroutine, for both backends. A commit
blocks the loop for one round trip and the server's WAL flush, as SQLite's fsync does.

A connection that drops (the server restarted, an administrator or a proxy closed it) is
opened again by the next statement outside a batch; the batch it dropped is lost, and its
`commit` fails as any failed batch does (`Tables`), so the host rebuilds its rooms from what
the server kept.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from server.store_tables import ADD_ACTION, CLUSTER_SCHEMA, PUT_ROOM, StoreUnavailable, Tables

# SQLite's schema with PostgreSQL's types (BIGINT: counters are microseconds since the epoch),
# and `ordinal` for the creation order that SQLite keeps in its rowid.
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, record BYTEA NOT NULL,
    ordinal BIGINT GENERATED ALWAYS AS IDENTITY);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL, n BIGINT NOT NULL, seat INTEGER NOT NULL, decision BIGINT,
    action BYTEA NOT NULL, timed_out INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room, n));
CREATE TABLE IF NOT EXISTS clients (cid TEXT PRIMARY KEY, pub BYTEA NOT NULL, ctr BIGINT NOT NULL);
"""

log = logging.getLogger("bang.store")

#: The advisory lock held while the tables are created (any number, the same for every host).
SCHEMA_LOCK = 0x62616E67  # "bang"

#: Seconds to wait for the server when the URL does not say (libpq waits forever).
CONNECT_TIMEOUT = 10


class PostgresTables(Tables):
    ERRORS = psycopg.Error
    ROOMS = "SELECT id, record FROM rooms ORDER BY ordinal"

    def __init__(self, url: str) -> None:
        """Connect and create the tables if needed; `StoreUnavailable` says why not."""
        params = self._params = _parse(url)
        server = f"{params.get('host') or 'localhost'}:{params.get('port') or 5432}"
        self.where = f"PostgreSQL database {params.get('dbname', '(default)')} at {server}"
        params.setdefault("connect_timeout", CONNECT_TIMEOUT)
        try:
            self.db = self._connect()
        except psycopg.Error as exc:
            raise StoreUnavailable(f"cannot reach PostgreSQL at {server}: {_reason(exc)}") \
                from None
        try:
            # Hosts of a cluster start together: one at a time creates the tables (two
            # CREATE TABLE IF NOT EXISTS at once may both try, and one fails).
            with self.db.transaction():
                self.db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                self.db.execute(SCHEMA + CLUSTER_SCHEMA)
        except psycopg.Error as exc:
            self.db.close()
            raise StoreUnavailable(f"cannot create the tables in {self.where}: "
                                   f"{_reason(exc)}") from None

    def add_action(self, room_id: str, n: int, seat: int, decision: int | None, action: bytes,
                   timed_out: bool, record: bytes) -> None:
        # Both rows in one statement: one round trip to the server instead of two.
        self._write(f"WITH action AS ({ADD_ACTION}) {PUT_ROOM}",
                    (room_id, n, seat, decision, action, int(timed_out), room_id, record))

    def _connect(self) -> psycopg.Connection[Any]:
        # Autocommit: reads run on their own; writes open a batch with an explicit BEGIN.
        return psycopg.connect(**self._params, autocommit=True)

    def _run(self, sql: str, args: Sequence[object] = ()) -> list[Any]:
        if self._lost_connection():
            self._reconnect()
        try:
            return self._execute(sql, args)
        except psycopg.OperationalError:
            if not self._lost_connection() or self.pending:
                raise
        # The connection had dropped before this statement, outside a batch (a read, or the
        # BEGIN of one): nothing of it reached the server, so it is run once more.
        self._reconnect()
        return self._execute(sql, args)

    def _lost_connection(self) -> bool:
        """The server closed the connection, or a reconnection failed (it stays closed)."""
        return self.db.broken or self.db.closed

    def _reconnect(self) -> None:
        if self.pending:  # never on a new connection: its COMMIT would store nothing
            raise psycopg.OperationalError("the connection was lost during this batch")
        log.warning("the connection to %s was lost; connecting again", self.where)
        self.db.close()
        self.db = self._connect()

    def _execute(self, sql: str, args: Sequence[object]) -> list[Any]:
        # The shared statements use SQLite's `?`; none of them has a `?` or `%` of its own.
        cursor = self.db.execute(sql.replace("?", "%s"), args)
        return cursor.fetchall() if cursor.description is not None else []

    def close(self) -> None:
        if not self.db.closed:
            self.rollback()
        self.db.close()


def _parse(url: str) -> dict[str, Any]:
    try:
        params = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        # libpq quotes the URL, password and all: the user has it already.
        reason = _reason(exc).replace(url, "…")
        raise StoreUnavailable(f"malformed PostgreSQL URL: {reason}") from None
    port = str(params.get("port", "5432"))
    if not (port.isdigit() and 0 < int(port) < 65536):
        raise StoreUnavailable(f"malformed PostgreSQL URL: the port must be 1-65535, not {port}")
    return params


def _reason(exc: psycopg.Error) -> str:
    """libpq's message on one line, without its framing ("connection to server at … failed:",
    "FATAL:") and the hints on the lines after it."""
    line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return line.rsplit(" failed: ", 1)[-1].removeprefix("FATAL:").strip()
