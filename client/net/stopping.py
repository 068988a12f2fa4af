"""Stopping a background task for good."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

#: How long one cancellation may take before it is sent again.
RETRY_SECONDS = 0.5


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel `task` and wait until it is done. One cancellation is not always enough: in
    Python 3.11 `asyncio.wait_for` swallows it when its own future completes at the same
    moment (the app then hung on quit, waiting for a connection loop that went on), so it is
    sent again until the task ends. What the task raised while stopping is dropped."""
    if task is None:
        return
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=RETRY_SECONDS)
    if not task.cancelled():
        with contextlib.suppress(Exception):
            task.result()
