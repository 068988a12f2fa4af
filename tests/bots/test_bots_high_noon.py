"""The scoring bots read High Noon's card in play (the rules already keep illegal plays from
them): what a card is worth changes with the event."""

from __future__ import annotations

import pytest

from shared.bots import make_bot
from shared.engine import start_game
from shared.setup import Scenario, SeatRig, Setup
from shared.views import view

ROLES = ["sheriff", "renegade", "outlaw", "outlaw"]


def choice(event: str | None, hand: list[str], life: int | None = None,
           in_play: list[str] = (), others: dict[int, list[str]] | None = None) -> str:
    """What a normal bot in seat 1 plays from `hand` first, with `event` in play."""
    seats = [SeatRig(hand=[]), SeatRig(hand=hand, life=life, in_play=list(in_play))]
    for seat, cards in (others or {}).items():
        while len(seats) <= seat:
            seats.append(SeatRig(hand=[]))
        seats[seat] = SeatRig(hand=[], in_play=cards)
    setup = Setup(players=4, seed=3, roles=ROLES, expansions=["high_noon"] if event else [],
                  characters=["slab_the_killer", "rose_doolan", "willy_the_kid",
                              "chuck_wengam"])
    state, _ = start_game(setup, Scenario(seats=seats, turn=1, start="play",
                                          event_active=event))
    bot = make_bot("normal", 7)
    action = bot.choose(view(state, 1))
    return action.kind if action.card is None else f"{action.kind} {state.players[1].hand.index(action.card)}"


@pytest.mark.parametrize("event", ["curse", "blessing"])
def test_no_dynamite_when_its_suit_is_fixed(event: str) -> None:
    assert choice(None, ["Dynamite"]) == "play 0"  # an Outlaw's gamble otherwise
    assert choice(event, ["Dynamite"]) == "end_turn"
