"""High Noon (../shared/HIGH_NOON.md): one or more rigged scenarios per event card and per
option of a disputed ruling. Seat 0 is the Sheriff. `sheriff_turns=1` with `start="start"` at
the Sheriff's turn makes the next card of `events` come into play."""

from __future__ import annotations

import pytest
from table import Table

from shared.engine import SetupError, new_game, start_game
from shared.high_noon.cards import BONUS, EVENTS, FINAL
from shared.high_noon.rules import HighNoonState
from shared.setup import HighNoonOptions, Scenario, SeatRig, Setup
from shared.views import view

PLAIN = "slab_the_killer"  # draws 2, no ability in the way of these tests


def flip(card: str, characters: list[str | None] | int = 4, **kwargs: object) -> Table:
    """The Sheriff starts his second turn and `card` comes into play."""
    return Table(characters, events=[card], sheriff_turns=1, turn=0, start="start",
                 **kwargs)  # type: ignore[arg-type]


# --- the event deck and the rounds -------------------------------------------------------------


def test_the_event_deck_is_the_12_events_shuffled_with_high_noon_last() -> None:
    state = new_game(Setup(players=5, seed=3, expansions=["high_noon"]))
    assert isinstance(state, HighNoonState)
    assert state.event_deck[-1] == FINAL and sorted(state.event_deck[:-1]) == sorted(EVENTS)
    assert state.event_active is None
    bonus = new_game(Setup(players=5, seed=3, expansions=["high_noon"],
                           high_noon=HighNoonOptions(bonus=True)))
    assert isinstance(bonus, HighNoonState)
    assert sorted(bonus.event_deck[:-1]) == sorted(EVENTS + BONUS)
    short = new_game(Setup(players=5, seed=3, expansions=["high_noon"],
                           high_noon=HighNoonOptions(event_limit=4)))
    assert isinstance(short, HighNoonState) and len(short.event_deck) == 5


def test_the_expansion_deals_the_base_game_the_same_way() -> None:
    base = new_game(Setup(players=6, seed=11))
    high_noon = new_game(Setup(players=6, seed=11, expansions=["high_noon"]))
    assert [(p.character, p.role, p.hand) for p in base.players] == \
        [(p.character, p.role, p.hand) for p in high_noon.players]
    assert base.deck == high_noon.deck


def test_no_card_in_the_first_round_and_one_at_the_sheriffs_second_turn() -> None:
    t = Table(4, events=["thirst", "shootout"], sheriff_turns=0, turn=0, start="start")
    assert not t.find("event_flip", t.events) and t.state.event_active is None
    t = flip("thirst")
    flipped = t.find("event_flip", t.events)
    assert [e.event_card for e in flipped] == ["thirst"]
    assert t.kinds(t.events).index("event_flip") < t.kinds(t.events).index("draw")
    assert t.state.event_active == "thirst" and t.state.event_deck == [FINAL]


def test_the_next_card_is_public_unless_hidden_by_option() -> None:
    t = Table(4, events=["thirst", "shootout"])
    for seat in (None, 0, 2):
        seen = view(t.state, seat)
        assert (seen.event_active, seen.event_next, seen.events_left) == \
            (None, "thirst", 3)
    hidden = Table(4, events=["thirst"], high_noon=HighNoonOptions(next_hidden=True))
    assert view(hidden.state, 1).event_next is None
    assert view(hidden.state, 1).events_left == 2


def test_high_noon_is_never_covered() -> None:
    t = Table(4, event_active=FINAL, sheriff_turns=5, turn=0, start="start")
    assert not t.find("event_flip", t.events) and t.state.event_active == FINAL
    assert view(t.state, None).event_next is None


