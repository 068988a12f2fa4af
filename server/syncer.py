"""The store's fsync off the event loop. A commit of SQLite's write-ahead log takes a few
hundred microseconds; making it durable takes an fsync that may take a millisecond or more,
and blocked the whole host while it ran (measured: 38% of its time under load). Here the
fsync runs in a worker thread while the loop goes on handling requests (they make the next
commit), and the messages a commit speaks of are released only once an fsync that began
after that commit has returned: nothing is published before it is durable.

One fsync at a time: those committed while one runs wait for the next, which covers them
all (a group commit).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

from server.store import StoreError

log = logging.getLogger("bang.syncer")

#: Seconds before a failed fsync is tried again (what waits for it stays unpublished).
RETRY = 1.0

T = TypeVar("T")


class Syncer(Generic[T]):
    """Runs `sync` in a worker thread and hands each batch to `release` once a sync that
    began after the batch was added has returned. Used from the event loop's thread only."""

    def __init__(self, sync: Callable[[], None], release: Callable[[list[T]], None]) -> None:
        self._sync = sync
        self._release = release
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bang-sync")
        self._waiting: list[T] = []  # committed; the next sync covers them
        self._in_flight: list[T] | None = None  # covered by the sync running now
        self._closed = False

    @property
    def busy(self) -> bool:
        """Something waits for a sync: what is released later must wait behind it."""
        return self._in_flight is not None or bool(self._waiting)

    def add(self, batch: list[T]) -> None:
        """`batch` speaks of commits made so far: release it once they are durable."""
        self._waiting += batch
        if self._in_flight is None:
            self._start()

    def close(self) -> list[T]:
        """Stop, waiting for the sync in course: what was not released, in order (its
        commits are not known to be durable: the caller syncs before releasing it)."""
        self._closed = True
        self._pool.shutdown(wait=True)
        left = (self._in_flight or []) + self._waiting
        self._in_flight, self._waiting = None, []
        return left

    def _start(self) -> None:
        batch, self._waiting = self._waiting, []
        self._in_flight = batch
        future = asyncio.get_running_loop().run_in_executor(self._pool, self._sync)
        future.add_done_callback(self._done)

    def _done(self, future: asyncio.Future[None]) -> None:
        if self._closed or future.cancelled():
            return
        batch, self._in_flight = self._in_flight or [], None
        try:
            future.result()
        except StoreError as exc:
            log.error("%s; %d messages wait, tried again in %g s", exc, len(batch), RETRY)
            self._waiting[:0] = batch
            self._in_flight = []  # nothing else starts meanwhile: order is kept
            asyncio.get_running_loop().call_later(RETRY, self._retry)
            return
        self._release(batch)
        if self._waiting:
            self._start()

    def _retry(self) -> None:
        if not self._closed:
            self._in_flight = None
            self._start()
