"""`stop_task` ends a task even when it swallows a cancellation, as Python 3.11's
`asyncio.wait_for` may: the client then hung on quit."""

from __future__ import annotations

import asyncio
import contextlib

from client.net.stopping import stop_task


async def test_a_task_that_swallows_one_cancellation_is_stopped() -> None:
    swallowed = asyncio.Event()

    async def stubborn() -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(3600)
        swallowed.set()
        await asyncio.sleep(3600)  # goes on as if nothing had happened

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await asyncio.wait_for(stop_task(task), 30)
    assert swallowed.is_set() and task.cancelled()


async def test_a_failure_while_stopping_is_dropped() -> None:
    async def failing() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            raise RuntimeError("broken while closing")

    task = asyncio.create_task(failing())
    await asyncio.sleep(0)
    await stop_task(task)
    assert task.done() and isinstance(task.exception(), RuntimeError)
    await stop_task(None)  # nothing to stop
