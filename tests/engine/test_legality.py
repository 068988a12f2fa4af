"""Legality is written once: the checks that refuse an action are the ones that decide the
options, and a refusal names the check that made it.

For random game states: an action is accepted exactly when it is among the pending options,
exactly when `refusal()` finds nothing against it; every refused action's reason is the
check's own `Refusal`; and the explanations players read stay right."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table import Table

from shared.cards import KEY
from shared.engine import IllegalAction, Refusal, apply, refusal, start_game
from shared.engine.card_rules import CARD_RULES
from shared.engine.errors import NOT_AN_OPTION
from shared.engine.legality import DECISION_TEXT
from shared.model import Action, GameState
from shared.record import Move, action_of
from shared.rulebook import rulebook
from shared.serialize import encode_state
from shared.setup import Setup

KINDS = ("play", "play_as_bang", "end_turn", "discard", "sid", "chuck", "jose", "barrel",
         "missed", "take_hit", "beer", "die", "discard_bang", "pick", "put_back", "draw_deck",
         "draw_discard", "draw_player", "give", "fly")


def random_state(seed: int, players: int, steps: int) -> GameState:
    """A game of random choices, `steps` decisions in (or over sooner)."""
    chooser = random.Random(seed)
    state, _ = start_game(Setup(players=players, seed=seed))
    for _ in range(steps):
        if state.pending is None:
            break
        apply(state, state.pending.seat, chooser.choice(state.pending.options))
    return state


def judged(state: GameState, seat: int, action: Action) -> Refusal | None:
    """What apply() does with the action, and that refusal() says the same: None when it is
    accepted (on a copy), the check's Refusal when it is refused (leaving the state alone)."""
    why = refusal(state, seat, action)
    offered = seat == state.pending.seat and action in state.pending.options
    assert (why is None) == offered, (action, why)
    if why is None:
        apply(msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=type(state)), seat,
              action)
        return None
    before = encode_state(state)
    with pytest.raises(IllegalAction) as error:
        apply(state, seat, action)
    assert error.value.refusal == why and error.value.reason == why.text and why.text
    assert encode_state(state) == before
    return why


FIELD = st.none() | st.integers(-1, 81)
ACTIONS = st.builds(Action, kind=st.sampled_from(KINDS), card=FIELD,
                    target=st.none() | st.integers(-1, 8), pick=FIELD,
                    cards=st.lists(st.integers(0, 79), max_size=3).map(tuple))


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 7), steps=st.integers(0, 250),
       data=st.data())
def test_accepted_exactly_when_offered_and_refused_by_a_check(
        seed: int, players: int, steps: int, data: st.DataObject) -> None:
    state = random_state(seed, players, steps)
    decision = state.pending
    if decision is None:
        return
    for option in decision.options:
        assert judged(state, decision.seat, option) is None
    for _ in range(15):
        near = data.draw(st.sampled_from(decision.options))
        field = data.draw(st.sampled_from(["card", "target", "pick", "cards", "kind"]))
        value = data.draw({"card": FIELD, "target": FIELD, "pick": FIELD, "kind":
                           st.sampled_from(KINDS), "cards": ACTIONS.map(lambda a: a.cards)}[field])
        judged(state, decision.seat, msgspec.structs.replace(near, **{field: value}))
        seat = data.draw(st.sampled_from([decision.seat, decision.seat, -1, 0, players - 1, 9]))
        judged(state, seat, data.draw(ACTIONS))


def test_every_card_play_is_judged_by_its_own_checks() -> None:
    """Every card in hand at every target (or none), as itself and as a BANG!, in the play
    phases of random games: offered exactly when the card's checks pass, and refused with
    the first of its checks that fails."""
    chooser = random.Random(3)
    plays = 0
    for game in range(12):
        state, _ = start_game(Setup(players=3 + game % 5, seed=900 + game))
        while state.pending is not None:
            decision = state.pending
            if decision.kind == "play":
                plays += 1
                seat = decision.seat
                for card in state.players[seat].hand:
                    for target in [None, *range(len(state.players))]:
                        for kind in ("play", "play_as_bang"):
                            action = Action(kind, card=card, target=target)
                            why = judged(state, seat, action)
                            if why is None or not state.players[target or 0].alive or \
                                    rulebook(state).forbids(state, seat, card) is not None:
                                continue
                            rule = CARD_RULES.get("bang" if kind == "play_as_bang"
                                                  else KEY[card])
                            if rule is not None and kind == "play":
                                assert why == (rule.ready(state, seat, card)
                                               or rule.check(state, seat, action)
                                               or NOT_AN_OPTION)
            apply(state, decision.seat, chooser.choice(decision.options))
    assert plays > 300


