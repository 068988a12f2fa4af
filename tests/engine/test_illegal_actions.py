"""Every kind of illegal action is refused with a readable reason and changes nothing at all."""

from __future__ import annotations

import random

import msgspec
import pytest
from table import Table

from shared.engine import IllegalAction, SetupError, apply, new_game, start_game
from shared.model import Action
from shared.serialize import encode_state
from shared.setup import Scenario, SeatRig, Setup


def refused(t: Table, seat: int, action: Action, decision_id: int | None = None) -> str:
    """Apply a raw Action (no name resolution) and check it is refused without any change."""
    before = encode_state(t.state)
    with pytest.raises(IllegalAction) as error:
        apply(t.state, seat, action, decision_id)
    assert encode_state(t.state) == before
    return error.value.reason


def play_phase() -> Table:
    return Table(4, hands={0: ["BANG! A♠", "BANG! Q♥", "Jail 10♠", "Barrel K♠", "Panic! J♥",
                               "Missed! 2♠", "Beer 6♥"],
                           1: ["Missed! 3♠"], 2: ["Beer 7♥"]},
                 in_play={0: ["Barrel Q♠"], 3: ["Mustang"]}, life={0: 4})


@pytest.mark.parametrize("seat, kind, fields, words", [
    (1, "play", {"card": "Missed! 3♠"}, "not your decision"),
    (2, "end_turn", {}, "not your decision"),
    (0, "play", {"card": "Beer 7♥"}, "not in your hand"),
    (0, "play", {"card": "BANG! A♠", "target": 2}, "reach is 1"),
    (0, "play", {"card": "BANG! A♠", "target": 0}, "another player"),
    (0, "play", {"card": "Jail 10♠", "target": 0}, "another player"),
    (0, "play", {"card": "Barrel K♠"}, "same name"),
    (0, "play", {"card": "Panic! J♥", "target": 3}, "distance 1"),
    (0, "play", {"card": "Panic! J♥", "target": 1, "pick": "Mustang"}, "no such card in play"),
    (0, "play", {"card": "Missed! 2♠"}, "Missed!"),
    (0, "missed", {"card": "Missed! 2♠"}, "not possible now"),
    (0, "take_hit", {}, "not possible now"),
    (0, "fly", {}, "'fly' is not possible now"),
    (0, "sid", {"cards": ["BANG! A♠", "Beer 6♥"]}, "not possible now"),
    (0, "discard", {"card": "Beer 6♥"}, "not possible now"),
])
def test_illegal_in_the_play_phase(seat: int, kind: str, fields: dict, words: str) -> None:
    t = play_phase()
    assert words in t.refuse(seat, kind, **fields)


def test_jail_on_the_sheriff() -> None:
    t = Table(4, hands={1: ["Jail 10♠"]}, turn=1)
    assert "Sheriff" in t.refuse(1, "play", card="Jail 10♠", target=0)


def test_second_bang_and_jail_on_the_jailed() -> None:
    t = Table(4, hands={1: ["BANG! A♠", "BANG! Q♥", "Jail 10♠"]}, in_play={2: ["Jail J♠"]},
              turn=1)
    t.play(1, "BANG! A♠", target=2)
    t.act(2, "take_hit")
    assert "already played a BANG!" in t.refuse(1, "play", card="BANG! Q♥", target=2)
    assert "already in Jail" in t.refuse(1, "play", card="Jail 10♠", target=2)


def test_no_such_seat_card_or_target() -> None:
    t = play_phase()
    assert "no seat 9" in refused(t, 9, Action("end_turn"))
    assert "no card 99" in refused(t, 0, Action("play", card=99))
    assert "not a player" in refused(t, 0, Action("play", card=t.player(0).hand[0], target=7))


def test_targeting_an_eliminated_player() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "Duel J♠"]}, life={1: 1})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    t.act(1, "die")
    assert "not a player" in t.refuse(0, "play", card="Duel J♠", target=1)
    assert "not your decision" in t.refuse(1, "end_turn")


def test_answers_out_of_turn() -> None:
    t = Table(4, hands={0: ["BANG! A♠"], 1: ["Beer 6♥", "Missed! 3♠"], 3: ["Missed! 4♠"]})
    t.play(0, "BANG! A♠", target=1)
    assert "not your decision" in t.refuse(3, "missed", card="Missed! 4♠")
    assert "not your decision" in t.refuse(0, "end_turn")
    assert t.refuse(1, "missed", card="Beer 6♥")
    assert "not possible now" in t.refuse(1, "beer", card="Beer 6♥")


def test_an_answer_to_an_old_decision_is_refused() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "BANG! Q♥"]}, in_play={0: ["Volcanic"]})
    old = t.pending.id
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.pending.id != old and t.waiting() == (0, "play")
    assert "decision" in refused(t, 0, Action("end_turn"), decision_id=old)
    t.act(0, "end_turn", decision_id=t.pending.id)  # the current id is accepted


