"""Decision timers: same-decision re-arms keep the deadline, pause/resume, wall-clock deadlines.

Real asyncio with delays of tens of milliseconds. Timing is checked by order (a control timer
on the same loop) and by bounds on `remaining()` that only a slow machine could make looser,
never by how quickly something happened.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from server.timers import DecisionTimers

WAIT = 5.0  # generous cap when waiting for a timer that must fire


class Fired:
    """Records which callbacks ran, in order, and lets a test wait for one of them."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self._events: dict[str, asyncio.Event] = {}

    def cb(self, name: str) -> Callable[[], None]:
        def run() -> None:
            self.order.append(name)
            self._event(name).set()

        return run

    def _event(self, name: str) -> asyncio.Event:
        return self._events.setdefault(name, asyncio.Event())

    async def until(self, name: str) -> None:
        await asyncio.wait_for(self._event(name).wait(), WAIT)


@pytest.fixture
def timers() -> DecisionTimers:
    return DecisionTimers()


# --- arming ---------------------------------------------------------------------------------


async def test_fires_once(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.02, fired.cb("a"))
    await fired.until("a")
    await asyncio.sleep(0.05)
    assert fired.order == ["a"]
    assert timers.remaining("a") is None and timers.deadline("a") is None


async def test_rearming_the_same_decision_keeps_the_deadline(timers: DecisionTimers) -> None:
    """The reconnect bug: three re-arms before the deadline must not push it back."""
    fired = Fired()
    loop = asyncio.get_running_loop()
    timers.arm("a", 7, 0.1, fired.cb("a"))
    first = timers.deadline("a")
    for at in (0.025, 0.05, 0.075):  # loop timers, so they run in order before "a" is due
        loop.call_later(at, timers.arm, "a", 7, 0.1, fired.cb("a"))
    # Between the original deadline (0.1) and a restarted one (at least 0.175).
    timers.arm("control", 1, 0.15, fired.cb("control"))
    await fired.until("control")
    await asyncio.sleep(0.15)  # long enough for a restarted timer to have fired too
    assert fired.order == ["a", "control"]
    assert first is not None and timers.deadline("a") is None


async def test_rearming_the_same_decision_reports_the_same_deadline(
        timers: DecisionTimers) -> None:
    timers.arm("a", 3, 10.0, lambda: None)
    deadline = timers.deadline("a")
    await asyncio.sleep(0.03)
    timers.arm("a", 3, 10.0, lambda: None)
    assert timers.deadline("a") == deadline
    remaining = timers.remaining("a")
    assert remaining is not None and remaining < 10.0 - 0.02  # the 30 ms slept still count


async def test_rearming_the_same_decision_replaces_the_callback(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.02, fired.cb("old"))
    timers.arm("a", 1, 0.02, fired.cb("new"))
    await fired.until("new")
    await asyncio.sleep(0.03)
    assert fired.order == ["new"]


async def test_a_new_decision_restarts_the_timer(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.03, fired.cb("d1"))
    await asyncio.sleep(0.01)
    timers.arm("a", 2, 10.0, fired.cb("d2"))
    remaining = timers.remaining("a")
    assert remaining is not None and remaining > 9.0
    timers.arm("control", 1, 0.08, fired.cb("control"))
    await fired.until("control")
    assert fired.order == ["control"]  # d1 was replaced, d2 is far off


async def test_the_callback_may_arm_the_next_decision(timers: DecisionTimers) -> None:
    fired = Fired()

    def first() -> None:
        fired.cb("d1")()
        timers.arm("a", 2, 0.01, fired.cb("d2"))

    timers.arm("a", 1, 0.01, first)
    await fired.until("d2")
    assert fired.order == ["d1", "d2"]


async def test_cancel_and_cancel_all(timers: DecisionTimers) -> None:
    fired = Fired()
    for room in ("a", "b", "c"):
        timers.arm(room, 1, 0.02, fired.cb(room))
    timers.cancel("a")
    timers.cancel("nowhere")  # no timer: nothing to do
    timers.cancel_all()
    timers.arm("control", 1, 0.05, fired.cb("control"))
    await fired.until("control")
    assert fired.order == ["control"]


async def test_rearming_after_cancel_starts_afresh(timers: DecisionTimers) -> None:
    timers.arm("a", 1, 0.05, lambda: None)
    await asyncio.sleep(0.02)
    timers.cancel("a")
    timers.arm("a", 1, 10.0, lambda: None)
    remaining = timers.remaining("a")
    assert remaining is not None and remaining > 9.0
    timers.cancel_all()


# --- deadline() and remaining() -------------------------------------------------------------


async def test_deadline_and_remaining(timers: DecisionTimers) -> None:
    assert timers.deadline("a") is None and timers.remaining("a") is None
    before = time.time()
    timers.arm("a", 1, 10.0, lambda: None)
    after = time.time()
    deadline = timers.deadline("a")
    assert deadline is not None and before + 10.0 <= deadline <= after + 10.0
    remaining = timers.remaining("a")
    assert remaining is not None and 9.0 < remaining <= 10.0
    await asyncio.sleep(0.03)
    later = timers.remaining("a")
    assert later is not None and later < remaining
    assert timers.deadline("a") == deadline  # stable while it runs
    timers.cancel("a")
    assert timers.deadline("a") is None and timers.remaining("a") is None


async def test_deadline_at_sets_the_deadline(timers: DecisionTimers) -> None:
    at = time.time() + 10.0
    timers.arm("a", 1, 0.01, lambda: None, deadline_at=at)  # the delay gives way
    assert timers.deadline("a") == pytest.approx(at, abs=0.5)
    remaining = timers.remaining("a")
    assert remaining is not None and 9.0 < remaining <= 10.0
    timers.cancel_all()


