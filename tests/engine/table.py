"""A rigged table for rule tests: deal a scenario, act by card names, look at what happened.

    t = Table(["bart_cassidy", "el_gringo", "jose_delgado", "chuck_wengam"],
              hands={0: ["BANG! A♠"]}, deck=["Missed! 2♠"])
    t.act(0, "play", card="BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.life(1) == 2

Every action goes through the same path as `bang replay` (a `Move` resolved by
`shared.record.action_of`), so a table's `record` replays to the same state, and every action is
followed by the invariant checker.
"""

from __future__ import annotations

import msgspec
import pytest

from shared.cards import CARDS
from shared.engine import IllegalAction, apply, start_game
from shared.engine.refs import matches
from shared.invariants import problems
from shared.model import Event, GameState
from shared.record import RECORD_VERSION, GameRecord, Move, action_of
from shared.roles import ROLE_DEAL
from shared.serialize import encode_state
from shared.setup import HighNoonOptions, Scenario, SeatRig, Setup

#: Characters whose abilities stay out of the way of most tests, in the order they fill seats.
FILLERS = ("chuck_wengam", "jose_delgado", "willy_the_kid", "black_jack", "pedro_ramirez",
           "jesse_jones", "kit_carlson")

Ref = str | int


def label(card: int) -> str:
    return CARDS[card].label


class Table:
    """A game dealt from a rigged scenario. Seats not given a hand start with an empty one."""

    dealt: list[Table] = []  # every table of the running test (conftest replays them)

    def __init__(
        self,
        characters: list[str] | int,
        *,
        roles: list[str] | None = None,
        hands: dict[int, list[Ref]] | None = None,
        in_play: dict[int, list[Ref]] | None = None,
        life: dict[int, int] | None = None,
        deck: list[Ref] = (),
        discard: list[Ref] = (),
        only_deck: bool = False,
        turn: int | None = None,
        start: str = "play",
        seed: int = 1,
        events: list[str] | None = None,
        event_active: str | None = None,
        sheriff_turns: int | None = None,
        eliminated: set[int] = frozenset(),
        high_noon: HighNoonOptions | None = None,
    ) -> None:
        """`events`, `event_active`, `sheriff_turns` or `high_noon` play High Noon (`events`:
        the event deck, next first); `eliminated` seats are out of the game."""
        if isinstance(characters, int):
            characters = list(FILLERS[:characters])
        else:
            spare = [c for c in FILLERS if c not in characters]
            characters = [c if c else spare.pop(0) for c in characters]
        n = len(characters)
        hands, in_play, life = hands or {}, in_play or {}, life or {}
        seats = [
            SeatRig(eliminated=True) if s in eliminated else
            SeatRig(hand=list(hands.get(s, [])), in_play=list(in_play.get(s, [])),
                    life=life.get(s))
            for s in range(n)
        ]
        expansions = ["high_noon"] if (events, event_active, sheriff_turns, high_noon) != \
            (None, None, None, None) else []
        self.record = GameRecord(
            version=RECORD_VERSION,
            setup=Setup(players=n, seed=seed, characters=list(characters),
                        roles=list(roles) if roles else list(ROLE_DEAL[n]),
                        expansions=expansions, high_noon=high_noon),
            scenario=Scenario(seats=seats, deck=list(deck), discard=list(discard),
                              only_deck=only_deck, turn=turn, start=start,
                              event_deck=events, event_active=event_active,
                              sheriff_turns=sheriff_turns),
        )
        self.state: GameState
        self.state, self.events = start_game(self.record.setup, self.record.scenario,
                                             version=self.record.version)
        self.last: list[Event] = list(self.events)
        self._check()
        Table.dealt.append(self)

    # --- acting ----------------------------------------------------------------------------

    def move(self, seat: int, kind: str, card: Ref | None = None, target: int | None = None,
             pick: Ref | None = None, cards: list[Ref] = ()) -> Move:
        return Move(seat, kind, card, target, pick, list(cards))

    def act(self, seat: int, kind: str, card: Ref | None = None, target: int | None = None,
            pick: Ref | None = None, cards: list[Ref] = (),
            decision_id: int | None = None) -> list[Event]:
        """Apply one action (cards may be named) and return its events."""
        move = self.move(seat, kind, card, target, pick, cards)
        self.last = apply(self.state, seat, action_of(self.state, move), decision_id)
        self.record.actions.append(move)
        self.events += self.last
        self._check()
        return self.last

    def play(self, seat: int, card: Ref, target: int | None = None,
             pick: Ref | None = None) -> list[Event]:
        return self.act(seat, "play", card=card, target=target, pick=pick)

    def refuse(self, seat: int, kind: str, card: Ref | None = None, target: int | None = None,
               pick: Ref | None = None, cards: list[Ref] = (),
               decision_id: int | None = None) -> str:
        """Check the action is illegal AND changes nothing; return the reason given."""
        before = encode_state(self.state)
        with pytest.raises(IllegalAction) as refused:
            action = action_of(self.state, self.move(seat, kind, card, target, pick, cards))
            apply(self.state, seat, action, decision_id)
        assert encode_state(self.state) == before
        reason = refused.value.reason
        assert len(reason) > 10, reason
        return reason

    def _check(self) -> None:
        found = problems(self.state)
        assert not found, found

    # --- looking -----------------------------------------------------------------------------

    @property
    def pending(self):
        return self.state.pending

    def waiting(self) -> tuple[int, str]:
        """(seat, decision kind) of the pending decision."""
        return self.pending.seat, self.pending.kind

    def option_kinds(self) -> set[str]:
        return {o.kind for o in self.pending.options}

    def can(self, seat: int, kind: str, card: Ref | None = None, target: int | None = None,
            pick: Ref | None = None) -> bool:
        """Whether such an action is among the pending options (card names match any copy)."""
        if self.pending is None or self.pending.seat != seat:
            return False
        for o in self.pending.options:
            if o.kind != kind or (target is not None and o.target != target):
                continue
            if card is not None and (o.card is None or not matches(o.card, card)):
                continue
            if pick is not None and (o.pick is None or not matches(o.pick, pick)):
                continue
            return True
        return False

    def targets(self, seat: int, card: Ref, kind: str = "play") -> set[int]:
        """The seats `card` may be played on now."""
        return {o.target for o in self.pending.options
                if o.kind == kind and o.card is not None and matches(o.card, card)
                and o.target is not None}

    def player(self, seat: int):
        return self.state.players[seat]

    def life(self, seat: int) -> int:
        return self.state.players[seat].life

    def hand(self, seat: int) -> list[str]:
        return [label(c) for c in self.state.players[seat].hand]

    def in_play(self, seat: int) -> list[str]:
        return [label(c) for c in self.state.players[seat].in_play]

    def alive(self, seat: int) -> bool:
        return self.state.players[seat].alive

    def discard(self) -> list[str]:
        """The discard pile, bottom first."""
        return [label(c) for c in self.state.discard]

    def discard_top(self) -> str:
        return label(self.state.discard[-1])

    def deck_top(self, n: int = 1) -> list[str]:
        return [label(c) for c in reversed(self.state.deck[-n:])]

    def kinds(self, events: list[Event] | None = None) -> list[str]:
        return [e.kind for e in (self.last if events is None else events)]

    def find(self, kind: str, events: list[Event] | None = None) -> list[Event]:
        return [e for e in (self.last if events is None else events) if e.kind == kind]

    def encoded(self) -> bytes:
        return encode_state(self.state)

    def record_json(self) -> bytes:
        return msgspec.json.encode(self.record)