def test_the_same_answer_delivered_twice_is_refused() -> None:
    t = Table(4, hands={0: ["BANG! A♠"]})
    t.play(0, "BANG! A♠", target=1)
    answer_id = t.pending.id
    t.act(1, "take_hit", decision_id=answer_id)
    assert refused(t, 1, Action("take_hit"), decision_id=answer_id)


def test_after_the_game_is_over() -> None:
    t = Table(4, turn=2, hands={2: ["BANG! A♠"]}, life={3: 1}, roles=["outlaw", "renegade",
                                                                      "outlaw", "sheriff"])
    t.play(2, "BANG! A♠", target=3)
    t.act(3, "take_hit")
    t.act(3, "die")
    assert t.state.winner == "outlaws"
    assert "game is over" in refused(t, 2, Action("end_turn"))
    assert "game is over" in refused(t, 0, Action("end_turn"))


def test_discard_phase_only_discards() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "Beer 6♥", "Beer 7♥"]}, life={0: 1})
    t.act(0, "end_turn")
    assert t.waiting() == (0, "discard")
    assert "not possible now" in t.refuse(0, "play", card="Beer 6♥")
    assert "not in your hand" in t.refuse(0, "discard", card="Missed! 2♠")
    t.act(0, "discard", card="Beer 6♥")
    t.act(0, "discard", card="Beer 7♥")
    assert t.state.turn == 1


def test_store_and_lucky_picks_must_be_among_the_shown() -> None:
    t = Table(4, hands={0: ["General Store"]}, deck=["Beer 6♥", "Beer 7♥", "Beer 8♥", "Beer 9♥"])
    t.play(0, "General Store")
    assert t.refuse(0, "pick", pick="Missed! 2♠")
    assert "not your decision" in t.refuse(1, "pick", pick="Beer 6♥")


def test_malformed_actions_are_refused() -> None:
    t = play_phase()
    assert "malformed" in refused(t, 0, Action("play", card="BANG! A♠"))  # type: ignore[arg-type]
    assert refused(t, "0", Action("end_turn"))  # type: ignore[arg-type]


KINDS = ("play", "play_as_bang", "end_turn", "discard", "sid", "chuck", "jose", "barrel",
         "missed", "take_hit", "beer", "die", "discard_bang", "pick", "put_back", "draw_deck",
         "draw_discard", "draw_player", "give", "fly")


def test_fuzzed_actions_are_either_legal_or_refused_without_change() -> None:
    """Random actions thrown at random mid-game states: anything not among the options is
    refused with a reason and changes nothing; the options themselves are all accepted."""
    chooser = random.Random(8)
    refusals = 0
    for game in range(25):
        state, _ = start_game(Setup(players=3 + game % 5, seed=500 + game))
        while state.winner is None:
            decision = state.pending
            before = encode_state(state)
            for attempt in range(12):
                if attempt % 2:  # a near miss: a legal option with one field changed
                    near = chooser.choice(decision.options)
                    field = chooser.choice(["card", "target", "pick"])
                    value = chooser.choice([None, chooser.randrange(-1, 80)])
                    action = msgspec.structs.replace(near, **{field: value})
                    seat = decision.seat
                else:
                    action = Action(chooser.choice(KINDS),
                                    card=chooser.choice([None, chooser.randrange(-2, 82)]),
                                    target=chooser.choice([None, chooser.randrange(-1, 8)]),
                                    pick=chooser.choice([None, chooser.randrange(0, 80)]))
                    seat = chooser.choice([decision.seat, chooser.randrange(-1, 8)])
                if seat == decision.seat and action in decision.options:
                    continue
                with pytest.raises(IllegalAction) as error:
                    apply(state, seat, action)
                assert error.value.reason and encode_state(state) == before
                refusals += 1
            option = chooser.choice(decision.options)
            assert option.kind in KINDS and decision.default in decision.options
            assert decision.id == state.actions
            apply(state, decision.seat, option, decision.id)
    assert refusals > 20_000


@pytest.mark.parametrize(
    ("in_play", "reason"),
    [
        (["Volcanic", "Winchester"], "2 weapons in play"),
        (["Barrel Q♠", "Barrel K♠"], "duplicate cards in play: barrel"),
        (["Jail"], "Sheriff and cannot be in Jail"),
    ],
)
def test_a_rigged_table_the_rules_forbid_is_refused(in_play: list[str], reason: str) -> None:
    setup = Setup(players=4, roles=["sheriff", "outlaw", "outlaw", "renegade"])
    with pytest.raises(SetupError, match=reason):
        new_game(setup, Scenario(seats=[SeatRig(in_play=in_play)]))
