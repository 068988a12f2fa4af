"""One or more rigged scenarios per card, in the order of the rulebook's card section.

Unless a test says otherwise the table has 4 seats, seat 0 is the Sheriff (one more life point)
and it is seat 0's play phase. Around a table of 4, seats 1 and 3 are at distance 1 from seat 0
and seat 2 at distance 2.
"""

from __future__ import annotations

import pytest
from table import Table


def test_bang_hits_a_player_in_reach_and_is_discarded() -> None:
    t = Table(4, hands={0: ["BANG! A♠"]})
    assert t.targets(0, "BANG!") == {1, 3}
    t.play(0, "BANG! A♠", target=1)
    assert t.waiting() == (1, "respond_shot")
    t.act(1, "take_hit")
    assert t.life(1) == 3
    assert t.find("hit")[0].target == 0
    assert t.discard_top() == "BANG! A♠"
    assert t.waiting() == (0, "play")


def test_bang_beyond_reach_is_refused() -> None:
    t = Table(4, hands={0: ["BANG! A♠"]})
    reason = t.refuse(0, "play", card="BANG! A♠", target=2)
    assert "distance 2" in reason and "reach is 1" in reason


def test_only_one_bang_card_per_turn() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "BANG! Q♥"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert not t.can(0, "play", card="BANG!")
    assert "already played a BANG!" in t.refuse(0, "play", card="BANG! Q♥", target=3)


def test_missed_cancels_the_bang_which_is_still_discarded() -> None:
    t = Table(4, hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "missed", card="Missed! 2♠")
    assert t.life(1) == 4
    assert "missed" in t.kinds()
    assert t.discard()[-2:] == ["BANG! A♠", "Missed! 2♠"]


def test_missed_cannot_be_played_on_your_own_turn() -> None:
    t = Table(4, hands={0: ["Missed! 2♠"]})
    assert not t.can(0, "play", card="Missed!")
    t.refuse(0, "play", card="Missed! 2♠")


def test_beer_heals_one_up_to_the_maximum() -> None:
    t = Table(4, hands={0: ["Beer 6♥", "Beer 7♥"]}, life={0: 4})
    t.play(0, "Beer 6♥")
    assert t.life(0) == 5
    t.play(0, "Beer 7♥")
    assert t.life(0) == 5


def test_beer_saves_from_a_fatal_hit() -> None:
    t = Table(4, hands={0: ["BANG! A♠"], 1: ["Beer 6♥", "Saloon"]}, life={1: 1})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.waiting() == (1, "dying")
    assert t.option_kinds() == {"beer", "die"}  # Saloon is no Beer
    t.act(1, "beer", card="Beer 6♥")
    assert t.alive(1) and t.life(1) == 1
    assert t.hand(1) == ["Saloon 5♥"]


def test_beer_cannot_be_played_out_of_turn_on_a_hit_that_is_not_fatal() -> None:
    t = Table(4, hands={0: ["BANG! A♠"], 1: ["Beer 6♥"]}, life={1: 2})
    t.play(0, "BANG! A♠", target=1)
    assert "beer" not in t.option_kinds()
    t.act(1, "take_hit")
    assert t.waiting() == (0, "play")


@pytest.mark.parametrize("beers, survives", [(2, True), (1, False)])
def test_two_beers_against_dynamite_2_minus_3_plus_2_is_1(beers: int, survives: bool) -> None:
    """Rulebook, Beer: at 2 life, Dynamite takes 3; two Beers leave you at 1, one is not enough."""
    t = Table(4, hands={1: ["Beer 6♥", "Beer 7♥"][:beers]}, in_play={1: ["Dynamite"]},
              life={1: 2}, deck=["Missed! 5♠"], turn=1, start="start")
    assert t.find("dynamite_explodes", t.events)
    assert t.waiting() == (1, "dying") and t.life(1) == -1
    assert t.pending.needed == 2
    t.act(1, "beer", card="Beer 6♥")
    if survives:
        t.act(1, "beer", card="Beer 7♥")
        assert t.life(1) == 1 and t.alive(1)
        assert t.find("survives")
    else:
        assert t.waiting() == (1, "dying") and t.option_kinds() == {"die"}
        t.act(1, "die")
        assert not t.alive(1)


