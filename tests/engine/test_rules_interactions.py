"""Abilities and cards meeting each other: the cases where the order of resolution matters."""

from __future__ import annotations

from table import Table


def test_jesse_jones_drawing_from_henry_block_is_shot_first() -> None:
    t = Table([None, "jesse_jones", "henry_block", None], hands={2: ["Beer 6♥"]},
              deck=["Missed! 2♠"], turn=1, start="start")
    t.act(1, "draw_player", target=2)
    assert t.waiting() == (1, "respond_shot") and t.pending.source == 2
    assert t.hand(2) == ["Beer 6♥"]
    t.act(1, "take_hit")
    assert t.life(1) == 3 and t.hand(1) == ["Beer 6♥", "Missed! 2♠"]


def test_jesse_jones_killed_by_henry_block_ends_his_turn() -> None:
    t = Table([None, "jesse_jones", "henry_block", None], hands={2: ["Beer 6♥"]},
              life={1: 1}, turn=1, start="start")
    t.act(1, "draw_player", target=2)
    t.act(1, "take_hit")
    t.act(1, "die")
    assert not t.alive(1) and t.state.turn == 2
    assert t.hand(2)[0] == "Beer 6♥"  # the dead man took nothing; Henry's turn began


def test_el_gringo_drawing_from_henry_block_is_shot_first() -> None:
    t = Table([None, "henry_block", "el_gringo", None], hands={1: ["BANG! A♠", "Beer 6♥"]},
              in_play={1: ["Schofield K♠"]}, turn=1)
    t.play(1, "BANG! A♠", target=2)
    t.act(2, "take_hit")
    assert t.waiting() == (2, "respond_shot") and t.pending.source == 1 and t.pending.card is None
    t.act(2, "take_hit")
    assert t.life(2) == 1 and t.hand(2) == ["Beer 6♥"]  # the automatic BANG! is nobody's card


def test_el_gringo_draws_from_the_player_of_gatling_indians_and_duel() -> None:
    for card, answer in (("Gatling", "take_hit"), ("Indians! A♦", "take_hit"),
                         ("Duel J♠", "take_hit")):
        t = Table([None, "el_gringo", None, None], hands={0: [card, "Beer 6♥"]})
        t.play(0, card, target=1 if card.startswith("Duel") else None)
        t.act(1, answer)
        assert t.hand(1) == ["Beer 6♥"], card


def test_bart_cassidy_may_drink_the_beer_he_draws_on_a_fatal_hit() -> None:
    t = Table([None, "bart_cassidy", None, None], hands={0: ["BANG! A♠"]}, life={1: 1},
              deck=["Beer 6♥"])
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    assert t.waiting() == (1, "dying") and t.can(1, "beer", card="Beer 6♥")
    t.act(1, "beer", card="Beer 6♥")
    assert t.alive(1) and t.life(1) == 1


def test_suzy_lafayette_draws_during_a_duel_and_fights_on() -> None:
    t = Table([None, "suzy_lafayette", None, None], hands={0: ["Duel J♠", "BANG! A♠"],
                                                          1: ["BANG! Q♥"]},
              deck=["BANG! K♥"])
    t.play(0, "Duel J♠", target=1)
    t.act(1, "discard_bang", card="BANG! Q♥")
    assert t.hand(1) == ["BANG! K♥"]
    t.act(0, "discard_bang", card="BANG! A♠")
    t.act(1, "discard_bang", card="BANG! K♥")
    t.act(0, "take_hit")
    assert t.life(0) == 4


def test_vulture_sam_and_the_sheriffs_penalty() -> None:
    """Vulture Sam takes the dead Deputy's cards; the Sheriff's penalty goes to the discard."""
    t = Table([None, None, None, None, "vulture_sam"],
              roles=["sheriff", "deputy", "outlaw", "renegade", "outlaw"],
              hands={0: ["BANG! A♠", "Beer 6♥"], 1: ["Missed! 2♠"]}, in_play={1: ["Barrel"]},
              life={1: 1})
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    t.act(1, "die")
    assert sorted(t.hand(4)) == ["Barrel Q♠", "Missed! 2♠"]
    assert t.hand(0) == [] and t.discard()[-1] == "Beer 6♥"


