"""The collector runs between frames (client.heap), and the app leaves it as it found it."""

from __future__ import annotations

import gc
import weakref

from client import heap
from client.app import BangApp
from client.uibench import FeedSession, game_updates


class Cycle:
    """Garbage only the collector frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


def cyclic_garbage(count: int) -> weakref.ref[Cycle]:
    """`count` unreachable cycles; a weak reference to the last one."""
    for _ in range(count - 1):
        Cycle()
    return weakref.ref(Cycle())


def test_a_collection_is_due_once_enough_young_objects_are_made() -> None:
    heap.settle()
    try:
        gc.collect()
        assert heap.collect_due() is None
        last = cyclic_garbage(heap.YOUNG_OBJECTS)
        assert last() is not None  # the backstop is far: the collector has not run by itself
        assert heap.collect_due() == 0
        assert last() is None
    finally:
        heap.release()
    assert gc.get_threshold() == heap.PYTHON_THRESHOLDS
    assert gc.get_freeze_count() == 0


async def test_the_table_collects_once_an_update_is_drawn() -> None:
    session = FeedSession()
    app = BangApp(session)
    updates = game_updates(players=4, seed=5, limit=6)
    async with app.run_test(size=(80, 24)) as pilot:
        session.emit(updates[0])
        await pilot.pause()
        await pilot.pause()
        assert gc.get_threshold()[0] == heap.BACKSTOP  # settled
        for update in updates[1:]:
            last = cyclic_garbage(heap.YOUNG_OBJECTS)
            session.emit(update)
            await pilot.pause()
            await pilot.pause()
            assert last() is None  # collected after the frame, not a second later
    assert gc.get_threshold() == heap.PYTHON_THRESHOLDS