def test_saloon_heals_every_player_in_play() -> None:
    t = Table(4, hands={0: ["Saloon"]}, life={0: 2, 1: 3, 3: 1})
    t.play(0, "Saloon")
    assert [t.life(s) for s in range(4)] == [3, 4, 4, 2]


def test_stagecoach_draws_two_and_wells_fargo_three() -> None:
    t = Table(4, hands={0: ["Stagecoach", "Wells Fargo"]},
              deck=["Beer 6♥", "Beer 7♥", "Missed! 2♠", "Missed! 3♠", "Missed! 4♠"])
    t.play(0, "Stagecoach")
    assert t.hand(0) == ["Wells Fargo 3♥", "Beer 6♥", "Beer 7♥"]
    t.play(0, "Wells Fargo")
    assert t.hand(0) == ["Beer 6♥", "Beer 7♥", "Missed! 2♠", "Missed! 3♠", "Missed! 4♠"]


def test_general_store_picks_go_clockwise_from_the_player() -> None:
    shown = ["Beer 6♥", "Missed! 2♠", "BANG! Q♥", "Barrel Q♠"]
    t = Table(4, hands={2: ["General Store"]}, deck=shown, turn=2)
    t.play(2, "General Store")
    assert t.waiting() == (2, "store_pick")
    assert len(t.pending.shown) == 4
    t.act(2, "pick", pick="Barrel Q♠")
    assert t.waiting() == (3, "store_pick")
    t.act(3, "pick", pick="Beer 6♥")
    assert t.waiting() == (0, "store_pick")
    t.act(0, "pick", pick="BANG! Q♥")
    # The last card goes to the last player without a choice.
    assert t.waiting() == (2, "play")
    assert (t.hand(2), t.hand(3), t.hand(0), t.hand(1)) == (
        ["Barrel Q♠"], ["Beer 6♥"], ["BANG! Q♥"], ["Missed! 2♠"])


def test_panic_takes_a_random_hand_card_at_distance_1() -> None:
    t = Table(4, hands={0: ["Panic! J♥"], 1: ["Missed! 2♠"], 2: ["Beer 6♥"]})
    assert t.targets(0, "Panic!") == {1}  # seat 3 has no cards; seat 2 is at distance 2
    t.play(0, "Panic! J♥", target=1)
    assert t.hand(0) == ["Missed! 2♠"] and t.hand(1) == []


def test_panic_takes_a_card_of_your_choice_in_play() -> None:
    t = Table(4, hands={0: ["Panic! J♥"], 3: ["Beer 6♥"]}, in_play={3: ["Barrel", "Schofield K♠"]})
    t.play(0, "Panic! J♥", target=3, pick="Schofield K♠")
    assert t.hand(0) == ["Schofield K♠"]
    assert t.in_play(3) == ["Barrel Q♠"] and t.hand(3) == ["Beer 6♥"]


def test_panic_distance_counts_mustang_and_scope_but_never_weapons() -> None:
    hands = {0: ["Panic! J♥"], 1: ["Beer 6♥"], 2: ["Beer 7♥"], 3: ["Beer 8♥"]}
    assert Table(4, hands=hands, in_play={0: ["Winchester"]}).targets(0, "Panic!") == {1, 3}
    assert Table(4, hands=hands, in_play={1: ["Mustang"]}).targets(0, "Panic!") == {3}
    assert Table(4, hands=hands, in_play={0: ["Scope"]}).targets(0, "Panic!") == {1, 2, 3}
    t = Table(4, hands=hands, in_play={1: ["Mustang"]})
    assert "only distance 1" in t.refuse(0, "play", card="Panic!", target=1)


