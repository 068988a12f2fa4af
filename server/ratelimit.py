"""Token buckets per sender, so one flooding client cannot starve the others."""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimiter:
    """Allows `burst` messages at once and `rate` per second after that, per key."""

    def __init__(self, rate: float = 20.0, burst: float = 60.0, max_keys: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        if key not in self._buckets and len(self._buckets) >= self.max_keys:
            self._forget_full(now)
        self._buckets[key] = (tokens, now)
        return allowed

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled: they hold no information."""
        full = [k for k, (t, last) in self._buckets.items()
                if t + (now - last) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]


class LogOnce:
    """Logs the first refusal per (sender, code) in a window, then counts the rest quietly."""

    def __init__(self, window: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.clock = clock
        self._seen: dict[tuple[str, str], tuple[float, int]] = {}

    def should_log(self, sender: str, code: str) -> int | None:
        """None: stay quiet. Otherwise the number of refusals suppressed since the last log."""
        now = self.clock()
        key = (sender, code)
        since, suppressed = self._seen.get(key, (-self.window, 0))
        if now - since >= self.window:
            if len(self._seen) > 10_000:
                self._seen.clear()
            self._seen[key] = (now, 0)
            return suppressed
        self._seen[key] = (since, suppressed + 1)
        return None