def test_rigging_events_needs_the_expansion_and_known_cards() -> None:
    setup = Setup(players=4, seed=1)
    with pytest.raises(SetupError, match="high_noon"):
        start_game(setup, Scenario(event_active="thirst"))
    setup = Setup(players=4, seed=1, expansions=["high_noon"])
    with pytest.raises(SetupError, match="unknown event card"):
        start_game(setup, Scenario(event_deck=["thirsty"]))
    with pytest.raises(SetupError, match="last card"):
        start_game(setup, Scenario(event_deck=["high_noon", "thirst"]))
    with pytest.raises(SetupError, match="unknown expansion"):
        start_game(Setup(players=4, expansions=["dodge_city"]))
    with pytest.raises(SetupError, match="expansions"):
        start_game(Setup(players=4, high_noon=HighNoonOptions(bonus=True)))


def test_three_players_the_round_starts_at_the_deputy_then_the_next_living_seat() -> None:
    # Three players: the Deputy (seat 0) leads; dead, the next living seat clockwise does.
    t = Table(3, events=["thirst"], sheriff_turns=1, turn=0, start="start")
    assert t.state.event_active == "thirst"
    t = Table(3, events=["thirst"], sheriff_turns=1, turn=1, start="start", eliminated={0})
    assert t.state.event_active == "thirst"
    with pytest.raises(SetupError, match="3 players"):
        new_game(Setup(players=3, expansions=["high_noon"],
                       high_noon=HighNoonOptions(no_three_players=True)))


# --- the cards ---------------------------------------------------------------------------------


