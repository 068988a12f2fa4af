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


class LogBudget:
    """At most `lines` refusal log lines per `window` seconds in total, whoever sends: a flood
    from many invented senders cannot grow the log. What is left out is counted and reported
    by the next line that gets through."""

    def __init__(self, lines: int = 20, window: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lines = lines
        self.window = window
        self.clock = clock
        self._start = -window
        self._used = 0
        self._suppressed = 0

    def take(self) -> int | None:
        """None: stay quiet. Otherwise the number of lines suppressed since the last one."""
        now = self.clock()
        if now - self._start >= self.window:
            self._start, self._used = now, 0
        if self._used >= self.lines:
            self._suppressed += 1
            return None
        self._used += 1
        suppressed, self._suppressed = self._suppressed, 0
        return suppressed
