"""The speed shortcuts answer exactly what the long way answers: distances kept while a state
does not change, a random bot choosing from its options alone, role inference kept between
decisions."""

from __future__ import annotations

import copy
import random

from shared import rules
from shared.bots import make_bot
from shared.bots.beliefs import Beliefs
from shared.bots.random_bot import RandomBot
from shared.engine import apply, start_game
from shared.events import redact
from shared.setup import Setup
from shared.views import view


def _distances(state) -> list[list[int]]:
    n = len(state.players)
    return [[rules.distance(state, a, b) for b in range(n)] for a in range(n)]


def test_distances_kept_inside_unchanged_are_the_distances_and_forgotten_after() -> None:
    state, _ = start_game(Setup(players=6, seed=4))
    chooser = random.Random(4)
    while state.winner is None:
        plain = _distances(state)
        with rules.Unchanged(state):
            assert _distances(state) == plain
            assert _distances(state) == plain  # read back from the kept rows
        decision = state.pending
        apply(state, decision.seat, chooser.choice(decision.options))
    # A change after the block is seen at once: nothing was kept.
    state.players[1].alive = not state.players[1].alive
    assert _distances(state) == [[rules.distances_from(state, a)[b] for b in range(6)]
                                 for a in range(6)]


def test_unchanged_blocks_keep_nothing_after_them_in_any_order() -> None:
    one, _ = start_game(Setup(players=5, seed=1))
    two, _ = start_game(Setup(players=5, seed=2))
    first, second = rules.Unchanged(one), rules.Unchanged(two)
    first.__enter__()
    second.__enter__()
    assert _distances(two) == _distances(copy.deepcopy(two))
    assert _distances(one) == _distances(copy.deepcopy(one))  # not the kept state: plain
    first.__exit__(None, None, None)  # left out of order (as from another thread)
    second.__exit__(None, None, None)
    assert rules._unchanged is None
    two.players[2].alive = False  # after the blocks: seen at once
    assert rules.distance(two, 1, 3) == rules.distances_from(two, 1)[3]
    with rules.Unchanged(one):
        with rules.Unchanged(two):
            pass
        assert _distances(one) == _distances(copy.deepcopy(one))  # worked out plainly now
    assert rules._unchanged is None


def test_a_random_bot_chooses_from_the_options_as_from_the_view() -> None:
    state, _ = start_game(Setup(players=5, seed=9))
    by_view, by_options = RandomBot(3), RandomBot(3)
    while state.winner is None:
        decision = state.pending
        action = by_options.choose_among(decision.options)
        assert by_view.choose(view(state, decision.seat)) == action
        apply(state, decision.seat, action)


def test_role_inference_kept_between_decisions_is_what_a_fresh_reading_gives() -> None:
    state, events = start_game(Setup(players=7, seed=5))
    bot = make_bot("normal", 1)
    seat = 3
    fresh_events = [redact(e, seat) for e in events]
    beliefs, plain = Beliefs(), Beliefs()  # plain: asked without inference only
    beliefs.observe(fresh_events)
    plain.observe(fresh_events)
    chooser = random.Random(5)
    while state.winner is None and state.turn_number < 40:
        seen = view(state, seat)
        again = Beliefs()
        again.observe(fresh_events)
        # Kept from the last call when nothing changed since (often: no new evidence).
        assert beliefs.roles(seen) == again.roles(seen) == beliefs.roles(seen)
        assert plain.roles(seen, infer=False) == again.roles(seen, infer=False)
        decision = state.pending
        action = (bot.choose(view(state, seat)) if decision.seat == seat
                  else chooser.choice(decision.options))
        events = apply(state, decision.seat, action)
        told = [redact(e, seat) for e in events]
        beliefs.observe(told)
        plain.observe(told)
        fresh_events += told


def test_a_scoring_bot_answers_from_the_options_only_when_there_is_one() -> None:
    state, _ = start_game(Setup(players=6, seed=12))
    bots = [make_bot("normal", seat) for seat in range(6)]
    singles = 0
    while state.winner is None:
        decision = state.pending
        bot = bots[decision.seat]
        action = bot.choose(view(state, decision.seat))
        quick = bot.choose_among(decision.options)
        assert quick == (action if len(decision.options) == 1 else None)
        singles += quick is not None
        apply(state, decision.seat, action)
    assert singles > 0