def test_cat_balou_discards_at_any_distance() -> None:
    t = Table(4, hands={0: ["Cat Balou K♥"], 2: ["Beer 6♥"]}, in_play={2: ["Barrel"]})
    assert t.targets(0, "Cat Balou") == {2}
    t.play(0, "Cat Balou K♥", target=2, pick="Barrel")
    assert t.in_play(2) == [] and t.discard_top() == "Barrel Q♠"
    t2 = Table(4, hands={0: ["Cat Balou K♥"], 2: ["Beer 6♥"]})
    t2.play(0, "Cat Balou K♥", target=2)
    assert t2.hand(2) == [] and t2.discard_top() == "Beer 6♥"


def test_duel_alternates_and_the_first_who_does_not_discard_loses() -> None:
    t = Table(4, hands={0: ["Duel J♠", "BANG! A♠"], 2: ["BANG! Q♥", "Missed! 2♠"]},
              in_play={2: ["Barrel"]})
    assert t.targets(0, "Duel") == {1, 2, 3}  # any distance
    t.play(0, "Duel J♠", target=2)
    assert t.waiting() == (2, "respond_duel")
    assert t.option_kinds() == {"discard_bang", "take_hit"}  # no Missed!, no Barrel
    t.act(2, "discard_bang", card="BANG! Q♥")
    assert t.waiting() == (0, "respond_duel")
    t.act(0, "discard_bang", card="BANG! A♠")
    assert t.waiting() == (2, "respond_duel") and t.option_kinds() == {"take_hit"}
    t.act(2, "take_hit")
    assert (t.life(0), t.life(2)) == (5, 3)


def test_duel_challenger_can_lose_and_duel_bangs_do_not_count() -> None:
    t = Table(4, hands={0: ["Duel J♠", "BANG! A♠"], 1: ["BANG! Q♥"]})
    t.play(0, "Duel J♠", target=1)
    t.act(1, "discard_bang", card="BANG! Q♥")
    t.act(0, "take_hit")
    assert (t.life(0), t.life(1)) == (4, 4)
    assert t.can(0, "play", card="BANG! A♠", target=1)  # the Duel's BANG!s do not count


def test_gatling_shoots_everyone_else_and_is_not_a_bang_card() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "Gatling"], 1: ["Missed! 2♠"]})
    t.play(0, "BANG! A♠", target=3)
    t.act(3, "take_hit")
    assert t.can(0, "play", card="Gatling")
    t.play(0, "Gatling")
    assert t.waiting() == (1, "respond_shot")
    t.act(1, "missed", card="Missed! 2♠")
    assert t.waiting() == (2, "respond_shot")
    t.act(2, "take_hit")
    t.act(3, "take_hit")
    assert [t.life(s) for s in range(4)] == [5, 4, 3, 2]


def test_bang_after_gatling_is_allowed() -> None:
    t = Table(4, hands={0: ["Gatling", "BANG! A♠"]})
    t.play(0, "Gatling")
    for seat in (1, 2, 3):
        t.act(seat, "take_hit")
    assert t.can(0, "play", card="BANG! A♠", target=1)


def test_indians_each_other_player_discards_a_bang_or_loses_a_life() -> None:
    t = Table(4, hands={0: ["Indians! K♦"], 1: ["Missed! 2♠"], 2: ["BANG! Q♥"]},
              in_play={1: ["Barrel"]})
    t.play(0, "Indians! K♦")
    assert t.waiting() == (1, "respond_indians")
    assert t.option_kinds() == {"take_hit"}  # no Missed!, no Barrel
    t.act(1, "take_hit")
    t.act(2, "discard_bang", card="BANG! Q♥")
    t.act(3, "take_hit")
    assert [t.life(s) for s in range(4)] == [5, 3, 4, 3]
    assert t.waiting() == (0, "play")


