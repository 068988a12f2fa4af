"""The rulebook seam: a modifier written here, outside the engine, changes the rules that ask
its hooks. "Every card is a Heart" (as a High Noon event would say it) turns a failed Barrel
into a save, keeps a jailed player's turn, defuses Dynamite and gives Black Jack his extra card."""

from __future__ import annotations

from typing import ClassVar

import pytest

from shared.cards import KEY
from shared.engine import apply, start_game
from shared.engine.core import EngineCore
from shared.model import Action, GameState
from shared.rulebook import Rulebook, rulebook
from shared.rules import next_alive, round_leader
from shared.setup import Scenario, SeatRig, Setup


class AllHearts(Rulebook):
    def suit_of(self, state: GameState, card: int, draw: bool = False) -> str:
        return "hearts"


class HeartsState(GameState):
    RULEBOOK: ClassVar[Rulebook] = AllHearts()


CHARACTERS = ["chuck_wengam", "jose_delgado", "black_jack", "willy_the_kid"]
ROLES = ["sheriff", "outlaw", "renegade", "outlaw"]


def deal(kind: type[GameState], seats: list[SeatRig], deck: list[str | int],
         turn: int = 0, start: str = "play") -> tuple[GameState, list[str]]:
    setup = Setup(players=4, seed=3, characters=CHARACTERS, roles=ROLES)
    state, events = start_game(setup, Scenario(seats=seats, deck=deck, turn=turn, start=start),
                               state_type=kind)
    return state, [e.kind for e in events]


BOTH = pytest.mark.parametrize("kind", [GameState, HeartsState], ids=["base", "all_hearts"])


@BOTH
def test_barrel(kind: type[GameState]) -> None:
    state, _ = deal(kind, [SeatRig(hand=["BANG! A♠"]), SeatRig(in_play=["Barrel"])],
                    deck=["BANG! 5♦"])
    bang = next(a for a in state.pending.options if a.kind == "play" and a.target == 1)
    apply(state, 0, bang)
    kinds = [e.kind for e in apply(state, 1, Action("barrel"))]
    assert ("barrel_saves" in kinds) == (kind is HeartsState)
    assert ("barrel_fails" in kinds) == (kind is GameState)


@BOTH
def test_jail(kind: type[GameState]) -> None:
    _, kinds = deal(kind, [SeatRig(), SeatRig(in_play=["Jail 10♠"])], deck=["Panic! 8♦"],
                    turn=1, start="start")
    assert ("jail_escape" in kinds) == (kind is HeartsState)
    assert ("jail_stays" in kinds) == (kind is GameState)


@BOTH
def test_dynamite(kind: type[GameState]) -> None:
    _, kinds = deal(kind, [SeatRig(), SeatRig(in_play=["Dynamite"])], deck=["Missed! 2♠"],
                    turn=1, start="start")
    assert ("dynamite_passes" in kinds) == (kind is HeartsState)
    assert ("dynamite_explodes" in kinds) == (kind is GameState)


@BOTH
def test_black_jack(kind: type[GameState]) -> None:
    state, _ = deal(kind, [SeatRig(), SeatRig(), SeatRig(hand=[])],
                    deck=["Beer 6♥", "Missed! 2♠", "Gatling 10♥"], turn=2, start="start")
    assert len(state.players[2].hand) == (3 if kind is HeartsState else 2)


def test_the_base_game_keeps_its_own_rulebook() -> None:
    state, _ = deal(GameState, [SeatRig()], deck=[])
    assert type(rulebook(state)) is Rulebook


class NoAbilities(Rulebook):
    """Every character's ability is off (as High Noon's Hangover says)."""

    def has_ability(self, state: GameState, seat: int, character: str) -> bool:
        return False


class SoberState(GameState):
    RULEBOOK: ClassVar[Rulebook] = NoAbilities()


