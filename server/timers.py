"""Decision timers: one per room, for the room's pending decision (a bot's move or a timeout).

A timer belongs to a decision id, not to the moment it was armed: re-arming a room for the
decision it already waits on keeps the deadline, so a host that re-arms every room on each
broker reconnect does not hand out fresh time. While the host has no broker link the timers
are paused (nobody could answer, so nothing may time out) and resume with what was left.

Scheduling and the remaining-time arithmetic use the event loop's monotonic clock; only
`deadline()` and `arm(deadline_at=...)` speak wall-clock time, for clients and for storage.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Timer:
    room: str
    decision: int
    callback: Callable[[], None]
    loop: asyncio.AbstractEventLoop
    left: float  # seconds left when paused; meaningless while running (see `due`)
    due: float | None = None  # loop.time() at which it fires; None while paused
    wall_due: float | None = None  # the same instant in time.time() terms; None while paused
    handle: asyncio.TimerHandle | None = None

    def start(self, fire: Callable[[_Timer], None]) -> None:
        """Run (again) with `left` seconds to go."""
        self.due = self.loop.time() + self.left
        # Kept rather than recomputed so every `deadline()` of one run gives the same value.
        self.wall_due = time.time() + self.left
        self.handle = self.loop.call_later(self.left, fire, self)

    def stop(self) -> None:
        """Freeze: cancel the handle and keep the time left."""
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        if self.due is not None:
            self.left = max(0.0, self.due - self.loop.time())
        self.due = self.wall_due = None


class DecisionTimers:
    """One timer per room, keyed by the decision it waits on; all pausable together."""

    def __init__(self) -> None:
        self._timers: dict[str, _Timer] = {}
        self._paused = False

    @property
    def paused(self) -> bool:
        """True between `pause()` and `resume()`: no timer runs."""
        return self._paused

    def arm(self, room: str, decision: int, delay: float, callback: Callable[[], None], *,
            deadline_at: float | None = None) -> None:
        """Arm the room's timer for `decision`: `callback` runs once when it expires.

        If the room's timer already waits on the same decision (running or paused), its
        deadline stands and only the callback is replaced. Otherwise the timer starts afresh
        with `delay` seconds, or, given `deadline_at` (a wall-clock deadline loaded from
        storage after a restart), with whatever is left of it (nothing left: fires at once).
        While paused the new timer is recorded frozen and starts on `resume()`.
        """
        current = self._timers.get(room)
        if current is not None and current.decision == decision:
            current.callback = callback
            return
        self.cancel(room)
        if deadline_at is not None:
            delay = deadline_at - time.time()
        loop = asyncio.get_running_loop()
        timer = _Timer(room, decision, callback, loop, left=max(0.0, delay))
        self._timers[room] = timer
        if not self._paused:
            timer.start(self._fire)

    def _fire(self, timer: _Timer) -> None:
        if self._timers.get(timer.room) is not timer:  # cancelled or replaced meanwhile
            return
        del self._timers[timer.room]  # before the callback, which may arm the next decision
        timer.callback()

    def cancel(self, room: str) -> None:
        timer = self._timers.pop(room, None)
        if timer is not None:
            timer.stop()

    def cancel_all(self) -> None:
        for timer in self._timers.values():
            timer.stop()
        self._timers.clear()

    def deadline(self, room: str) -> float | None:
        """Wall-clock time (seconds since the epoch) at which the room's timer fires; None if
        no timer is armed or while paused (it would not be true: the clock is stopped)."""
        timer = self._timers.get(room)
        return None if timer is None else timer.wall_due

    def remaining(self, room: str) -> float | None:
        """Seconds left on the room's timer (frozen while paused); None if none is armed."""
        timer = self._timers.get(room)
        if timer is None:
            return None
        if timer.due is None:
            return timer.left
        return max(0.0, timer.due - timer.loop.time())

    def pause(self) -> None:
        """The broker link is gone: stop every timer and freeze its remaining time."""
        if self._paused:
            return
        self._paused = True
        for timer in self._timers.values():
            timer.stop()

    def resume(self, grace: float = 0.0) -> None:
        """The link is back: every timer runs again with its frozen time, but with at least
        `grace` seconds, so players get a moment to answer after the outage. Idempotent:
        does nothing (and extends nothing) when not paused."""
        if not self._paused:
            return
        self._paused = False
        for timer in self._timers.values():
            timer.left = max(timer.left, grace)
            timer.start(self._fire)
