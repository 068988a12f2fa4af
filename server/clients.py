"""The host's per-client tables, bounded: an LRU of known clients (public key and last
request counter) backed by the store, and LRUs for session keys and registered wills.

Keys cost nothing to make, so nothing here may grow with the number of keys ever seen."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from server.store import Store

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A dict that forgets its least recently used entries past `size`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)


class Clients:
    """cid -> (public key, last request counter): recent ones in memory, all in the store.
    The counter is written in the store's open transaction, with the request's effects."""

    def __init__(self, store: Store, cached: int = 50_000) -> None:
        self.store = store
        self._cache: Lru[str, tuple[bytes, int]] = Lru(cached)

    def get(self, cid: str) -> tuple[bytes, int] | None:
        known = self._cache.get(cid)
        if known is None:
            known = self.store.client(cid)
            if known is not None:
                self._cache.put(cid, known)
        return known

    def advance(self, cid: str, pub: bytes, ctr: int) -> bool:
        """Take the request counter `ctr` if it is newer than the client's last one: whether
        it was (the store decides, in one statement, for every host sharing it)."""
        known = self.get(cid)
        if known is not None and ctr <= known[1]:  # counters only grow: surely a replay
            return False
        if not self.store.advance_client(cid, pub, ctr):
            return False
        self._cache.put(cid, (pub, ctr))
        return True

    def forget_cached(self) -> None:
        """After a rolled-back batch: reread from the store."""
        self._cache = Lru(self._cache.size)