@pytest.mark.parametrize("kind", [GameState, SoberState], ids=["base", "no_abilities"])
def test_abilities_go_through_has_ability(kind: type[GameState]) -> None:
    """Black Jack shows a red second card and draws again; Willy the Kid fires twice."""
    state, kinds = deal(kind, [SeatRig(), SeatRig(), SeatRig(hand=[])],
                        deck=["Beer 6♥", "Beer 7♥", "Gatling 10♥"], turn=2, start="start")
    assert len(state.players[2].hand) == (3 if kind is GameState else 2)
    assert ("reveal" in kinds) == (kind is GameState)
    state, _ = deal(kind, [SeatRig(), SeatRig(), SeatRig(), SeatRig(hand=["BANG! A♠", "BANG! 2♦"])],
                    deck=[], turn=3)
    first = next(a for a in state.pending.options if a.kind == "play" and a.target == 0)
    apply(state, 3, first)
    apply(state, 0, Action("take_hit"))
    second_bang = [a for a in state.pending.options if a.kind == "play"]
    assert bool(second_bang) == (kind is GameState)


class Shootout(Rulebook):
    def bang_limit(self, state: GameState, seat: int) -> int | None:
        limit = super().bang_limit(state, seat)
        return None if limit is None else limit + 1


class NoBeer(Rulebook):
    def forbids(self, state: GameState, seat: int, card: int,
                as_key: str | None = None) -> str | None:
        return "no Beer in this game" if KEY[card] == "beer" else None


class Noon(Rulebook):
    def turn_started(self, engine: EngineCore, seat: int) -> None:
        engine.damage(seat, 1, killer=None, card_player=None)


class ShootoutState(GameState):
    RULEBOOK: ClassVar[Rulebook] = Shootout()


class NoBeerState(GameState):
    RULEBOOK: ClassVar[Rulebook] = NoBeer()


class NoonState(GameState):
    RULEBOOK: ClassVar[Rulebook] = Noon()


@pytest.mark.parametrize("kind", [GameState, ShootoutState], ids=["base", "shootout"])
def test_the_bang_limit_is_a_hook(kind: type[GameState]) -> None:
    state, _ = deal(kind, [SeatRig(hand=["BANG! A♠", "BANG! 2♦"])], deck=[])
    apply(state, 0, next(a for a in state.pending.options if a.kind == "play" and a.target == 1))
    apply(state, 1, Action("take_hit"))
    assert any(a.kind == "play" for a in state.pending.options) == (kind is ShootoutState)


@pytest.mark.parametrize("kind", [GameState, NoBeerState], ids=["base", "no_beer"])
def test_which_cards_may_be_played_is_a_hook(kind: type[GameState]) -> None:
    state, _ = deal(kind, [SeatRig(hand=["BANG! A♠"]), SeatRig(hand=["Beer 6♥"], life=1)],
                    deck=[])
    apply(state, 0, next(a for a in state.pending.options if a.kind == "play" and a.target == 1))
    apply(state, 1, Action("take_hit"))
    assert state.pending.kind == "dying"
    assert any(a.kind == "beer" for a in state.pending.options) == (kind is GameState)


@pytest.mark.parametrize("kind", [GameState, NoonState], ids=["base", "noon"])
def test_the_start_of_a_turn_is_a_hook(kind: type[GameState]) -> None:
    state, kinds = deal(kind, [SeatRig(), SeatRig()], deck=[], turn=1, start="start")
    assert state.players[1].life == (3 if kind is NoonState else 4)
    assert ("hit" in kinds) == (kind is NoonState)


# --- life, healing, the end of a turn and the start of a round -------------------------------

class DoubleHealing(Rulebook):
    def heal_amount(self, state: GameState, seat: int, amount: int) -> int:
        return 2 * amount


class Bleeding(Rulebook):
    """Whoever loses life draws a card for each point lost."""

    def life_lost(self, engine: EngineCore, seat: int, amount: int) -> None:
        engine.draw_to_hand(seat, amount)


class Wages(Rulebook):
    """Whoever ends a turn draws a card."""

    def turn_ended(self, engine: EngineCore, seat: int) -> None:
        engine.draw_to_hand(seat, 1)


