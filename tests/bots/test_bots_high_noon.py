"""The scoring bots read High Noon's card in play (the rules already keep illegal plays from
them): what a card is worth changes with the event."""

from __future__ import annotations

import pytest

from shared.bots import make_bot
from shared.engine import start_game
from shared.setup import Scenario, SeatRig, Setup
from shared.views import view

ROLES = ["sheriff", "renegade", "outlaw", "outlaw"]
CHARACTERS = ["slab_the_killer", "rose_doolan", "willy_the_kid", "chuck_wengam"]


def first_move(event: str | None, hand: list[str]) -> str:
    """What a normal bot in seat 1 (the Renegade) does first with `hand`, `event` in play:
    the action's kind, and the card's place in the hand."""
    setup = Setup(players=4, seed=3, roles=ROLES, characters=CHARACTERS,
                  expansions=["high_noon"] if event else [])
    scenario = Scenario(seats=[SeatRig(hand=[]), SeatRig(hand=hand)], turn=1, start="play",
                        event_active=event)
    state, _ = start_game(setup, scenario)
    action = make_bot("normal", 7).choose(view(state, 1))
    if action.card is None:
        return action.kind
    return f"{action.kind} {state.players[1].hand.index(action.card)}"


@pytest.mark.parametrize("event", ["curse", "blessing"])
def test_no_dynamite_when_its_suit_is_fixed(event: str) -> None:
    assert first_move(None, ["Dynamite"]) == "play 0"  # a Renegade's gamble otherwise
    assert first_move(event, ["Dynamite"]) == "end_turn"
