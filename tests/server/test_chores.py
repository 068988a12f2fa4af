"""The host's housekeeping goes on when the store fails it: a chore raising would end its task,
and with it the host."""

from __future__ import annotations

import asyncio

import pytest

from server.connection import keep_house
from server.store import StoreError


async def test_a_chore_the_store_fails_is_tried_again_and_the_host_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    def tick() -> None:
        calls.append(len(calls))
        if len(calls) <= 2:
            raise StoreError("connection failed")

    task = asyncio.create_task(keep_house(0.01, tick))
    for _ in range(200):
        if len(calls) >= 4:
            break
        await asyncio.sleep(0.01)
    assert not task.done() and len(calls) >= 4
    task.cancel()
    assert sum("tick: the store failed" in r.getMessage() for r in caplog.records) == 2