class Rounds(Rulebook):
    """At the start of every round everyone draws a card (a High Noon event would turn)."""

    def round_started(self, engine: EngineCore, seat: int) -> None:
        for p in engine.s.players:
            engine.draw_to_hand(p.seat, 1)


class DoubleHealingState(GameState):
    RULEBOOK: ClassVar[Rulebook] = DoubleHealing()


class BleedingState(GameState):
    RULEBOOK: ClassVar[Rulebook] = Bleeding()


class WagesState(GameState):
    RULEBOOK: ClassVar[Rulebook] = Wages()


class RoundsState(GameState):
    RULEBOOK: ClassVar[Rulebook] = Rounds()


@pytest.mark.parametrize("kind", [GameState, DoubleHealingState], ids=["base", "double"])
def test_healing_is_a_hook(kind: type[GameState]) -> None:
    """A Beer heals one life point, or two by the toy rule; never above the maximum."""
    state, _ = deal(kind, [SeatRig(hand=["Beer 6♥", "Beer 7♥"], life=2)], deck=[])
    beers = [a for a in state.pending.options if a.kind == "play"]
    apply(state, 0, beers[0])
    assert state.players[0].life == (4 if kind is DoubleHealingState else 3)
    apply(state, 0, beers[1])
    assert state.players[0].life == (5 if kind is DoubleHealingState else 4)


@pytest.mark.parametrize("kind", [GameState, BleedingState], ids=["base", "bleeding"])
def test_life_loss_is_a_hook(kind: type[GameState]) -> None:
    """A hit and Chuck Wengam's own life point both go through the one place life is lost."""
    state, _ = deal(kind, [SeatRig(hand=["BANG! A♠"]), SeatRig(hand=[])], deck=[])
    apply(state, 0, next(a for a in state.pending.options if a.kind == "play" and a.target == 1))
    apply(state, 1, Action("take_hit"))
    assert state.players[1].life == 3
    assert len(state.players[1].hand) == (1 if kind is BleedingState else 0)
    apply(state, 0, Action("chuck"))  # seat 0 is Chuck Wengam: a life point for two cards
    assert state.players[0].life == 4
    assert len(state.players[0].hand) == (3 if kind is BleedingState else 2)


@pytest.mark.parametrize("kind", [GameState, WagesState], ids=["base", "wages"])
def test_the_end_of_a_turn_is_a_hook(kind: type[GameState]) -> None:
    state, _ = deal(kind, [SeatRig(), SeatRig(hand=[])], deck=[], turn=1)
    apply(state, 1, Action("end_turn"))
    assert state.turn == 2
    assert len(state.players[1].hand) == (1 if kind is WagesState else 0)


@pytest.mark.parametrize("kind", [GameState, RoundsState], ids=["base", "rounds"])
def test_the_start_of_a_round_is_a_hook(kind: type[GameState]) -> None:
    """A round starts with the Sheriff's turn (seat 0), not with anyone else's."""
    seats = [SeatRig(), SeatRig(hand=[]), SeatRig(), SeatRig(hand=[])]
    state, _ = deal(kind, seats, deck=[], turn=1)
    apply(state, 1, Action("end_turn"))  # seat 2's turn: no new round
    assert len(state.players[1].hand) == 0
    state, _ = deal(kind, seats, deck=[], turn=3)
    apply(state, 3, Action("end_turn"))  # the Sheriff's turn: a new round
    assert state.turn == 0
    assert len(state.players[1].hand) == (1 if kind is RoundsState else 0)
    assert len(state.players[3].hand) == (1 if kind is RoundsState else 0)


def test_a_round_starts_with_the_sheriff_or_in_three_players_the_deputy() -> None:
    state, _ = start_game(Setup(players=4, seed=5))
    assert state.players[round_leader(state)].role == "sheriff"
    state, _ = start_game(Setup(players=3, seed=5))
    deputy = round_leader(state)
    assert state.players[deputy].role == "deputy" and state.turn == deputy
    state.players[deputy].alive = False  # once the Deputy is gone, the next player leads
    assert round_leader(state) == next_alive(state, deputy)
