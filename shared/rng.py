"""A tiny seeded generator whose whole state is one integer kept inside the game state.

Written here (SplitMix64) rather than borrowed from `random` so that a game record replays
identically on every Python version and the state round-trips through MessagePack as a number.
"""

from __future__ import annotations

from typing import Final, TypeVar

_T = TypeVar("_T")

_MASK: Final = (1 << 64) - 1


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, an integer uniform in [0, n)). Rejection sampling keeps it unbiased."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, value = next_u64(state)
        if value < limit:
            return state, value % n


def shuffle(state: int, items: list[_T]) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new generator state."""
    # `below` and `next_u64` written out: a reshuffle of the discard pile draws up to 79 times.
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        items[i], items[j] = items[j], items[i]
    return state


def seed_state(seed: int) -> int:
    return seed & _MASK