def test_barrel_rulebook_example_four_of_hearts_cancels_the_bang() -> None:
    """Rulebook, Barrel: you flip the top card, a 4 of Hearts: the BANG! is cancelled."""
    t = Table(4, hands={0: ["BANG! A♠"]}, in_play={1: ["Barrel"]}, deck=["Jail 4♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert t.find("flip")[0].card is not None and t.discard_top() == "Jail 4♥"
    assert t.kinds()[-2:] == ["barrel_saves", "missed"]
    assert t.life(1) == 4 and t.waiting() == (0, "play")


def test_failed_barrel_still_allows_a_missed_once() -> None:
    t = Table(4, hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]}, in_play={1: ["Barrel"]},
              deck=["BANG! 5♦"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert "barrel_fails" in t.kinds()
    assert t.option_kinds() == {"missed", "take_hit"}  # one Barrel, one "draw!"
    t.act(1, "missed", card="Missed! 2♠")
    assert t.life(1) == 4


@pytest.mark.parametrize("flipped, explodes", [
    ("Missed! 2♠", True), ("Stagecoach 9♠", True), ("Winchester 8♠", True),
    ("Volcanic 10♠", False), ("BANG! A♠", False), ("Beer 9♥", False), ("Duel J♠", False),
])
def test_dynamite_explodes_on_2_to_9_of_spades_otherwise_passes_left(flipped: str,
                                                                    explodes: bool) -> None:
    t = Table(4, in_play={1: ["Dynamite"]}, deck=[flipped], turn=1, start="start")
    if explodes:
        assert t.life(1) == 1 and t.in_play(1) == [] and "Dynamite 2♥" in t.discard_top()
        assert t.find("hit", t.events)[0].count == 3
    else:
        assert t.life(1) == 4 and t.in_play(2) == ["Dynamite 2♥"]
        assert t.find("dynamite_passes", t.events)[0].target == 2
    assert t.waiting() == (1, "play")  # the turn goes on


def test_dynamite_passes_over_the_eliminated() -> None:
    t = Table(4, hands={0: ["BANG! A♠"]}, life={1: 1}, in_play={0: ["Dynamite"]},
              deck=["Beer 6♥", "Beer 7♥", "Missed! 10♣", "Missed! J♣", "Beer 9♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    t.act(1, "die")
    t.act(0, "end_turn")  # seat 1 is gone: seat 2 plays, then seat 3, then seat 0 again
    t.act(2, "end_turn")
    t.act(3, "end_turn")
    assert t.find("flip")[0].purpose == "dynamite" and t.life(0) == 5
    assert t.in_play(2) == ["Dynamite 2♥"]  # left of seat 0, past the dead seat 1


def test_dynamite_is_checked_before_jail() -> None:
    t = Table(4, in_play={1: ["Jail 10♠", "Dynamite"]}, deck=["Volcanic 10♠", "Beer 6♥"],
              turn=1, start="start")
    flips = [e.purpose for e in t.find("flip", t.events)]
    assert flips == ["dynamite", "jail"]
    assert "jail_escape" in t.kinds(t.events) and t.waiting() == (1, "play")


def test_dynamite_damage_is_caused_by_nobody_no_outlaw_bounty() -> None:
    t = Table(4, in_play={2: ["Dynamite"]}, life={2: 3}, deck=["Missed! 2♠"], turn=2,
              start="start")
    t.act(2, "die")
    eliminated = t.find("eliminated")[0]
    assert eliminated.seat == 2 and eliminated.target is None and eliminated.role == "outlaw"
    assert not [e for e in t.last if e.kind == "draw" and e.source == "reward"]
    assert t.state.turn == 3 and t.waiting()[0] == 3  # eliminated on his turn: play passes on


def test_jail_hearts_escape_otherwise_skip_the_turn() -> None:
    t = Table(4, in_play={1: ["Jail 10♠"]}, deck=["Beer 6♥"], turn=1, start="start")
    assert "jail_escape" in t.kinds(t.events) and t.waiting() == (1, "play")
    assert t.in_play(1) == []
    t = Table(4, in_play={1: ["Jail 10♠"]}, deck=["Panic! 8♦"], turn=1, start="start")
    assert "jail_stays" in t.kinds(t.events) and t.in_play(1) == []
    assert t.state.turn == 2


def test_jail_cannot_go_on_the_sheriff_but_anywhere_else_at_any_distance() -> None:
    t = Table(4, hands={1: ["Jail 10♠"]}, turn=1)
    assert t.targets(1, "Jail") == {2, 3}
    assert "Sheriff" in t.refuse(1, "play", card="Jail 10♠", target=0)
    t.play(1, "Jail 10♠", target=3)
    assert t.in_play(3) == ["Jail 10♠"]


def test_jailed_player_can_still_be_shot_and_respond() -> None:
    t = Table(4, hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]}, in_play={1: ["Jail 10♠"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "missed", card="Missed! 2♠")
    assert t.life(1) == 4


def test_jail_on_anyone_with_three_players() -> None:
    t = Table(3, hands={1: ["Jail 10♠"]}, turn=1)
    assert t.targets(1, "Jail") == {0, 2}


def test_mustang_and_scope_change_distance_for_bang() -> None:
    assert Table(4, hands={0: ["BANG! A♠"]}, in_play={1: ["Mustang"]}).targets(0, "BANG!") == {3}
    assert Table(4, hands={0: ["BANG! A♠"]}, in_play={0: ["Scope"]}).targets(0, "BANG!") == {
        1, 2, 3}
    # A Mustang in front of you does not change how far you see the others.
    assert Table(4, hands={0: ["BANG! A♠"]}, in_play={0: ["Mustang"]}).targets(0, "BANG!") == {
        1, 3}


@pytest.mark.parametrize("weapon, reach", [
    (None, {1, 6}), ("Volcanic 10♠", {1, 6}), ("Schofield K♠", {1, 2, 5, 6}),
    ("Remington", {1, 2, 5, 6}), ("Rev. Carabine", {1, 2, 3, 5, 6}),
    ("Winchester", {1, 2, 3, 4, 5, 6}),
])
def test_each_weapon_reach(weapon: str | None, reach: set[int]) -> None:
    """7 seats: seats 1..6 at distance 1, 2, 3+1 (Mustang), 3+2 (Paul Regret and Mustang), 2, 1."""
    chars = [None, None, None, None, "paul_regret", None, None]
    t = Table(chars, hands={0: ["BANG! A♠"]},
              in_play={0: [weapon] if weapon else [], 3: ["Mustang 8♥"], 4: ["Mustang 9♥"]})
    assert t.targets(0, "BANG!") == reach


def test_a_new_weapon_replaces_the_old_one() -> None:
    t = Table(4, hands={0: ["Winchester"]}, in_play={0: ["Schofield K♠"]})
    t.play(0, "Winchester")
    assert t.in_play(0) == ["Winchester 8♠"] and t.discard_top() == "Schofield K♠"


def test_volcanic_allows_any_number_of_bangs() -> None:
    t = Table(4, hands={0: ["BANG! A♠", "BANG! Q♥", "BANG! K♥"]}, in_play={0: ["Volcanic"]})
    for card, target in (("BANG! A♠", 1), ("BANG! Q♥", 1), ("BANG! K♥", 3)):
        t.play(0, card, target=target)
        t.act(target, "take_hit")
    assert (t.life(1), t.life(3)) == (2, 3)


def test_no_two_cards_with_the_same_name_in_play() -> None:
    t = Table(4, hands={0: ["Barrel K♠", "Schofield J♣"]}, in_play={0: ["Barrel Q♠",
                                                                      "Schofield K♠"]})
    assert not t.can(0, "play", card="Barrel") and not t.can(0, "play", card="Schofield")
    assert "same name" in t.refuse(0, "play", card="Barrel K♠")
