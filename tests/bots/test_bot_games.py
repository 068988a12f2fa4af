"""Whole games: bots never make an illegal move, a seed replays a game exactly, and `bang
simulate --bots` reports per kind and role."""

from __future__ import annotations

import json

import pytest

from client.cli import main
from shared.bots import make_bot, tell
from shared.engine import apply, start_game
from shared.events import redact
from shared.model import Event
from shared.serialize import encode_state
from shared.setup import Setup
from shared.simulate import deal_kinds, play_game, simulate
from shared.views import view

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


@pytest.mark.parametrize("kind", ["normal", "easy"])
def test_a_rebuilt_bot_chooses_like_the_original(kind):
    # A host that restarts rebuilds its bots with the same seed and feeds them the game's
    # events again; they must go on choosing exactly as the bots they replace would have.
    state, events = start_game(Setup(players=5, seed=21))
    bots = [make_bot(kind, 40 + seat) for seat in range(5)]
    history: list[list[Event]] = [[redact(e, s) for e in events] for s in range(5)]
    for seat, bot in enumerate(bots):
        tell({seat: bot}, history[seat])  # only bots that read roles observe
    checked = 0
    while state.winner is None:
        seat = state.pending.seat
        action = bots[seat].choose(view(state, seat))
        if state.actions % 7 == 0:
            rebuilt = make_bot(kind, 40 + seat)
            tell({seat: rebuilt}, history[seat])
            assert rebuilt.choose(view(state, seat)) == action
            checked += 1
        events = apply(state, seat, action)
        for s, bot in enumerate(bots):
            seen = [redact(e, s) for e in events]
            history[s].extend(seen)
            tell({s: bot}, seen)
    assert checked > 5


def test_bang_simulate_bots_timing_json(capsys):
    code = main(["simulate", "--games", "6", "--players", "4", "--bots", "normal,easy",
                 "--timing", "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["by_kind"]["normal"]["all"]["games"] == 6
    assert set(data["decision_ms"]) == {"normal", "easy", "random"}
    for t in data["decision_ms"].values():
        assert t["decisions"] > 0 and 0 < t["median"] <= t["p99"] <= t["max"]


def test_bang_simulate_refuses_unknown_bot_kinds(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--bots", "normal,genius"])
    assert "genius" in capsys.readouterr().err
