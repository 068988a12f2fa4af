"""Caps on sessions (and on connections): a total, and per client address so one machine cannot
take every seat."""

from __future__ import annotations

from collections import Counter


class SessionCaps:
    def __init__(self, max_sessions: int, max_per_ip: int) -> None:
        self.max_sessions = max_sessions
        self.max_per_ip = max_per_ip
        self._per_ip: Counter[str] = Counter()

    @property
    def active(self) -> int:
        return self._per_ip.total()

    def try_acquire(self, address: str) -> str | None:
        """Take a slot for `address`; on refusal return the message for the player."""
        if self.active >= self.max_sessions:
            return (
                f"Server full: all {self.max_sessions} places are taken. "
                "Please try again in a few minutes."
            )
        if self._per_ip[address] >= self.max_per_ip:
            return (
                f"Server full for your address: at most {self.max_per_ip} sessions "
                "from one address. Close one and try again."
            )
        self._per_ip[address] += 1
        return None

    def release(self, address: str) -> None:
        self._per_ip[address] -= 1
        if self._per_ip[address] <= 0:
            del self._per_ip[address]
