"""Python's cyclic garbage collector, paced by the screen: collections run between frames.

Textual's strips keep caches that can hold the strip itself (a strip that is already the width
asked for is its own resized copy, and its own single piece), so most strips drawn end as
cyclic garbage that only the collector frees. Left to itself, the collector runs after a fixed
number of allocations, wherever that falls, and that is mostly in the middle of drawing a frame:
at 160x50, a young collection costs about 2 ms there and a middle one 10 to 15 ms. So the
collector runs by itself only as a backstop, far apart, and the app asks for the collections
that are due once a frame is on the screen (`collect_due`), when nobody is waiting for it.
"""

from __future__ import annotations

import gc

#: Young objects (allocations less deallocations) before a collection is due between frames
#: (Python's default: 700; an update of a 7-seat table makes about 1,000).
YOUNG_OBJECTS = 5000
#: Young objects before the collector runs by itself, in a frame or not: frames drawn back to
#: back with no pause between them for `collect_due` still collect.
BACKSTOP = 50_000
#: Collections of a generation before the next one up is collected too (Python's default).
OLDER_EVERY = 10
#: The thresholds the process had before any app settled them, given back by `release`.
PYTHON_THRESHOLDS = gc.get_threshold()


def settle() -> None:
    """Once the first screen is drawn. Everything alive then (Textual, the stylesheet, the
    widgets) lives as long as the app: out of the collector's sight, a full collection takes
    a few milliseconds instead of up to 75. From then on the collector waits for
    `collect_due`, or for the backstop."""
    gc.freeze()
    gc.set_threshold(BACKSTOP, OLDER_EVERY, OLDER_EVERY)


def release() -> None:
    """When the app ends: the collector as it was, for whatever else runs in this process
    (the tests run many apps)."""
    gc.unfreeze()
    gc.set_threshold(*PYTHON_THRESHOLDS)


def collect_due() -> int | None:
    """Between frames: the collection Python's own thresholds would have made by now, if any
    (the generation collected, or None)."""
    young, middle, old = gc.get_count()
    if old >= OLDER_EVERY:
        generation = 2
    elif middle >= OLDER_EVERY:
        generation = 1
    elif young >= YOUNG_OBJECTS:
        generation = 0
    else:
        return None
    gc.collect(generation)
    return generation
