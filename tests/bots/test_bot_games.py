"""Whole games: bots never make an illegal move, and a seed replays a game exactly."""

from __future__ import annotations

import pytest

from shared.serialize import encode_state
from shared.setup import Setup
from shared.simulate import deal_kinds, play_game, simulate

MIXED = ["normal", "easy", "random", "normal", "easy", "normal", "random"]


@pytest.mark.parametrize(("bots", "pool", "seed"), [
    (MIXED, "all", 11),
    (["normal"] * 7, "all", 12),
    (["easy", "normal"] * 4, "base", 13),
])
def test_bots_only_make_legal_moves(bots, pool, seed):
    # apply() refuses any action that is not among the options, and the simulator checks
    # every invariant after every action: either failure raises.
    result = simulate(400, (3, 7), seed=seed, bots=bots, pool=pool)
    assert result.completed == 400


def test_a_seed_replays_the_same_game():
    setup = Setup(players=6, seed=99)
    kinds = ["normal", "easy", "normal", "random", "normal", "easy"]
    first, actions = play_game(setup, kinds)
    second, again = play_game(setup, kinds)
    assert actions == again
    assert encode_state(first) == encode_state(second)


def test_kinds_are_dealt_to_random_seats_deterministically():
    stream, dealt = 7, []
    for _ in range(40):
        stream, kinds = deal_kinds(stream, ["normal", "easy"], 4)
        assert sorted(kinds) == ["easy", "normal", "random", "random"]
        dealt.append(kinds.index("normal"))
    assert set(dealt) == {0, 1, 2, 3}
    assert deal_kinds(7, ["normal", "easy"], 4) == deal_kinds(7, ["normal", "easy"], 4)


def test_simulate_reports_win_rates_by_kind_and_role():
    result = simulate(60, (4, 5), seed=3, bots=["normal", "easy"]).as_json()
    by_kind = result["by_kind"]
    assert set(by_kind) == {"normal", "easy", "random"}
    assert by_kind["normal"]["all"]["games"] == by_kind["easy"]["all"]["games"] == 60
    sheriffs = [roles.get("sheriff", {"games": 0, "wins": 0}) for roles in by_kind.values()]
    assert sum(s["games"] for s in sheriffs) == 60  # one Sheriff a game
    assert sum(s["wins"] for s in sheriffs) == result["wins"].get("sheriff", 0)
    for roles in by_kind.values():
        assert roles["all"]["games"] == sum(r["games"] for k, r in roles.items() if k != "all")
        for r in roles.values():
            assert r["rate"] == round(r["wins"] / r["games"], 3)
