"""Decision timers: one per room, re-armed whenever the pending decision changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class DecisionTimers:
    def __init__(self) -> None:
        self._handles: dict[str, asyncio.TimerHandle] = {}

    def arm(self, room: str, delay: float, callback: Callable[[], None]) -> None:
        """Replace the room's timer: `callback` runs once after `delay` seconds."""
        self.cancel(room)
        loop = asyncio.get_running_loop()
        self._handles[room] = loop.call_later(delay, self._fire, room, callback)

    def _fire(self, room: str, callback: Callable[[], None]) -> None:
        self._handles.pop(room, None)
        callback()

    def cancel(self, room: str) -> None:
        handle = self._handles.pop(room, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
