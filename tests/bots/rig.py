"""Rigged tables for bot tests: deal a scenario, let chosen seats be bots and the others pass.

    table = BotTable(roles=[...], hands={0: ["BANG! A♠"]}, bots={1: NormalBot(3)})
    table.run_until(lambda t: t.pending.seat == 1)
"""

from __future__ import annotations

from collections.abc import Callable

from shared.bots import tell
from shared.engine import apply, start_game
from shared.engine.refs import resolve
from shared.invariants import problems
from shared.model import Action, Event, GameState
from shared.setup import Scenario, SeatRig, Setup
from shared.views import view

#: Characters whose abilities stay out of the way: nothing happens outside their draw phase.
PLAIN = ("kit_carlson", "black_jack", "pixie_pete", "pedro_ramirez", "jesse_jones",
         "vulture_sam", "bart_cassidy")

Ref = str | int


def card_id(ref: Ref) -> int:
    return resolve(ref, range(80))


class BotTable:
    """A rigged game. Seats in `bots` decide with their bot; the others end their turn at once
    and otherwise take the rules-safe default (take the hit, first card...)."""

    def __init__(self, roles: list[str], *, bots: dict[int, object],
                 hands: dict[int, list[Ref]] | None = None,
                 in_play: dict[int, list[Ref]] | None = None,
                 life: dict[int, int] | None = None, deck: list[Ref] = (),
                 turn: int = 0, characters: list[str] | None = None, seed: int = 1) -> None:
        n = len(roles)
        hands, in_play, life = hands or {}, in_play or {}, life or {}
        seats = [SeatRig(hand=list(hands.get(s, [])), in_play=list(in_play.get(s, [])),
                         life=life.get(s)) for s in range(n)]
        setup = Setup(players=n, seed=seed, roles=list(roles),
                      characters=list(characters or PLAIN[:n]))
        scenario = Scenario(seats=seats, deck=list(deck), turn=turn, start="play")
        self.state: GameState
        self.state, events = start_game(setup, scenario)
        self.bots = bots
        self.chosen: list[tuple[int, Action]] = []  # every bot decision, in order
        tell(self.bots, events)

    @property
    def pending(self):
        return self.state.pending

    def act(self, seat: int, action: Action) -> list[Event]:
        events = apply(self.state, seat, action)
        assert not problems(self.state)
        tell(self.bots, events)
        return events

    def step(self) -> Action:
        """Let whoever must decide now decide, and apply it."""
        decision = self.pending
        seat = decision.seat
        if seat in self.bots:
            action = self.bots[seat].choose(view(self.state, seat))
            self.chosen.append((seat, action))
        elif Action("end_turn") in decision.options:
            action = Action("end_turn")
        else:
            action = decision.default
        self.act(seat, action)
        return action

    def run_until(self, done: Callable[[BotTable], bool], limit: int = 200) -> None:
        for _ in range(limit):
            if self.state.winner is not None or done(self):
                return
            self.step()
        raise AssertionError("the table never reached the expected point")

    def bot_turn_actions(self, seat: int) -> list[Action]:
        """Run `seat`'s current turn to its end; return what that seat chose meanwhile."""
        start = len(self.chosen)
        self.run_until(lambda t: t.state.turn != seat)
        return [a for s, a in self.chosen[start:] if s == seat]