def test_blessing_every_card_is_a_heart() -> None:
    t = Table(4, event_active="blessing", hands={0: ["BANG! A♠"]}, in_play={1: ["Barrel Q♠"]},
              deck=["Missed! 2♠"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert t.find("barrel_saves") and t.life(1) == 4
    t = Table(4, event_active="blessing", in_play={1: ["Jail 10♠", "Dynamite 2♥"]},
              deck=["Missed! 3♠", "Missed! 4♠", "BANG! A♠", "BANG! 2♦"], turn=1,
              start="start")
    assert t.find("dynamite_passes", t.events) and t.find("jail_escape", t.events)
    assert t.life(1) == 4


def test_blessing_black_jack_always_draws_his_extra_card() -> None:
    t = Table([None, "black_jack", None, None], event_active="blessing",
              deck=["BANG! A♠", "Missed! 2♠", "Barrel Q♠"], turn=1, start="start")
    assert t.hand(1) == ["BANG! A♠", "Missed! 2♠", "Barrel Q♠"]


@pytest.mark.parametrize("draws_only, extra", [(False, True), (True, False)])
def test_blessing_option_only_the_draws_change_suit(draws_only: bool, extra: bool) -> None:
    t = Table([None, "black_jack", None, None], event_active="blessing",
              deck=["BANG! A♠", "Missed! 2♠", "Barrel Q♠"], turn=1, start="start",
              high_noon=HighNoonOptions(suits_in_draws_only=draws_only))
    assert ("Barrel Q♠" in t.hand(1)) is extra
    t = Table(4, event_active="blessing", in_play={1: ["Jail 10♠"]}, deck=["Missed! 3♠"],
              turn=1, start="start", high_noon=HighNoonOptions(suits_in_draws_only=draws_only))
    assert t.find("jail_escape", t.events)  # a "draw!": a Heart either way


def test_curse_every_card_is_a_spade() -> None:
    t = Table(4, event_active="curse", hands={0: ["BANG! A♠"]}, in_play={1: ["Barrel Q♠"]},
              deck=["Beer 6♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert t.find("barrel_fails")
    # Dynamite explodes on any 2-9, whatever its printed suit; a 10 does not.
    t = Table(4, event_active="curse", in_play={1: ["Dynamite 2♥"]}, deck=["Beer 6♥"],
              turn=1, start="start")
    assert t.find("dynamite_explodes", t.events) and t.life(1) == 1
    t = Table(4, event_active="curse", in_play={1: ["Dynamite 2♥"]}, deck=["Beer 10♥"],
              turn=1, start="start")
    assert t.find("dynamite_passes", t.events)


def test_ghost_town_the_dead_play_a_turn_as_ghosts() -> None:
    t = Table([None, PLAIN, None, None], event_active="ghost_town", eliminated={1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=0)
    t.act(0, "end_turn")
    assert t.kinds()[:3] == ["turn_end", "ghost_returns", "turn_start"]
    assert t.alive(1) and t.life(1) == 0
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]  # 3 instead of 2
    events = t.act(1, "end_turn")  # no discard phase
    assert t.kinds(events)[:3] == ["turn_end", "ghost_leaves", "discard_all"]
    assert not t.alive(1) and t.hand(1) == []
    assert t.discard()[-3:] == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]
    assert t.state.turn == 2


@pytest.mark.parametrize("plus_one, drawn", [(False, 3), (True, 4)])
def test_ghost_town_option_pixie_pete_draws_one_more_as_a_ghost(plus_one: bool,
                                                                drawn: int) -> None:
    t = Table([None, "pixie_pete", None, None], event_active="ghost_town", eliminated={1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥", "Beer 9♥"], turn=0,
              high_noon=HighNoonOptions(ghost_draw_plus_one=plus_one))
    t.act(0, "end_turn")
    assert len(t.hand(1)) == drawn


def test_ghost_town_a_ghost_cannot_die() -> None:
    t = Table([None, PLAIN, None, None], event_active="ghost_town", eliminated={1},
              hands={3: ["BANG! Q♥"]}, deck=["Duel Q♦", "Beer 6♥", "Beer 7♥"], turn=0)
    t.act(0, "end_turn")
    t.play(1, "Duel Q♦", target=3)
    t.act(3, "discard_bang", card="BANG! Q♥")
    events = t.act(1, "take_hit")
    assert "hit" not in t.kinds(events) and t.alive(1) and t.life(1) == 0
    assert t.waiting() == (1, "play")
    t.play(1, "Beer 6♥")  # nor heal: its life stays at 0
    assert t.life(1) == 0 and not t.find("heal")


def test_ghost_town_option_the_ghosts_cards_go_to_vulture_sam() -> None:
    for option, to_vulture in ((False, False), (True, True)):
        t = Table([None, PLAIN, "vulture_sam", None], event_active="ghost_town",
                  eliminated={1}, deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=0,
                  high_noon=HighNoonOptions(ghost_cards_to_vulture=option))
        t.act(0, "end_turn")
        t.act(1, "end_turn")
        assert ("Beer 6♥" in t.hand(2)) is to_vulture


def test_gold_rush_turns_go_counter_clockwise_but_dynamite_passes_clockwise() -> None:
    t = flip("gold_rush", in_play={0: ["Dynamite 2♥"]}, deck=["Beer 10♥"])
    assert t.find("dynamite_passes", t.events)[0].target == 1
    t.act(0, "end_turn")
    assert t.state.turn == 3
    t.act(3, "end_turn")
    assert t.state.turn == 2


def test_hangover_no_character_has_an_ability() -> None:
    t = Table([None, "jourdonnais", None, None], event_active="hangover",
              hands={0: ["BANG! A♠"]})
    t.play(0, "BANG! A♠", target=1)
    assert "barrel" not in t.option_kinds()
    t = Table(["willy_the_kid", None, None, None], event_active="hangover",
              hands={0: ["BANG! A♠", "BANG! Q♥"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert not t.can(0, "play", card="BANG! Q♥")


@pytest.mark.parametrize("keeps, may_miss", [(False, True), (True, False)])
def test_hangover_option_big_spencer_keeps_his_drawback(keeps: bool, may_miss: bool) -> None:
    t = Table([None, "big_spencer", None, None], event_active="hangover",
              hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]},
              high_noon=HighNoonOptions(hangover_keeps_drawbacks=keeps))
    t.play(0, "BANG! A♠", target=1)
    assert t.can(1, "missed", card="Missed! 2♠") is may_miss


def test_shootout_a_second_bang_but_not_a_third() -> None:
    t = Table(4, event_active="shootout", hands={0: ["BANG! A♠", "BANG! Q♥", "BANG! K♥"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    t.play(0, "BANG! Q♥", target=1)
    t.act(1, "take_hit")
    assert not t.can(0, "play", card="BANG! K♥")


def test_the_daltons_each_player_discards_a_card_in_front_of_him() -> None:
    t = flip("the_daltons", in_play={0: ["Barrel Q♠", "Mustang 8♥"], 2: ["Scope A♠"],
                                     3: ["Jail 10♠", "Volcanic 10♣"]})
    assert t.waiting() == (0, "daltons_discard")  # the Sheriff first
    t.act(0, "discard_in_play", pick="Mustang 8♥")
    assert t.in_play(2) == []  # a single card goes without asking
    assert t.waiting() == (3, "daltons_discard")
    t.act(3, "discard_in_play", pick="Jail 10♠")
    assert t.in_play(0) == ["Barrel Q♠"] and t.in_play(3) == ["Volcanic 10♣"]
    assert t.waiting() == (0, "play")


@pytest.mark.parametrize("lives, healed", [({1: 2, 2: 2, 3: 3}, {1, 2}),
                                           ({}, set())])
def test_the_doctor_heals_the_fewest_life_points(lives: dict[int, int],
                                                  healed: set[int]) -> None:
    t = flip("the_doctor", [None, "paul_regret", None, None], life=lives)
    got = {e.seat for e in t.find("heal", t.events)}
    assert got == healed


def test_the_doctor_the_lowest_at_full_life_heals_nobody_unless_the_option() -> None:
    # Paul Regret 3/3 has the fewest life points: nobody heals. With the option, the wounded
    # with the fewest do.
    for option, healed in ((False, set()), (True, {0})):
        t = flip("the_doctor", [None, "paul_regret", None, None], life={0: 4},
                 high_noon=HighNoonOptions(doctor_heals_wounded=option))
        assert {e.seat for e in t.find("heal", t.events)} == healed


def test_the_reverend_no_beer_in_play_nor_to_survive() -> None:
    t = Table(4, event_active="the_reverend", hands={0: ["Beer 6♥"], 1: ["Beer 7♥"]},
              life={0: 3, 1: 1}, in_play={2: ["Volcanic 10♣"]})
    assert not t.can(0, "play", card="Beer 6♥")
    assert "The Reverend" in t.refuse(0, "play", card="Beer 6♥")
    t2 = Table(4, event_active="the_reverend", hands={0: ["BANG! A♠"], 1: ["Beer 7♥"]},
               life={1: 1})
    t2.play(0, "BANG! A♠", target=1)
    t2.act(1, "take_hit")
    assert t2.waiting() == (1, "dying") and t2.option_kinds() == {"die"}


def test_the_reverend_annie_versary_may_still_shoot_a_beer() -> None:
    t = Table(["annie_versary", None, None, None], event_active="the_reverend",
              hands={0: ["Beer 6♥"]})
    assert t.can(0, "play_as_bang", card="Beer 6♥", target=1)


def test_the_sermon_no_bang_on_your_own_turn() -> None:
    t = Table(["calamity_janet", None, None, None], event_active="the_sermon",
              hands={0: ["BANG! A♠", "Missed! 2♠", "Duel J♠"], 1: ["BANG! Q♥"]})
    assert not t.can(0, "play", card="BANG! A♠")
    assert not t.can(0, "play_as_bang", card="Missed! 2♠")
    assert "The Sermon" in t.refuse(0, "play", card="BANG! A♠", target=1)
    t.play(0, "Duel J♠", target=1)
    t.act(1, "discard_bang", card="BANG! Q♥")  # the other player is not bound
    assert t.waiting() == (0, "respond_duel") and not t.can(0, "discard_bang")


@pytest.mark.parametrize("blocked", [False, True])
def test_the_sermon_option_calamity_janets_bang_as_missed_on_her_turn(blocked: bool) -> None:
    t = Table(["calamity_janet", None, None, "henry_block"], event_active="the_sermon",
              hands={0: ["Panic! J♥", "BANG! A♠"], 3: ["Beer 6♥"]},
              high_noon=HighNoonOptions(sermon_blocks_bang_as_missed=blocked))
    t.play(0, "Panic! J♥", target=3)  # Henry Block shoots back at once
    assert t.waiting()[0] == 0
    assert t.can(0, "missed", card="BANG! A♠") is not blocked


def test_thirst_one_card_fewer() -> None:
    t = Table([None, PLAIN, None, None], event_active="thirst",
              deck=["Beer 6♥", "Beer 7♥"], turn=1, start="start")
    assert t.hand(1) == ["Beer 6♥"]
    t = Table([None, "pixie_pete", None, None], event_active="thirst",
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=1, start="start")
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥"]


def test_thirst_option_everyone_draws_exactly_one() -> None:
    t = Table([None, "pixie_pete", None, None], event_active="thirst",
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=1, start="start",
              high_noon=HighNoonOptions(thirst_draws_one=True))
    assert t.hand(1) == ["Beer 6♥"]


def test_thirst_kit_carlson_keeps_one_and_puts_two_back_in_order() -> None:
    t = Table([None, "kit_carlson", None, None], event_active="thirst",
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=1, start="start")
    assert t.waiting() == (1, "kit_keep")
    t.act(1, "keep", pick="Beer 7♥")
    assert t.hand(1) == ["Beer 7♥"] and t.deck_top(2) == ["Beer 6♥", "Beer 8♥"]


def test_train_arrival_one_card_more() -> None:
    t = Table([None, PLAIN, None, None], event_active="train_arrival",
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=1, start="start")
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]
    # Kit Carlson simply takes the top three.
    t = Table([None, "kit_carlson", None, None], event_active="train_arrival",
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥", "Beer 9♥"], turn=1, start="start")
    assert t.waiting() == (1, "play") and t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]


def test_high_noon_everyone_loses_a_life_at_the_start_of_the_turn() -> None:
    t = Table([None, "bart_cassidy", None, None], event_active=FINAL,
              in_play={1: ["Dynamite 2♥"]}, deck=["Beer 6♥", "Beer 10♥"], turn=1,
              start="start")
    kinds = t.kinds(t.events)
    assert kinds.index("event_effect") < kinds.index("hit") < kinds.index("flip")
    assert t.life(1) == 3 and "Beer 6♥" in t.hand(1)  # Bart Cassidy draws for it
    hit = t.find("hit", t.events)[0]
    assert hit.target is None  # nobody caused it


def test_high_noon_can_kill_and_the_sheriff_dying_ends_the_game() -> None:
    t = Table(4, event_active=FINAL, sheriff_turns=4, life={0: 1}, turn=0, start="start")
    assert t.waiting() == (0, "dying")
    t.act(0, "die")
    assert t.state.winner == "outlaws"


def test_handcuffs_the_turn_player_names_a_suit_and_plays_only_that_suit() -> None:
    t = Table(4, event_active="handcuffs",
              hands={0: ["BANG! A♠", "Beer 6♥", "Panic! J♥"]}, life={0: 4},
              deck=["Missed! 2♠", "Missed! 3♠"], turn=0, start="start")
    assert t.waiting() == (0, "name_suit")
    assert t.pending.default.kind == "name_spades"  # the most cards (3 spades, 2 hearts)
    t.act(0, "name_hearts")
    assert t.find("suit_named")[0].suit == "hearts"
    assert t.can(0, "play", card="Beer 6♥") and not t.can(0, "play", card="BANG! A♠")


def test_new_identity_a_player_may_switch_to_his_other_character() -> None:
    setup = Setup(players=4, seed=2, expansions=["high_noon"],
                  high_noon=HighNoonOptions(bonus=True))
    state, _ = start_game(setup, Scenario(event_active="new_identity", turn=1,
                                          seats=[SeatRig(), SeatRig(life=3)]))
    assert isinstance(state, HighNoonState)
    other = state.other_character[1]
    assert other and other not in [p.character for p in state.players]
    assert state.pending is not None and state.pending.kind == "new_identity"
    assert view(state, 1).other_character == other and view(state, 2).other_character != other
    t = Table([None, PLAIN, None, None], event_active="new_identity", turn=1, start="start",
              high_noon=HighNoonOptions(bonus=True))
    before = t.state.other_character[1]
    t.act(1, "new_identity")
    assert t.player(1).character == before and t.life(1) == 2
    assert t.state.other_character[1] == ""


def test_thirst_and_train_arrival_for_the_characters_who_draw_differently() -> None:
    t = Table([None, "jesse_jones", None, None], event_active="thirst",
              hands={2: ["Beer 6♥"]}, deck=["Beer 7♥", "Beer 8♥"], turn=1, start="start")
    t.act(1, "draw_player", target=2)
    assert t.hand(1) == ["Beer 6♥"]  # only the first card
    t = Table([None, "jesse_jones", None, None], event_active="train_arrival",
              hands={2: ["Beer 6♥"]}, deck=["Beer 7♥", "Beer 8♥"], turn=1, start="start")
    t.act(1, "draw_player", target=2)
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]  # then 1, then the extra one
    t = Table([None, "black_jack", None, None], event_active="thirst",
              deck=["Beer 6♥", "Beer 7♥"], turn=1, start="start")
    assert t.hand(1) == ["Beer 6♥"] and not t.find("reveal", t.events)


def test_ghost_town_kit_carlson_looks_at_four_and_keeps_three() -> None:
    t = Table([None, "kit_carlson", None, None], event_active="ghost_town", eliminated={1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥", "Beer 9♥"], turn=0)
    t.act(0, "end_turn")
    assert t.waiting() == (1, "kit_put_back") and len(t.pending.private) == 4
    t.act(1, "put_back", pick="Beer 8♥")
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 9♥"] and t.deck_top() == ["Beer 8♥"]


def test_gold_rush_the_round_ends_back_at_the_sheriff_who_turns_the_next_card() -> None:
    t = Table(4, events=["gold_rush", "the_reverend"], sheriff_turns=1, turn=0,
              start="start")
    order = []
    for _ in range(4):
        order.append(t.state.turn)
        t.act(t.state.turn, "end_turn")
        while t.pending.kind == "discard":
            t.act(t.pending.seat, "discard", card=t.pending.options[0].card)
    assert order == [0, 3, 2, 1] and t.state.turn == 0
    assert t.state.event_active == "the_reverend"


def test_high_noon_a_jailed_player_loses_the_life_point_then_checks_jail() -> None:
    t = Table(4, event_active=FINAL, in_play={1: ["Jail 10♠"]}, deck=["Missed! 2♠"],
              turn=1, start="start")
    kinds = t.kinds(t.events)
    assert kinds.index("hit") < kinds.index("jail_stays") and t.life(1) == 3


def test_new_identity_the_default_keeps_the_character() -> None:
    t = Table([None, PLAIN, None, None], event_active="new_identity", turn=1, start="start",
              high_noon=HighNoonOptions(bonus=True))
    assert t.pending.default.kind == "pass"
    t.act(1, "pass")
    assert t.player(1).character == PLAIN and t.life(1) == 4
    assert t.waiting() == (1, "play")


def test_every_high_noon_decision_refuses_a_wrong_answer_with_a_reason() -> None:
    t = flip("the_daltons", in_play={0: ["Barrel Q♠", "Mustang 8♥"]})
    assert "The Daltons" in t.refuse(0, "end_turn")
    assert "waiting for" in t.refuse(1, "discard_in_play", pick="Barrel Q♠")
    t = Table(4, event_active="handcuffs", hands={0: ["BANG! A♠"]},
              deck=["Missed! 2♠", "Missed! 3♠"], turn=0, start="start")
    assert "Handcuffs" in t.refuse(0, "end_turn")
    t.act(0, "name_hearts")
    assert "Handcuffs: only hearts" in t.refuse(0, "play", card="BANG! A♠", target=1)
