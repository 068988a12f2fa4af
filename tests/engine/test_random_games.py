"""Thousands of complete random-bot games with every invariant checked after every action."""

from __future__ import annotations

import pytest

from shared.record import dump_record
from shared.simulate import InvariantBreach, simulate


@pytest.mark.parametrize("games, players, pool, seed", [
    (1000, (3, 7), "all", 2026),
    (300, (4, 7), "base", 7),
])
def test_random_games_keep_every_invariant_and_end(games: int, players: tuple[int, int],
                                                   pool: str, seed: int) -> None:
    try:
        result = simulate(games, players, seed=seed, pool=pool)
    except InvariantBreach as breach:
        pytest.fail(f"{breach}\n{dump_record(breach.record).decode()}")
    assert result.games == result.completed == games
    assert sum(result.wins.values()) == games
    sides = set(result.wins)
    assert {"sheriff", "outlaws"} <= sides
    if players[0] == 3:
        assert sides & {"3p_deputy", "3p_outlaw", "3p_renegade"}


def test_random_high_noon_games_keep_every_invariant_and_end() -> None:
    """With the event cards (and the bonus ones: the game deals them when asked), including
    the rounds where Ghost Town brings the dead back and High Noon itself."""
    try:
        result = simulate(600, (3, 7), seed=11, expansions=["high_noon"])
    except InvariantBreach as breach:
        pytest.fail(f"{breach}\n{dump_record(breach.record).decode()}")
    assert result.games == result.completed == 600
    assert {"sheriff", "outlaws"} <= set(result.wins)