# --- the explanations ------------------------------------------------------------------------

def why(t: Table, seat: int, kind: str, **fields: object) -> Refusal:
    before = encode_state(t.state)
    action = action_of(t.state, Move(seat, kind, fields.get("card"), fields.get("target"),
                                     fields.get("pick"), list(fields.get("cards", []))))
    with pytest.raises(IllegalAction) as error:
        apply(t.state, seat, action)
    assert encode_state(t.state) == before
    assert error.value.refusal is not None
    return error.value.refusal


def test_out_of_reach_gives_the_distance_and_the_reach() -> None:
    t = Table(5, hands={0: ["BANG! A♠"]}, in_play={0: ["Volcanic"], 2: ["Mustang"]})
    refused = why(t, 0, "play", card="BANG! A♠", target=2)
    assert refused.rule == "out_of_reach"
    assert refused.text == f"{t.player(2).name} is at distance 3, but your reach is 1"


def test_one_bang_per_turn() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "BANG! Q♥"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert why(t, 0, "play", card="BANG! Q♥", target=1).rule == "one_bang"
    assert not t.can(0, "play", card="BANG! Q♥")


def test_apache_kid_is_immune_to_diamonds() -> None:
    t = Table([None, "apache_kid", None, None], hands={0: ["BANG! 5♦", "Panic! 8♦", "BANG! A♠"]})
    refused = why(t, 0, "play", card="BANG! 5♦", target=1)
    assert refused.rule == "immune" and "Diamond" in refused.text
    assert why(t, 0, "play", card="Panic! 8♦", target=1).rule == "immune"
    assert t.can(0, "play", card="BANG! A♠", target=1)


def test_a_beer_does_not_save_with_two_players_left() -> None:
    t = Table(["willy_the_kid", None, None, None], roles=["sheriff", "renegade", "outlaw",
                                                         "outlaw"],
              hands={0: ["BANG! A♠", "BANG! Q♥", "BANG! K♥"], 1: ["Beer 6♥"], 2: [], 3: []},
              in_play={0: ["Remington"]}, life={1: 1, 2: 1, 3: 1})
    for outlaw in (2, 3):
        t.play(0, "BANG!", target=outlaw)
        t.act(outlaw, "take_hit")
        t.act(outlaw, "die")
    t.play(0, "BANG!", target=1)
    t.act(1, "take_hit")
    assert t.waiting() == (1, "dying") and not t.can(1, "beer")
    refused = why(t, 1, "beer", card="Beer 6♥")
    assert refused.rule == "two_left" and "two players" in refused.text


@pytest.mark.parametrize(("table", "seat", "kind", "fields", "rule"), [
    (lambda: Table(4, hands={1: ["Jail 10♠"]}, turn=1), 1, "play",
     {"card": "Jail 10♠", "target": 0}, "sheriff"),
    (lambda: Table(4, hands={0: ["Jail 10♠"]}, in_play={2: ["Jail J♠"]}), 0, "play",
     {"card": "Jail 10♠", "target": 2}, "jailed"),
    (lambda: Table(4, hands={0: ["Barrel K♠"]}, in_play={0: ["Barrel Q♠"]}), 0, "play",
     {"card": "Barrel K♠"}, "same_name"),
    (lambda: Table(4, hands={0: ["Panic! J♥"]}), 0, "play", {"card": "Panic! J♥", "target": 1},
     "empty_hand"),
    (lambda: Table(4, hands={0: ["Duel J♠"]}), 0, "play", {"card": "Duel J♠"}, "no_target"),
    (lambda: Table(4, hands={0: ["Missed! 2♠"]}), 0, "play", {"card": "Missed! 2♠"},
     "out_of_turn"),
    (lambda: Table(4, life={0: 1}), 0, "chuck", {}, "last_life"),
    (lambda: Table([None, "sid_ketchum", None, None], turn=1, hands={1: ["BANG! A♠", "Beer"]}),
     1, "sid", {"cards": ["BANG! A♠", "Beer"]}, "full_life"),
    (lambda: Table(4), 1, "end_turn", {}, "not_your_decision"),
    (lambda: Table(4), 0, "take_hit", {}, "not_now"),
    (lambda: Table(4, hands={0: ["BANG! A♠"]}), 0, "play",
     {"card": "BANG! A♠", "target": 1, "pick": "BANG! A♠"}, "not_an_option"),
])
def test_each_refusal_names_its_check(table: Callable[[], Table], seat: int, kind: str,
                                      fields: dict, rule: str) -> None:
    assert why(table(), seat, kind, **fields).rule == rule


