"""Random legal games driven by Hypothesis through the engine's public API, with every rule
invariant checked after every action, and now and then an illegal action that must be refused
without changing anything.

Hypothesis picks the table (3-7 players, seed, character pool), each legal action among the
pending decision's options, and the illegal attempts; a failure shrinks to a short game."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from shared.cards import DECK_SIZE
from shared.engine import IllegalAction, apply, new_game, start_game
from shared.invariants import problems
from shared.model import Action, Event, GameState
from shared.record import RECORD_VERSION, GameRecord, move_of, replay
from shared.serialize import encode_state
from shared.setup import HighNoonOptions, Setup
from shared.views import view

#: Action kinds of every decision (docs/REPLAY.md), plus one that does not exist.
KINDS = ("play", "play_as_bang", "sid", "chuck", "jose", "end_turn", "discard", "barrel",
         "missed", "take_hit", "beer", "die", "discard_bang", "pick", "put_back", "draw_deck",
         "draw_player", "draw_discard", "give", "discard_in_play", "name_hearts", "new_identity",
         "keep", "fly")


def _rule_problems(state: GameState, events: list[Event]) -> list[str]:
    """shared.invariants' checks, the hand limit at the end of a turn, and the decision API."""
    found = problems(state)
    for event in events:
        if event.kind == "turn_end" and event.reason == "discard" \
                and (event.value is None or event.value > event.count) \
                and (event.seat is None or state.players[event.seat].alive):  # not a ghost
            found.append(f"seat {event.seat} ended the turn with {event.value} cards and "
                         f"{event.count} life")
    decision = state.pending
    if decision is not None:
        if decision.id != state.actions:
            found.append(f"decision id {decision.id} but {state.actions} actions accepted")
        if not decision.options or decision.default not in decision.options:
            found.append(f"decision {decision.kind}: its default is not one of its options")
        if view(state, decision.seat).options != decision.options:
            found.append("the deciding seat's view does not offer the decision's options")
    if state.winner is not None and (decision is not None or not state.winners):
        found.append("the game is over but a decision is pending, or nobody won")
    return found


class RandomLegalGame(RuleBasedStateMachine):
    state: GameState
    record: GameRecord

    @initialize(players=st.integers(3, 7), seed=st.integers(0, 2**64 - 1),
                pool=st.sampled_from(["all", "base"]),
                high_noon=st.sampled_from([None, HighNoonOptions(),
                                           HighNoonOptions(bonus=True, event_limit=3)]))
    def deal(self, players: int, seed: int, pool: str,
             high_noon: HighNoonOptions | None) -> None:
        """A base game, or one with High Noon (a short event deck with the bonus cards
        reaches High Noon itself within the test's actions)."""
        setup = Setup(players=players, seed=seed, pool=pool,
                      expansions=["high_noon"] if high_noon else [], high_noon=high_noon)
        state, events = start_game(setup)
        assert encode_state(new_game(setup)) == encode_state(state)
        self.state, self.record = state, GameRecord(setup=setup, version=RECORD_VERSION)
        self.check(events)

    def check(self, events: list[Event]) -> None:
        found = _rule_problems(self.state, events)
        assert not found, "; ".join(found)

    @precondition(lambda self: self.state.pending is not None)
    @rule(data=st.data(), count=st.sampled_from([1, 3, 10, 30, 100]))
    def play_legal_actions(self, data: st.DataObject, count: int) -> None:
        """Up to `count` legal actions in a row (fewer when the game ends), each checked."""
        for _ in range(count):
            decision = self.state.pending
            if decision is None:
                return
            action = data.draw(st.sampled_from(decision.options), label="action")
            events = apply(self.state, decision.seat, action, decision.id)
            self.record.actions.append(move_of(decision.seat, action))
            self.check(events)

    @rule(data=st.data())
    def try_an_illegal_action(self, data: st.DataObject) -> None:
        """Refused with IllegalAction, and the state is exactly what it was."""
        state = self.state
        decision = state.pending
        n = len(state.players)
        seat = decision.seat if decision is not None else 0
        decision_id = None
        options = decision.options if decision is not None else ()
        how = "game_over" if decision is None else data.draw(
            st.sampled_from(["not_an_option", "other_seat", "stale", "malformed"]), label="how")
        if decision is None:  # the game is over: nothing at all is accepted
            seat = data.draw(st.integers(0, n - 1), label="seat")
            action = data.draw(st.sampled_from([Action("end_turn"), Action("take_hit"),
                                                Action("draw_deck")]), label="action")
        elif how == "other_seat":
            seat = data.draw(st.integers(-1, n).filter(lambda s: s != decision.seat),
                             label="seat")
            action = data.draw(st.sampled_from(decision.options), label="action")
        elif how == "stale":
            action = data.draw(st.sampled_from(decision.options), label="action")
            decision_id = data.draw(st.integers(0, decision.id + 5)
                                    .filter(lambda i: i != decision.id), label="decision_id")
        elif how == "malformed":
            action = data.draw(st.sampled_from([
                Action("play", card="1"),  # type: ignore[arg-type]  # a str, not a card id
                Action("play", target=True),  # a bool is not a seat
                Action("sid", cards=[1, 2]),  # type: ignore[arg-type]  # a list, not a tuple
            ]), label="action")
        else:
            card = st.none() | st.integers(-2, DECK_SIZE + 1)
            action = data.draw(st.builds(
                Action, kind=st.sampled_from(KINDS), card=card, pick=card,
                target=st.none() | st.integers(-1, n),
                cards=st.lists(st.integers(-1, DECK_SIZE), max_size=3).map(tuple),
            ).filter(lambda a: a not in options), label="action")
        before = encode_state(state)
        try:
            apply(state, seat, action, decision_id)
        except IllegalAction as refusal:
            assert refusal.reason, "a refusal without a reason"
        else:
            raise AssertionError(f"{action} by seat {seat} was accepted")
        assert encode_state(state) == before, "a refused action changed the state"

    def teardown(self) -> None:
        """The game's record (the legal actions) rebuilds the same state, byte for byte."""
        if hasattr(self, "record"):
            assert encode_state(replay(self.record)) == encode_state(self.state)


RandomLegalGame.TestCase.settings = settings(
    max_examples=50, stateful_step_count=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestRandomLegalGames = RandomLegalGame.TestCase