def test_an_outlaw_killing_an_outlaw_with_gatling_is_paid_mid_gatling() -> None:
    t = Table(5, roles=["sheriff", "outlaw", "outlaw", "renegade", "deputy"], turn=1,
              hands={1: ["Gatling"], 3: ["Missed! 2♠"]}, life={2: 1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"])
    t.play(1, "Gatling")
    t.act(2, "take_hit")
    t.act(2, "die")
    assert t.hand(1) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]
    assert t.waiting() == (3, "respond_shot")


def test_madam_yto_draws_for_a_beer_even_when_it_has_no_effect() -> None:
    t = Table(3, roles=["deputy", "outlaw", "renegade"], hands={0: ["BANG! A♠", "Beer 6♥"]},
              life={0: 3, 1: 1}, deck=["Beer 7♥", "Beer 8♥", "Beer 9♥", "Missed! 2♠"])
    t2 = Table(["madam_yto", None, None], roles=["deputy", "outlaw", "renegade"],
               hands={0: ["BANG! A♠", "Beer 6♥"]}, life={0: 3, 1: 1},
               deck=["Beer 7♥", "Beer 8♥", "Beer 9♥", "Missed! 2♠"])
    for table in (t, t2):
        table.play(0, "BANG! A♠", target=1)
        table.act(1, "take_hit")
        table.act(1, "die")
        table.play(0, "Beer 6♥")
        assert table.life(0) == 3
    assert len(t2.hand(0)) == len(t.hand(0)) + 1 and t2.hand(0)[-1] == "Missed! 2♠"


def test_panic_on_a_dynamite_and_playing_it() -> None:
    t = Table(4, hands={0: ["Panic! J♥"], 1: ["Beer 6♥"]}, in_play={1: ["Dynamite"]})
    t.play(0, "Panic! J♥", target=1, pick="Dynamite")
    assert t.hand(0) == ["Dynamite 2♥"]
    t.play(0, "Dynamite")
    assert t.in_play(0) == ["Dynamite 2♥"]


def test_lucky_duke_in_jail_with_dynamite_chooses_twice() -> None:
    t = Table([None, "lucky_duke", None, None], in_play={1: ["Dynamite", "Jail 10♠"]},
              deck=["Missed! 2♠", "Volcanic 10♠", "Beer 6♥", "Panic! 8♦"], turn=1,
              start="start")
    assert t.pending.kind == "lucky_pick"
    t.act(1, "pick", pick="Volcanic 10♠")
    assert t.in_play(2) == ["Dynamite 2♥"] and t.pending.kind == "lucky_pick"
    t.act(1, "pick", pick="Beer 6♥")
    assert t.waiting() == (1, "play") and t.in_play(1) == []


def test_lucky_duke_keeps_his_first_flip_out_of_a_reshuffle() -> None:
    """The deck holds one card: the second flip reshuffles the discard pile, which must not
    take back the first flipped card."""
    t = Table([None, "lucky_duke", None, None], hands={0: ["BANG! A♠"]},
              in_play={1: ["Barrel"]}, deck=["Beer 6♥"], only_deck=True)
    t.play(0, "BANG! A♠", target=1)
    t.act(1, "barrel")
    assert t.find("reshuffle")
    shown = t.pending.shown
    assert len(set(shown)) == 2 and t.can(1, "pick", pick="Beer 6♥")
    assert not set(shown) & set(t.state.deck)
    t.act(1, "pick", pick="Beer 6♥")
    assert set(shown) <= set(t.state.discard) and t.life(1) == 4


def test_the_duel_player_caused_the_damage_so_the_challenged_earns_no_bounty() -> None:
    """Whoever played the Duel caused its damage, even when he loses it himself."""
    t = Table(4, turn=2, hands={2: ["Duel J♠"], 3: ["BANG! A♠"]}, life={2: 1})
    t.play(2, "Duel J♠", target=3)
    t.act(3, "discard_bang", card="BANG! A♠")
    t.act(2, "take_hit")
    t.act(2, "die")
    assert t.find("eliminated")[0].target == 2
    assert not [e for e in t.last if e.source == "reward"]  # none for the Outlaw who won


def test_the_duel_player_earns_the_bounty_when_the_challenged_falls() -> None:
    t = Table(4, turn=2, hands={2: ["Duel J♠"]}, life={3: 1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"])
    t.play(2, "Duel J♠", target=3)
    t.act(3, "take_hit")
    t.act(3, "die")
    assert t.hand(2) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]


def test_three_players_losing_your_own_duel_is_nobody_elses_personal_kill() -> None:
    t = Table(3, roles=["deputy", "outlaw", "renegade"], hands={0: ["Duel J♠"],
                                                                1: ["BANG! A♠"]},
              life={0: 1})
    t.play(0, "Duel J♠", target=1)  # the Deputy challenges the Outlaw, whose target he is
    t.act(1, "discard_bang", card="BANG! A♠")
    t.act(0, "take_hit")
    t.act(0, "die")
    assert t.state.winner is None and t.state.last_alive_goal