# --- answers out of turn --------------------------------------------------------------------

def test_a_missed_is_refused_by_its_check() -> None:
    t = Table([None, "big_spencer", "calamity_janet", None],
              hands={0: ["BANG! A♠", "Gatling"], 1: ["Missed! 2♠"],
                     2: ["BANG! Q♥", "Beer 6♥"]})
    t.play(0, "Gatling")
    assert t.waiting() == (1, "respond_shot") and t.option_kinds() == {"take_hit"}
    refused = why(t, 1, "missed", card="Missed! 2♠")
    assert refused.rule == "no_missed" and refused.text == "Big Spencer cannot play Missed! cards"
    t.act(1, "take_hit")
    assert t.waiting() == (2, "respond_shot")
    assert t.can(2, "missed", card="BANG! Q♥")  # Calamity Janet: a BANG! as a Missed!
    refused = why(t, 2, "missed", card="Beer 6♥")
    assert refused.rule == "not_missed" and refused.text == "Beer 6♥ is not a Missed!"


def test_a_barrel_is_drawn_once_and_only_with_a_barrel() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "Gatling"]}, in_play={1: ["Barrel"]},
              deck=["Missed! 2♠"])
    t.play(0, "Gatling")
    assert t.can(1, "barrel")
    t.act(1, "barrel")  # a Spade: the Barrel fails
    refused = why(t, 1, "barrel")
    assert refused.rule == "barrel_used" and "already drawn" in refused.text
    t.act(1, "take_hit")
    assert t.waiting()[0] == 2 and why(t, 2, "barrel").rule == "no_barrel"


def test_an_unavoidable_shot_says_so() -> None:
    t = Table(["colorado_bill", None, None, None], hands={0: ["BANG! A♠"], 1: ["Missed! 3♠"]},
              in_play={1: ["Barrel"]}, deck=["Missed! 2♠"])
    t.play(0, "BANG! A♠", target=1)
    for kind, fields in (("missed", {"card": "Missed! 3♠"}), ("barrel", {})):
        refused = why(t, 1, kind, **fields)
        assert refused.rule == "unavoidable" and "Colorado Bill" in refused.text


@pytest.mark.parametrize("card, calamity", [("Missed! 3♠", False), ("Beer 6♥", False),
                                            ("Beer 6♥", True)])
def test_only_a_bang_is_discarded_in_a_duel(card: str, calamity: bool) -> None:
    t = Table([None, "calamity_janet" if calamity else None, None, None],
              hands={0: ["Duel J♠"], 1: [card, "Missed! 2♠"]})
    t.play(0, "Duel J♠", target=1)
    assert t.waiting() == (1, "respond_duel")
    assert t.can(1, "discard_bang", card="Missed! 2♠") == calamity
    refused = why(t, 1, "discard_bang", card=card)
    assert refused.rule == "not_bang" and refused.text == f"{card} is not a BANG!"


def test_every_decision_the_engine_asks_has_its_words() -> None:
    """A refusal names what the seat must do: every decision kind asked anywhere in shared/
    (an expansion's too) has its sentence in DECISION_TEXT."""
    root = Path(__file__).resolve().parents[2] / "shared"
    asked = {kind for path in root.rglob("*.py")
             for kind in re.findall(r'\bask\([\w.]+, "(\w+)"', path.read_text("utf-8"))}
    assert len(asked) >= 16 and asked <= set(DECISION_TEXT)
