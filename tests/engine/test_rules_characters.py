"""One or more rigged scenarios per character ability (all 26 of the 10th Anniversary box).

Tables have 4 seats unless a test says otherwise; seat 0 is the Sheriff (one more life point).
`None` in a character list is a filler whose ability stays out of the way.
"""

from __future__ import annotations

import pytest
from table import Table

from shared.characters import ALL_CHARACTERS, CHARACTERS
from shared.engine import new_game
from shared.model import Action
from shared.record import RECORD_VERSION, GameRecord, Move, RecordError, replay
from shared.setup import Scenario, SeatRig, Setup

# --- the 16 base characters ----------------------------------------------------------------


def test_bart_cassidy_draws_a_card_for_each_life_point_lost() -> None:
    t = Table([None, "bart_cassidy", None, None], hands={0: ["BANG! A♠"]},
              deck=["Beer 6♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.life(1) == 3 and t.hand(1) == ["Beer 6♥"]
    t = Table([None, "bart_cassidy", None, None], in_play={1: ["Dynamite"]},
              deck=["Missed! 2♠", "Beer 6♥", "Beer 7♥", "Beer 8♥"], turn=1, start="start")
    assert t.life(1) == 1
    assert t.hand(1)[:3] == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]


@pytest.mark.parametrize("second, extra", [("Beer 6♥", True), ("BANG! 5♦", True),
                                           ("Missed! 2♠", False), ("Missed! 10♣", False)])
def test_black_jack_shows_his_second_card_and_draws_again_on_red(second: str,
                                                                 extra: bool) -> None:
    t = Table([None, "black_jack", None, None],
              deck=["BANG! A♠", second, "Barrel Q♠"], turn=1, start="start")
    assert t.find("reveal", t.events)[0].card is not None
    expected = ["BANG! A♠", second] + (["Barrel Q♠"] if extra else [])
    assert t.hand(1) == expected


def test_calamity_janet_plays_missed_as_bang_and_it_counts_as_her_bang() -> None:
    t = Table([None, "calamity_janet", None, None], hands={1: ["Missed! 2♠", "BANG! A♠"]},
              turn=1)
    assert t.targets(1, "Missed! 2♠", kind="play_as_bang") == {0, 2}
    t.act(1, "play_as_bang", card="Missed! 2♠", target=2)
    t.act(2, "take_hit")
    assert t.life(2) == 3
    assert not t.can(1, "play", card="BANG! A♠")


def test_calamity_janet_with_volcanic_plays_missed_as_bang_repeatedly() -> None:
    t = Table([None, "calamity_janet", None, None], hands={1: ["Missed! 2♠", "BANG! A♠"]},
              in_play={1: ["Volcanic"]}, turn=1)
    t.act(1, "play_as_bang", card="Missed! 2♠", target=2)
    t.act(2, "take_hit")
    assert t.can(1, "play", card="BANG! A♠", target=2)


def test_calamity_janet_answers_with_bang_as_missed_in_duel_and_indians() -> None:
    t = Table([None, "calamity_janet", None, None],
              hands={0: ["BANG! A♠", "Duel J♠", "Indians! K♦"],
                     1: ["BANG! Q♥", "Missed! 2♠", "Missed! 3♠"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "missed", card="BANG! Q♥")  # a BANG! as a Missed!
    assert t.life(1) == 4
    t.play(0, "Duel J♠", target=1)
    assert t.can(1, "discard_bang", card="Missed!")  # a Missed! as a BANG! in the Duel
    t.act(1, "discard_bang", card="Missed! 2♠")
    t.act(0, "take_hit")
    t.play(0, "Indians! K♦")
    t.act(1, "discard_bang", card="Missed! 3♠")
    assert t.life(1) == 4


def test_el_gringo_draws_from_the_hand_of_whoever_hurt_him() -> None:
    t = Table([None, "el_gringo", None, None], hands={0: ["BANG! A♠", "Beer 6♥"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.life(1) == 2 and t.hand(1) == ["Beer 6♥"] and t.hand(0) == []


def test_el_gringo_draws_one_card_per_life_point_and_nothing_from_an_empty_hand() -> None:
    t = Table([None, "el_gringo", None, None], hands={0: ["BANG! A♠"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.life(1) == 2 and t.hand(1) == []


def test_el_gringo_draws_nothing_for_dynamite() -> None:
    t = Table(["el_gringo", None, None, None], hands={3: ["Beer 6♥"]},
              in_play={0: ["Dynamite"]}, deck=["Missed! 2♠"], start="start")
    assert t.life(0) == 1
    assert t.hand(3) == ["Beer 6♥"]


def test_jesse_jones_may_draw_his_first_card_from_a_hand() -> None:
    t = Table([None, "jesse_jones", None, None], hands={3: ["Barrel Q♠"]},
              deck=["BANG! A♠", "Beer 6♥"], turn=1, start="start")
    assert t.waiting() == (1, "draw_source")
    assert t.can(1, "draw_player", target=3) and not t.can(1, "draw_player", target=2)
    t.act(1, "draw_player", target=3)
    assert t.hand(1) == ["Barrel Q♠", "BANG! A♠"] and t.hand(3) == []


def test_jourdonnais_has_a_barrel_and_a_real_one_gives_a_second_draw() -> None:
    t = Table([None, "jourdonnais", None, None], hands={0: ["BANG! A♠"]},
              deck=["Beer 6♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert t.life(1) == 4 and "barrel_saves" in t.kinds()
    t = Table([None, "jourdonnais", None, None], hands={0: ["BANG! A♠"]},
              in_play={1: ["Barrel"]}, deck=["BANG! 5♦", "Beer 6♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert "barrel_fails" in t.kinds() and t.can(1, "barrel")
    t.act(1, "barrel")
    assert "barrel_saves" in t.kinds() and t.life(1) == 4
    t = Table([None, "jourdonnais", None, None], hands={0: ["BANG! A♠"]},
              deck=["BANG! 5♦", "BANG! 6♦"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert not t.can(1, "barrel")  # without a real Barrel: one "draw!" only


def test_kit_carlson_keeps_two_of_three_and_puts_the_third_back_on_top() -> None:
    t = Table([None, "kit_carlson", None, None],
              deck=["BANG! A♠", "Beer 6♥", "Missed! 2♠"], turn=1, start="start")
    assert t.waiting() == (1, "kit_put_back") and len(t.pending.private) == 3
    t.act(1, "put_back", pick="Beer 6♥")
    assert t.hand(1) == ["BANG! A♠", "Missed! 2♠"]
    assert t.deck_top() == ["Beer 6♥"]


def test_lucky_duke_flips_two_and_chooses_for_dynamite() -> None:
    t = Table([None, "lucky_duke", None, None], in_play={1: ["Dynamite"]},
              deck=["Missed! 2♠", "Beer 6♥"], turn=1, start="start")
    assert t.waiting() == (1, "lucky_pick") and len(t.pending.shown) == 2
    t.act(1, "pick", pick="Beer 6♥")
    assert t.life(1) == 4 and t.in_play(2) == ["Dynamite 2♥"]
    assert {"Missed! 2♠", "Beer 6♥"} <= set(t.discard())  # both flipped cards are discarded


def test_lucky_duke_chooses_for_barrel_and_jail() -> None:
    t = Table([None, "lucky_duke", None, None], hands={0: ["BANG! A♠"]},
              in_play={1: ["Barrel"]}, deck=["Beer 6♥", "BANG! 5♦"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    t.act(1, "pick", pick="BANG! 5♦")  # he may even choose the bad one
    assert "barrel_fails" in t.kinds()
    t.act(1, "take_hit")
    assert t.life(1) == 3
    t = Table([None, "lucky_duke", None, None], in_play={1: ["Jail 10♠"]},
              deck=["Panic! 8♦", "Beer 6♥"], turn=1, start="start")
    t.act(1, "pick", pick="Beer 6♥")
    assert "jail_escape" in t.kinds()


def test_paul_regret_is_seen_one_further_and_two_with_a_mustang() -> None:
    t = Table([None, "paul_regret", None, None], hands={0: ["BANG! A♠"]})
    assert t.targets(0, "BANG!") == {3}
    t = Table([None, "paul_regret", None, None], hands={0: ["BANG! A♠"]},
              in_play={0: ["Schofield K♠"], 1: ["Mustang"]})
    assert t.targets(0, "BANG!") == {2, 3}  # Paul at 1 + 1 + 1 = 3


def test_pedro_ramirez_may_draw_his_first_card_from_the_discard_pile() -> None:
    t = Table([None, "pedro_ramirez", None, None], discard=["Beer 6♥"], deck=["BANG! A♠"],
              turn=1, start="start")
    assert t.waiting() == (1, "draw_source") and t.option_kinds() == {"draw_deck",
                                                                       "draw_discard"}
    t.act(1, "draw_discard")
    assert t.hand(1) == ["Beer 6♥", "BANG! A♠"] and t.state.discard == []


def test_rose_doolan_sees_one_closer_and_two_with_a_scope() -> None:
    t = Table(["rose_doolan", None, None, None, None, None, None], hands={0: ["BANG! A♠"]})
    assert t.targets(0, "BANG!") == {1, 2, 5, 6}
    t = Table(["rose_doolan", None, None, None, None, None, None], hands={0: ["BANG! A♠"]},
              in_play={0: ["Scope"]})
    assert t.targets(0, "BANG!") == {1, 2, 3, 4, 5, 6}


def test_sid_ketchum_discards_two_cards_for_a_life_point_repeatedly() -> None:
    t = Table([None, "sid_ketchum", None, None], life={1: 2}, turn=1,
              hands={1: ["BANG! A♠", "Beer 6♥", "Missed! 2♠", "Missed! 3♠", "Barrel Q♠"]})
    t.act(1, "sid", cards=["BANG! A♠", "Missed! 2♠"])
    t.act(1, "sid", cards=["Missed! 3♠", "Barrel Q♠"])
    assert t.life(1) == 4 and t.hand(1) == ["Beer 6♥"]
    assert "sid" not in t.option_kinds()


def test_sid_ketchum_never_above_his_maximum() -> None:
    t = Table([None, "sid_ketchum", None, None], turn=1, hands={1: ["BANG! A♠", "Beer 6♥"]})
    assert "sid" not in t.option_kinds()
    assert "Sid Ketchum" in t.refuse(1, "sid", cards=["BANG! A♠", "Beer 6♥"])


def test_sid_ketchum_survives_a_fatal_hit_out_of_turn() -> None:
    t = Table([None, "sid_ketchum", None, None], life={1: 1},
              hands={0: ["BANG! A♠"], 1: ["Panic! J♥", "Duel J♠"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.waiting() == (1, "dying") and t.can(1, "sid")
    t.act(1, "sid", cards=["Panic! J♥", "Duel J♠"])
    assert t.alive(1) and t.life(1) == 1 and t.waiting() == (0, "play")


def test_slab_the_killer_needs_two_missed_and_a_barrel_counts_as_one() -> None:
    t = Table(["slab_the_killer", None, None, None], hands={0: ["BANG! A♠"],
                                                           1: ["Missed! 2♠", "Missed! 3♠"]})
    t.play(0, "BANG! A♠", target=1)
    assert t.pending.needed == 2
    t.act(1, "missed", card="Missed! 2♠")
    assert t.waiting() == (1, "respond_shot") and t.pending.needed == 1
    t.act(1, "missed", card="Missed! 3♠")
    assert t.life(1) == 4
    t = Table(["slab_the_killer", None, None, None], hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]},
              in_play={1: ["Barrel"]}, deck=["Beer 6♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert "barrel_saves" in t.kinds() and t.pending.needed == 1
    t.act(1, "missed", card="Missed! 2♠")
    assert t.life(1) == 4 and t.waiting() == (0, "play")


def test_slab_the_killer_one_missed_is_not_enough() -> None:
    t = Table(["slab_the_killer", None, None, None], hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "missed", card="Missed! 2♠")
    assert t.option_kinds() == {"take_hit"}
    t.act(1, "take_hit")
    assert t.life(1) == 3


def test_slab_the_killer_gatling_is_cancelled_by_one_missed() -> None:
    t = Table(["slab_the_killer", None, None, None], hands={0: ["Gatling"], 1: ["Missed! 2♠"]})
    t.play(0, "Gatling")
    assert t.pending.needed == 1
    t.act(1, "missed", card="Missed! 2♠")
    assert t.waiting() == (2, "respond_shot") and t.life(1) == 4


def test_suzy_lafayette_draws_when_her_hand_empties_on_her_turn() -> None:
    t = Table([None, "suzy_lafayette", None, None], hands={1: ["Stagecoach"]}, turn=1,
              deck=["Beer 6♥", "Beer 7♥"])
    t.play(1, "Stagecoach")
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥"]
    t = Table([None, "suzy_lafayette", None, None], hands={1: ["Beer 6♥"]}, life={1: 3},
              turn=1, deck=["Missed! 2♠"])
    t.play(1, "Beer 6♥")
    assert t.hand(1) == ["Missed! 2♠"]


def test_suzy_lafayette_draws_in_the_middle_of_a_gatling() -> None:
    t = Table([None, "suzy_lafayette", None, None], hands={0: ["Gatling"], 1: ["Missed! 2♠"]},
              deck=["Beer 6♥"])
    t.play(0, "Gatling")
    t.act(1, "missed", card="Missed! 2♠")
    assert t.waiting() == (2, "respond_shot")  # the Gatling is not over yet...
    assert t.hand(1) == ["Beer 6♥"]  # ...and she has drawn already


def test_vulture_sam_takes_the_cards_of_the_eliminated() -> None:
    t = Table([None, None, None, "vulture_sam"], life={2: 1}, turn=1,
              hands={1: ["BANG! A♠"], 2: ["Beer 6♥", "Missed! 2♠"]},
              in_play={1: ["Schofield K♠"], 2: ["Barrel Q♠", "Mustang 8♥"]})
    t.play(1, "BANG! A♠", target=2)
    t.act(2, "take_hit")
    t.act(2, "die")
    assert sorted(t.hand(3)) == sorted(["Beer 6♥", "Missed! 2♠", "Barrel Q♠", "Mustang 8♥"])
    assert "Beer 6♥" not in t.discard()


def test_willy_the_kid_plays_any_number_of_bangs() -> None:
    t = Table([None, "willy_the_kid", None, None], hands={1: ["BANG! A♠", "BANG! Q♥"]},
              turn=1)
    t.play(1, "BANG! A♠", target=0)
    t.act(0, "take_hit")
    t.play(1, "BANG! Q♥", target=2)
    t.act(2, "take_hit")
    assert (t.life(0), t.life(2)) == (4, 3)


# --- the 10 Most Wanted and anniversary characters ---------------------------------------------


def test_apache_kid_ignores_diamond_cards_of_others() -> None:
    t = Table([None, "apache_kid", None, None],
              hands={0: ["BANG! 5♦", "BANG! A♠", "Panic! 8♦", "Panic! J♥", "Indians! K♦"],
                     1: ["Beer 6♥"]})
    assert t.targets(0, "BANG! 5♦") == {3}
    assert t.targets(0, "BANG! A♠") == {1, 3}
    assert t.targets(0, "Panic! 8♦") == set() and t.targets(0, "Panic! J♥") == {1}
    assert "Diamond" in t.refuse(0, "play", card="BANG! 5♦", target=1)
    t.play(0, "Indians! K♦")
    assert [e.seat for e in t.events if e.kind == "hit"] == []
    assert t.waiting() == (2, "respond_indians")  # seat 1 is skipped


def test_apache_kid_is_not_immune_in_a_duel() -> None:
    t = Table([None, "apache_kid", None, None], hands={0: ["Duel Q♦"], 1: ["BANG! 5♦"]})
    assert t.targets(0, "Duel Q♦") == {1, 2, 3}
    t.play(0, "Duel Q♦", target=1)
    t.act(1, "discard_bang", card="BANG! 5♦")
    t.act(0, "take_hit")
    assert t.life(0) == 4


def test_apache_kid_uses_his_own_diamonds() -> None:
    t = Table([None, "apache_kid", None, None], hands={1: ["Beer 6♥", "BANG! 5♦"]}, turn=1,
              life={1: 2})
    assert t.targets(1, "BANG! 5♦") == {0, 2}


def test_chuck_wengam_trades_a_life_point_for_two_cards_but_never_his_last() -> None:
    t = Table([None, "chuck_wengam", None, None], life={1: 2}, turn=1,
              deck=["Beer 6♥", "Beer 7♥"])
    t.act(1, "chuck")
    assert t.life(1) == 1 and t.hand(1) == ["Beer 6♥", "Beer 7♥"]
    assert "chuck" not in t.option_kinds()
    assert "last life point" in t.refuse(1, "chuck")


def test_jose_delgado_discards_a_blue_card_for_two_cards_twice_per_turn() -> None:
    t = Table([None, "jose_delgado", None, None], turn=1,
              hands={1: ["Barrel Q♠", "Mustang 8♥", "Scope", "BANG! A♠"]},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥", "Beer 9♥"])
    assert not t.can(1, "jose", card="BANG! A♠")
    t.act(1, "jose", card="Barrel Q♠")
    t.act(1, "jose", card="Mustang 8♥")
    assert t.hand(1) == ["Scope A♠", "BANG! A♠", "Beer 6♥", "Beer 7♥", "Beer 8♥", "Beer 9♥"]
    assert "jose" not in t.option_kinds()
    assert "twice" in t.refuse(1, "jose", card="Scope")


def test_pixie_pete_draws_three() -> None:
    t = Table([None, "pixie_pete", None, None], deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"],
              turn=1, start="start")
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]


def test_big_spencer_starts_with_five_cards_and_nine_life_points() -> None:
    for seed in range(5):
        chars = ["big_spencer", "bart_cassidy", "el_gringo", "pixie_pete"]
        state = new_game(Setup(players=4, seed=seed, characters=chars))
        spencer = state.players[0]
        sheriff = spencer.role == "sheriff"
        assert spencer.max_life == 9 + sheriff
        drawn = 2 if state.turn == 0 else 0
        assert len(spencer.hand) == 5 + drawn


def test_big_spencer_cannot_play_missed() -> None:
    t = Table([None, "big_spencer", None, None], hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]},
              in_play={1: ["Barrel"]})
    t.play(0, "BANG! A♠", target=1)
    assert t.option_kinds() == {"barrel", "take_hit"}
    assert t.refuse(1, "missed", card="Missed! 2♠")


def test_youl_grinner_gets_a_card_from_everyone_with_more() -> None:
    t = Table([None, "youl_grinner", None, None], turn=1, start="start",
              hands={0: ["Beer 6♥", "Beer 7♥"], 1: ["Missed! 2♠"],
                     2: ["BANG! A♠", "BANG! Q♥", "BANG! K♥"], 3: ["Barrel Q♠"]},
              deck=["Panic! J♥", "Panic! Q♥"])
    assert t.waiting() == (2, "youl_give")
    t.act(2, "give", card="BANG! Q♥")
    assert t.waiting() == (0, "youl_give")
    t.act(0, "give", card="Beer 7♥")
    assert t.hand(1) == ["Missed! 2♠", "BANG! Q♥", "Beer 7♥", "Panic! J♥", "Panic! Q♥"]
    assert t.hand(3) == ["Barrel Q♠"]


def test_madam_yto_draws_whenever_anyone_plays_a_beer() -> None:
    t = Table([None, "madam_yto", None, None], hands={0: ["Beer 6♥"], 1: ["Beer 7♥"]},
              life={0: 4}, deck=["Missed! 2♠"])
    t.play(0, "Beer 6♥")
    assert t.hand(1) == ["Beer 7♥", "Missed! 2♠"]


def test_madam_yto_draws_for_her_own_beer_on_a_fatal_hit() -> None:
    t = Table([None, "madam_yto", None, None], hands={0: ["BANG! A♠"], 1: ["Beer 7♥"]},
              life={1: 1}, deck=["Missed! 3♠"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    t.act(1, "beer", card="Beer 7♥")
    assert t.life(1) == 1 and t.hand(1) == ["Missed! 3♠"]


@pytest.mark.parametrize("flip, avoidable", [("Missed! 2♠", False), ("Beer 6♥", True),
                                             ("Missed! 10♣", True)])
def test_colorado_bill_on_spades_cannot_be_avoided(flip: str, avoidable: bool) -> None:
    t = Table(["colorado_bill", None, None, None], hands={0: ["BANG! A♠"], 1: ["Missed! 3♠"]},
              in_play={1: ["Barrel"]}, deck=[flip])
    t.play(0, "BANG! A♠", target=1)
    assert t.find("flip")[0].purpose == "colorado_bill"
    expected = {"barrel", "missed", "take_hit"} if avoidable else {"take_hit"}
    assert t.option_kinds() == expected


def test_henry_block_shoots_whoever_takes_his_card_before_it_moves() -> None:
    t = Table([None, "henry_block", None, None], hands={0: ["Panic! J♥"], 1: ["Beer 6♥"]})
    t.play(0, "Panic! J♥", target=1)
    assert t.waiting() == (0, "respond_shot") and t.pending.source == 1
    assert t.hand(1) == ["Beer 6♥"]  # not yet taken
    t.act(0, "take_hit")
    assert t.life(0) == 4 and t.hand(0) == ["Beer 6♥"]


def test_henry_block_cat_balou_on_his_card_in_play_and_a_fatal_answer() -> None:
    t = Table([None, "henry_block", None, None], hands={3: ["Cat Balou K♥"]},
              in_play={1: ["Barrel"]}, life={3: 1}, turn=3)
    t.play(3, "Cat Balou K♥", target=1, pick="Barrel")
    t.act(3, "take_hit")
    t.act(3, "die")
    assert t.in_play(1) == ["Barrel Q♠"]  # the thief died: the card stays


def test_annie_versary_plays_any_card_as_a_bang() -> None:
    t = Table([None, "annie_versary", None, None], hands={1: ["Beer 6♥", "Barrel Q♠"]},
              turn=1)
    assert t.targets(1, "Beer", kind="play_as_bang") == {0, 2}
    t.act(1, "play_as_bang", card="Barrel Q♠", target=2)
    t.act(2, "take_hit")
    assert t.life(2) == 3 and t.discard_top() == "Barrel Q♠"
    assert not t.can(1, "play_as_bang")


def test_every_character_has_its_printed_life() -> None:
    printed = {"el_gringo": 3, "paul_regret": 3, "apache_kid": 3, "pixie_pete": 3,
               "big_spencer": 9}
    assert len(ALL_CHARACTERS) == 26
    for key in ALL_CHARACTERS:
        assert CHARACTERS[key].life == printed.get(key, 4), key


def test_sid_ketchum_names_two_copies_of_the_same_card() -> None:
    t = Table([None, "sid_ketchum", None, None], life={1: 3}, turn=1,
              hands={1: ["Missed! 2♠", "Beer 6♥", "Missed! 3♠"]})
    t.act(1, "sid", cards=["Missed!", "Missed!"])
    assert t.life(1) == 4 and t.hand(1) == ["Beer 6♥"]


def test_sid_ketchum_heals_before_he_picks_at_the_general_store() -> None:
    """Any moment: while a General Store waits for his pick, he heals and then picks."""
    shown = ["Beer 6♥", "Missed! 2♠", "BANG! Q♥", "Barrel Q♠"]
    t = Table([None, None, None, "sid_ketchum"], life={3: 2}, turn=2,
              hands={2: ["General Store"], 3: ["Panic! J♥", "Duel J♠"]}, deck=shown)
    t.play(2, "General Store")
    t.act(2, "pick", pick="Barrel Q♠")
    assert t.waiting() == (3, "store_pick") and t.can(3, "sid")
    t.act(3, "sid", cards=["Panic! J♥", "Duel J♠"])
    assert t.life(3) == 3 and t.waiting() == (3, "store_pick") and len(t.pending.shown) == 3
    t.act(3, "pick", pick="Beer 6♥")
    assert t.hand(3) == ["Beer 6♥"] and t.waiting() == (0, "store_pick")


def test_sid_ketchum_heals_with_the_card_youl_grinner_would_get() -> None:
    """Asked to give Youl Grinner a card, he may first spend two of them on a life point."""
    t = Table([None, "youl_grinner", "sid_ketchum", None], turn=1, start="start", life={2: 3},
              hands={1: ["Missed! 2♠"], 2: ["BANG! A♠", "BANG! Q♥", "BANG! K♥"]},
              deck=["Panic! J♥", "Panic! Q♥"])
    assert t.waiting() == (2, "youl_give") and t.can(2, "sid")
    t.act(2, "sid", cards=["BANG! A♠", "BANG! Q♥"])
    assert t.life(2) == 4 and t.waiting() == (2, "youl_give")
    t.act(2, "give", card="BANG! K♥")
    assert t.hand(2) == [] and "BANG! K♥" in t.hand(1)


def test_sid_ketchum_is_offered_at_every_decision_he_holds() -> None:
    """Whatever he must decide, below his maximum with two cards, his ability is an option,
    and it is refused at another player's decision."""
    t = Table([None, None, "sid_ketchum", None], life={2: 2}, turn=2,
              hands={2: ["General Store", "Missed! 2♠", "BANG! A♠"]},
              deck=["Beer 6♥", "Missed! 3♠", "BANG! Q♥", "Barrel Q♠"])
    assert t.waiting() == (2, "play") and t.can(2, "sid")
    t.play(2, "General Store")
    assert t.waiting() == (2, "store_pick") and t.can(2, "sid")
    t.act(2, "pick", pick="Barrel Q♠")
    assert t.waiting() == (3, "store_pick")
    assert "not your decision" in t.refuse(2, "sid", cards=["Missed! 2♠", "BANG! A♠"])


def test_sid_ketchum_heals_before_a_panic_takes_a_card_from_him() -> None:
    """Any moment: a Panic! aimed at him asks him first (`before_card`); he heals with two
    cards, is asked again while he still could, and the Panic! takes what is left."""
    t = Table([None, "sid_ketchum", None, None], life={1: 2},
              hands={0: ["Panic! J♥"], 1: ["BANG! A♠", "Missed! 2♠", "Beer 6♥"]})
    t.play(0, "Panic! J♥", target=1)
    assert t.waiting() == (1, "before_card") and t.option_kinds() == {"pass", "sid"}
    assert t.pending.source == 0 and t.pending.default == Action("pass")
    t.act(1, "sid", cards=["BANG! A♠", "Missed! 2♠"])
    assert t.life(1) == 3  # one card left: he could not heal again, and the Panic! takes it
    assert t.waiting() == (0, "play") and t.hand(0) == ["Beer 6♥"] and t.hand(1) == []


def test_sid_ketchum_may_let_a_cat_balou_go_on() -> None:
    t = Table([None, "sid_ketchum", None, None], life={1: 3},
              hands={0: ["Cat Balou K♥"], 1: ["BANG! A♠", "Missed! 2♠"]},
              in_play={1: ["Barrel Q♠"]})
    t.play(0, "Cat Balou K♥", target=1, pick="Barrel Q♠")
    assert t.waiting() == (1, "before_card")
    t.act(1, "pass")
    assert t.in_play(1) == [] and t.hand(1) == ["BANG! A♠", "Missed! 2♠"] and t.life(1) == 3
    assert t.waiting() == (0, "play")


def test_sid_ketchum_who_could_not_heal_is_not_asked() -> None:
    t = Table([None, "sid_ketchum", None, None],  # at his maximum
              hands={0: ["Panic! J♥"], 1: ["BANG! A♠", "Missed! 2♠"]})
    t.play(0, "Panic! J♥", target=1)
    assert t.waiting() == (0, "play") and len(t.hand(1)) == 1


def test_a_version_1_record_plays_a_panic_on_sid_without_asking_him() -> None:
    """Records written before version 2 replay by the rules they were played by."""
    record = GameRecord(
        setup=Setup(players=4, seed=1, characters=["willy_the_kid", "sid_ketchum",
                                                   "paul_regret", "pixie_pete"],
                    roles=["sheriff", "outlaw", "outlaw", "renegade"]),
        scenario=Scenario(seats=[SeatRig(hand=["Panic! J♥"]),
                                 SeatRig(hand=["BANG! A♠", "Missed! 2♠"], life=2)],
                          start="play"),
        actions=[Move(0, "play", card="Panic! J♥", target=1), Move(0, "end_turn")],
    )
    assert record.version == 1
    state = replay(record)  # the end of turn is seat 0's next move: nobody asked Sid
    assert state.version == 1 and state.turn == 1
    record.version = RECORD_VERSION
    with pytest.raises(RecordError, match="action 1"):  # version 2 asks Sid first
        replay(record)
