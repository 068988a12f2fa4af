"""The one game driver: bots are told every event, a refused bot choice becomes the default,
and an engine failure stops the game for good."""

from __future__ import annotations

import msgspec
import pytest

from shared.bots import make_bot
from shared.bots.random_bot import RandomBot
from shared.driver import GameDriver, GameFailed
from shared.engine import start_game
from shared.events import redact
from shared.model import Action, Event
from shared.setup import Setup
from shared.views import TableView


class Recorder:
    """A random bot that keeps what it was told."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.seen: list[Event] = []
        self.choices = 0

    def choose(self, view: TableView) -> Action:
        self.choices += 1
        return self.bot.choose(view)

    def observe(self, events: list[Event]) -> None:
        self.seen.extend(events)


class Stubborn:
    """Always answers with an action no decision offers."""

    def choose(self, view: TableView) -> Action:
        return Action(kind="not_a_move")


def test_every_bot_is_told_every_event_redacted_for_its_seat() -> None:
    state, events = start_game(Setup(players=5, seed=11))
    bots = {seat: Recorder(seat) for seat in range(5)}
    driver = GameDriver(state, dict(bots))
    driver.tell(events)
    told: list[Event] = list(events)
    driver.observers.append(lambda _seat, _action, events: told.extend(events))
    driver.run_bots()
    assert state.winner is not None and driver.pending is None
    for seat, bot in bots.items():
        assert bot.seen == [redact(e, seat) for e in told]
    assert sum(b.choices for b in bots.values()) == state.actions


def test_bots_replaced_mid_game_are_told_from_then_on_and_the_old_ones_no_more() -> None:
    # The driver looks each bot up once when it is seated; replacing them must seat the
    # new ones (offline play swaps its bots this way), and the mapping is not edited behind
    # the driver's back.
    state, events = start_game(Setup(players=4, seed=5))
    first = {seat: Recorder(seat) for seat in range(4)}
    driver = GameDriver(state, dict(first))
    driver.tell(events)
    for _ in range(10):
        driver.play_bot()
    told_before = [len(bot.seen) for bot in first.values()]
    second = {seat: Recorder(10 + seat) for seat in range(4)}
    driver.bots = second
    later: list[Event] = []
    driver.observers.append(lambda _seat, _action, events: later.extend(events))
    driver.run_bots()
    assert state.winner is not None and later
    assert [len(bot.seen) for bot in first.values()] == told_before
    for seat, bot in second.items():
        assert bot.seen == [redact(e, seat) for e in later]
    assert sum(b.choices for b in second.values()) == state.actions - 10
    with pytest.raises(TypeError):
        driver.bots[0] = Recorder(0)  # type: ignore[index]


def test_a_refused_bot_choice_becomes_the_decisions_default() -> None:
    state, _ = start_game(Setup(players=4, seed=2))
    refused: list[tuple[int, str]] = []
    driver = GameDriver(state, {state.pending.seat: Stubborn()},
                        on_bot_refused=lambda seat, why: refused.append((seat, why)))
    decision = state.pending
    moves: list[tuple[int, Action]] = []
    driver.observers.append(lambda seat, action, _events: moves.append((seat, action)))
    driver.play_bot()
    assert moves == [(decision.seat, decision.default)]
    assert refused == [(decision.seat, f"the bot chose {Action(kind='not_a_move')}, which is "
                                       "not on offer")]


def test_an_engine_failure_stops_the_game_and_is_never_retried() -> None:
    state, _ = start_game(Setup(players=4, seed=1))
    end = next(a for a in state.pending.options if a.kind == "end_turn")
    state.players[state.pending.seat].hand.clear()
    following = (state.pending.seat + 1) % 4
    state.players[following].hand[:] = [9999]  # no such card: the engine fails on it
    driver = GameDriver(state, {s: make_bot("random", s) for s in range(4)})
    with pytest.raises(GameFailed) as failed:
        driver.answer(state.pending.seat, end)
    assert failed.value.action == end and "rules engine failed" in failed.value.reason
    assert driver.pending is None and not driver.bot_to_move()
    before = msgspec.msgpack.encode(state)
    with pytest.raises(GameFailed):
        driver.play_bot()
    with pytest.raises(GameFailed):
        driver.answer(following, end)
    assert msgspec.msgpack.encode(state) == before


class Broken:
    """A bot with a bug."""

    def choose(self, view: TableView) -> Action:
        raise ZeroDivisionError("oops")


def test_a_failing_bot_gets_the_default_and_the_table_goes_on() -> None:
    state, _ = start_game(Setup(players=4, seed=3))
    refused: list[tuple[int, str]] = []
    decision = state.pending
    driver = GameDriver(state, {decision.seat: Broken()},
                        on_bot_refused=lambda seat, why: refused.append((seat, why)))
    assert driver.bot_choice() == (decision, decision.default)
    assert refused == [(decision.seat, "the bot failed (ZeroDivisionError: oops)")]