async def test_deadline_at_in_the_past_fires_promptly(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 10.0, fired.cb("a"), deadline_at=time.time() - 5.0)
    assert timers.remaining("a") == 0.0
    timers.arm("control", 1, 0.05, fired.cb("control"))
    await fired.until("control")
    assert fired.order == ["a", "control"]


async def test_deadline_at_for_the_same_decision_keeps_the_deadline(
        timers: DecisionTimers) -> None:
    timers.arm("a", 1, 10.0, lambda: None)
    deadline = timers.deadline("a")
    timers.arm("a", 1, 10.0, lambda: None, deadline_at=time.time() + 100.0)
    assert timers.deadline("a") == deadline
    timers.cancel_all()


# --- pause and resume -----------------------------------------------------------------------


async def test_pause_stops_firing(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.03, fired.cb("a"))
    timers.pause()
    assert timers.paused
    await asyncio.sleep(0.1)  # well past the deadline
    assert fired.order == []
    assert timers.deadline("a") is None
    remaining = timers.remaining("a")
    assert remaining is not None and 0.0 < remaining <= 0.03
    timers.cancel_all()


async def test_paused_remaining_is_frozen(timers: DecisionTimers) -> None:
    timers.arm("a", 1, 1.0, lambda: None)
    await asyncio.sleep(0.02)
    timers.pause()
    frozen = timers.remaining("a")
    await asyncio.sleep(0.05)
    timers.pause()  # idempotent: does not freeze again
    assert frozen is not None and frozen < 1.0 - 0.01  # the 20 ms before the pause count
    assert timers.remaining("a") == frozen
    timers.cancel_all()


async def test_resume_runs_on_with_the_frozen_time(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.2, fired.cb("a"))
    await asyncio.sleep(0.05)
    timers.pause()
    frozen = timers.remaining("a")
    assert frozen is not None and frozen < 0.2 - 0.04
    await asyncio.sleep(0.3)  # past the original deadline
    timers.resume()
    assert not timers.paused
    remaining = timers.remaining("a")
    assert remaining is not None and remaining <= frozen  # not restarted at full length
    deadline = timers.deadline("a")
    assert deadline is not None and deadline == pytest.approx(time.time() + frozen, abs=0.5)
    # Not fired at once either: a control due at half the frozen time goes first.
    timers.arm("control", 1, frozen / 2, fired.cb("control"))
    await fired.until("a")
    assert fired.order == ["control", "a"]


async def test_resume_grace_extends_a_nearly_expired_timer(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.02, fired.cb("a"))
    timers.pause()
    await asyncio.sleep(0.05)
    timers.resume(grace=0.5)
    remaining = timers.remaining("a")
    assert remaining is not None and remaining > 0.4
    timers.arm("control", 1, 0.1, fired.cb("control"))
    await fired.until("control")
    assert fired.order == ["control"]  # "a" got its grace
    await fired.until("a")
    assert fired.order == ["control", "a"]


async def test_resume_grace_does_not_shorten(timers: DecisionTimers) -> None:
    timers.arm("a", 1, 10.0, lambda: None)
    timers.pause()
    timers.resume(grace=0.5)
    remaining = timers.remaining("a")
    assert remaining is not None and remaining > 9.0
    timers.cancel_all()


async def test_resume_is_idempotent(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.03, fired.cb("a"))
    timers.resume(grace=10.0)  # not paused: nothing to resume, nothing extended
    remaining = timers.remaining("a")
    assert remaining is not None and remaining <= 0.03
    timers.pause()
    timers.resume()
    timers.resume(grace=10.0)  # already running: no second handle, no extension
    remaining = timers.remaining("a")
    assert remaining is not None and remaining <= 0.03
    await fired.until("a")
    await asyncio.sleep(0.05)
    assert fired.order == ["a"]


async def test_arming_while_paused_stays_paused(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.pause()
    timers.arm("a", 1, 0.02, fired.cb("a"))
    await asyncio.sleep(0.08)
    assert fired.order == []
    assert timers.deadline("a") is None
    assert timers.remaining("a") == pytest.approx(0.02)
    timers.arm("a", 1, 5.0, fired.cb("a"))  # same decision while paused: time kept
    assert timers.remaining("a") == pytest.approx(0.02)
    timers.resume()
    deadline = timers.deadline("a")
    assert deadline is not None
    await fired.until("a")
    assert fired.order == ["a"]


async def test_deadline_at_while_paused_is_frozen(timers: DecisionTimers) -> None:
    timers.pause()
    timers.arm("a", 1, 0.0, lambda: None, deadline_at=time.time() + 10.0)
    remaining = timers.remaining("a")
    assert remaining is not None and 9.0 < remaining <= 10.0
    assert timers.deadline("a") is None
    await asyncio.sleep(0.03)
    assert timers.remaining("a") == remaining
    timers.cancel_all()


async def test_cancel_while_paused(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.02, fired.cb("a"))
    timers.arm("b", 1, 0.02, fired.cb("b"))
    timers.pause()
    timers.cancel("a")
    assert timers.remaining("a") is None
    timers.resume()
    await fired.until("b")
    await asyncio.sleep(0.05)
    assert fired.order == ["b"]


async def test_cancel_all_while_paused(timers: DecisionTimers) -> None:
    fired = Fired()
    timers.arm("a", 1, 0.02, fired.cb("a"))
    timers.pause()
    timers.cancel_all()
    assert timers.paused  # the link state is not a timer
    timers.resume()
    timers.arm("control", 1, 0.05, fired.cb("control"))
    await fired.until("control")
    assert fired.order == ["control"]
