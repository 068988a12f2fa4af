"""The rulebook's own examples, the end of the game, rewards and penalties, the deal, the deck."""

from __future__ import annotations

from collections import Counter

import pytest
from table import Table

from shared.cards import BLUE, CARDS, KEY, WEAPON_REACH
from shared.characters import CHARACTERS
from shared.engine import new_game
from shared.roles import ROLE_DEAL
from shared.rules import distance
from shared.setup import Setup

A, B, C, D, E, F = range(6)


def dist(t: Table, seer: int, seen: int) -> int:
    return distance(t.state, seer, seen)


# --- the distance figure: six players A..F round the table ---------------------------------


def test_distance_figure() -> None:
    t = Table(6)
    assert [dist(t, A, x) for x in (B, C, D, E, F)] == [1, 2, 3, 2, 1]


def test_distance_figure_with_a_scope() -> None:
    """A with a Scope sees B and F at 1, C and E at 1, D at 2; the others still see A as before."""
    t = Table(6, in_play={A: ["Scope"]})
    assert [dist(t, A, x) for x in (B, C, D, E, F)] == [1, 1, 2, 1, 1]
    assert [dist(t, x, A) for x in (B, C, D, E, F)] == [1, 2, 3, 2, 1]


def test_distance_figure_with_a_mustang() -> None:
    """A with a Mustang is seen by B and F at 2, C and E at 3, D at 4; A sees them as before."""
    t = Table(6, in_play={A: ["Mustang"]})
    assert [dist(t, x, A) for x in (B, C, D, E, F)] == [2, 3, 4, 3, 2]
    assert [dist(t, A, x) for x in (B, C, D, E, F)] == [1, 2, 3, 2, 1]


def test_bang_example_1_andrea_shoots_carlo() -> None:
    """C is at 2: a Schofield (or better) reaches him, Volcanic and Colt .45 do not; with a
    Scope A sees C at 1; if C then has a Mustang, A sees him at 2."""
    hand = {A: ["BANG! A♠"]}
    assert C not in Table(6, hands=hand).targets(A, "BANG!")
    assert C not in Table(6, hands=hand, in_play={A: ["Volcanic"]}).targets(A, "BANG!")
    for weapon in ("Schofield", "Remington", "Rev. Carabine", "Winchester"):
        assert C in Table(6, hands=hand, in_play={A: [weapon]}).targets(A, "BANG!")
    scoped = Table(6, hands=hand, in_play={A: ["Scope"]})
    assert dist(scoped, A, C) == 1 and C in scoped.targets(A, "BANG!")
    assert dist(Table(6, in_play={A: ["Scope"], C: ["Mustang"]}), A, C) == 2


def test_bang_example_2_daniela_with_a_mustang_is_at_4() -> None:
    hand = {A: ["BANG! A♠"]}
    assert dist(Table(6, in_play={D: ["Mustang"]}), A, D) == 4
    assert D not in Table(6, hands=hand, in_play={A: ["Remington"], D: ["Mustang"]}).targets(
        A, "BANG!")
    assert D in Table(6, hands=hand, in_play={A: ["Rev. Carabine"], D: ["Mustang"]}).targets(
        A, "BANG!")


def test_the_eliminated_no_longer_count_for_distance() -> None:
    t = Table(6, hands={A: ["BANG! A♠"]}, life={B: 1})
    assert dist(t, A, C) == 2
    t.play(A, "BANG! A♠", target=B)
    t.act(B, "take_hit")
    t.act(B, "die")
    assert dist(t, A, C) == 1


# --- the end of the game -------------------------------------------------------------------

ROLES_5 = ["sheriff", "renegade", "outlaw", "outlaw", "deputy"]


def test_end_example_1_outlaws_dead_but_renegade_alive_the_game_goes_on() -> None:
    t = Table(5, roles=ROLES_5, hands={0: ["Gatling"]}, life={2: 1, 3: 1})
    t.play(0, "Gatling")
    for seat in (1, 2):
        t.act(seat, "take_hit")
    t.act(2, "die")
    t.act(3, "take_hit")
    t.act(3, "die")
    t.act(4, "take_hit")
    assert t.state.winner is None and t.waiting() == (0, "play")


def test_end_example_2_sheriff_dead_after_all_outlaws_the_outlaws_win() -> None:
    """The Renegade's Gatling kills both Outlaws, then his BANG! the Sheriff: a Deputy and the
    Renegade are alive, and still the Outlaws win."""
    t = Table(5, roles=ROLES_5, turn=1, hands={1: ["Gatling", "BANG! A♠"]},
              life={0: 2, 2: 1, 3: 1})
    t.play(1, "Gatling")
    t.act(2, "take_hit")
    t.act(2, "die")
    t.act(3, "take_hit")
    t.act(3, "die")
    t.act(4, "take_hit")
    t.act(0, "take_hit")
    assert t.state.winner is None
    t.play(1, "BANG! A♠", target=0)
    t.act(0, "take_hit")
    t.act(0, "die")
    assert t.state.winner == "outlaws" and sorted(t.state.winners) == [2, 3]
    assert t.alive(1) and t.alive(4) and t.pending is None


def test_renegade_wins_only_as_the_last_one_alive() -> None:
    """The Renegade's Gatling goes clockwise: both Outlaws fall before the Sheriff."""
    t = Table(4, turn=1, hands={1: ["Gatling"]}, life={0: 1, 2: 1, 3: 1})
    t.play(1, "Gatling")
    for seat in (2, 3, 0):
        t.act(seat, "take_hit")
        t.act(seat, "die")
    assert t.state.winner == "renegade" and t.state.winners == [1]


def test_several_eliminations_resolve_in_seat_order_and_the_game_ends_at_once() -> None:
    """Same table, but the Renegade sits left of the Outlaws: the Sheriff falls first and the
    game ends right there, with the Outlaws alive."""
    t = Table(4, roles=["sheriff", "outlaw", "outlaw", "renegade"], turn=3,
              hands={3: ["Gatling"]}, life={0: 1, 1: 1, 2: 1})
    t.play(3, "Gatling")
    t.act(0, "take_hit")
    t.act(0, "die")
    assert t.state.winner == "outlaws" and t.pending is None
    assert t.alive(1) and t.alive(2)


def test_sheriff_and_deputies_win_dead_deputies_too() -> None:
    """The Sheriff's Gatling kills his own Deputy first (and costs him his cards), then the rest."""
    t = Table(5, roles=["sheriff", "deputy", "outlaw", "outlaw", "renegade"],
              hands={0: ["Gatling", "Beer 6♥"]}, life={1: 1, 2: 1, 3: 1, 4: 1})
    t.play(0, "Gatling")
    for seat in (1, 2, 3, 4):
        t.act(seat, "take_hit")
        t.act(seat, "die")
        assert (t.state.winner is None) == (seat != 4)
    assert t.find("penalty", t.events)[0].count == 1 and "Beer 6♥" in t.discard()
    assert len(t.hand(0)) == 6  # then 3 cards for each Outlaw
    assert t.state.winner == "sheriff" and sorted(t.state.winners) == [0, 1]


# --- penalties and rewards -----------------------------------------------------------------


def test_sheriff_who_kills_a_deputy_discards_everything() -> None:
    t = Table(5, roles=ROLES_5, hands={0: ["BANG! A♠", "Beer 6♥", "Missed! 2♠"]},
              in_play={0: ["Barrel", "Schofield K♠"]}, life={4: 1})
    t.play(0, "BANG! A♠", target=4)
    t.act(4, "take_hit")
    t.act(4, "die")
    assert t.hand(0) == [] and t.in_play(0) == []
    assert t.find("penalty")[0].count == 4
    assert t.state.winner is None


def test_whoever_kills_an_outlaw_draws_three_even_another_outlaw() -> None:
    t = Table(4, turn=2, hands={2: ["BANG! A♠"]}, life={3: 1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"])
    t.play(2, "BANG! A♠", target=3)
    t.act(3, "take_hit")
    t.act(3, "die")
    assert t.hand(2) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]


def test_killing_the_renegade_or_a_deputy_gives_no_reward() -> None:
    t = Table(5, roles=ROLES_5, turn=2, hands={2: ["BANG! A♠", "Gatling"]}, life={1: 1, 3: 4})
    t.play(2, "BANG! A♠", target=1)
    t.act(1, "take_hit")
    t.act(1, "die")
    assert t.hand(2) == ["Gatling 10♥"]


def test_the_sheriff_has_one_more_life_point() -> None:
    for seed in range(10):
        state = new_game(Setup(players=5, seed=seed))
        for p in state.players:
            assert p.max_life == p.life == CHARACTERS[p.character].life + (p.role == "sheriff")


# --- three players -----------------------------------------------------------------------------

ROLES_3 = ["deputy", "outlaw", "renegade"]


def test_three_players_deputy_starts_and_roles_are_open() -> None:
    for seed in range(10):
        state = new_game(Setup(players=3, seed=seed))
        assert sorted(p.role for p in state.players) == sorted(ROLES_3)
        assert state.players[state.turn].role == "deputy" and state.three_player


def test_three_players_you_win_by_eliminating_your_own_target() -> None:
    t = Table(3, roles=ROLES_3, hands={0: ["BANG! A♠"]}, life={2: 1})
    t.play(0, "BANG! A♠", target=2)
    t.act(2, "take_hit")
    t.act(2, "die")
    assert t.state.winner == "3p_deputy" and t.state.winners == [0]
    assert t.alive(1)


def test_three_players_wrong_hand_then_last_one_standing() -> None:
    """The Outlaw kills the Renegade (the Deputy's target): nobody has won; the Outlaw draws 3.
    Two are left, so Beer does nothing; the Deputy then wins as the last one alive."""
    t = Table(3, roles=ROLES_3, turn=1, hands={1: ["BANG! A♠"], 0: ["Beer 6♥", "Beer 7♥"]},
              life={0: 3, 2: 1}, deck=["Beer 8♥", "Gatling", "Duel J♠"])
    t.play(1, "BANG! A♠", target=2)
    t.act(2, "take_hit")
    t.act(2, "die")
    assert t.state.winner is None
    assert t.hand(1) == ["Beer 8♥", "Gatling 10♥", "Duel J♠"]
    t.play(1, "Duel J♠", target=0)
    t.act(0, "take_hit")
    t.play(1, "Beer 8♥")
    assert t.life(1) == 4 and t.find("heal") == []  # Outlaw at full life anyway
    t.act(1, "end_turn")
    t.play(0, "Beer 6♥")
    assert t.life(0) == 2  # no effect with two players left
    t.act(0, "end_turn")
    t2 = Table(3, roles=ROLES_3, turn=1, hands={1: ["BANG! A♠", "Gatling"], 0: ["Beer 6♥"]},
               life={0: 1, 2: 1}, deck=["Beer 8♥", "Beer 9♥", "Beer 10♥"])
    t2.play(1, "BANG! A♠", target=2)
    t2.act(2, "take_hit")
    t2.act(2, "die")
    t2.play(1, "Gatling")
    t2.act(0, "take_hit")
    assert t2.option_kinds() == {"die"}  # a Beer cannot save a life with two players left
    t2.act(0, "die")
    assert t2.state.winner == "3p_outlaw" and t2.state.winners == [1]


def test_three_players_any_elimination_draws_three() -> None:
    t = Table(3, roles=ROLES_3, hands={0: ["BANG! A♠"]}, life={1: 1},
              deck=["Beer 6♥", "Beer 7♥", "Beer 8♥"])
    t.play(0, "BANG! A♠", target=1)  # the Deputy kills the Outlaw, not his target
    t.act(1, "take_hit")
    t.act(1, "die")
    assert t.state.winner is None and t.hand(0) == ["Beer 6♥", "Beer 7♥", "Beer 8♥"]


# --- the deal and the deck ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_role_deal_per_player_count(players: int) -> None:
    expected = {3: "deputy outlaw renegade", 4: "outlaw outlaw renegade sheriff",
                5: "deputy outlaw outlaw renegade sheriff",
                6: "deputy outlaw outlaw outlaw renegade sheriff",
                7: "deputy deputy outlaw outlaw outlaw renegade sheriff"}[players]
    seats_of_sheriff = set()
    for seed in range(12):
        state = new_game(Setup(players=players, seed=seed))
        assert " ".join(sorted(p.role for p in state.players)) == expected
        assert sorted(ROLE_DEAL[players]) == expected.split()
        if players > 3:
            sheriff = next(p.seat for p in state.players if p.role == "sheriff")
            seats_of_sheriff.add(sheriff)
            assert state.turn == sheriff  # the Sheriff starts
        for p in state.players:  # whoever has not drawn yet holds the starting hand
            if p.seat != state.turn:
                assert len(p.hand) == (5 if p.character == "big_spencer" else p.life)
    assert players == 3 or len(seats_of_sheriff) > 1  # roles are shuffled


def test_character_pools() -> None:
    base = {"bart_cassidy", "black_jack", "calamity_janet", "el_gringo", "jesse_jones",
            "jourdonnais", "kit_carlson", "lucky_duke", "paul_regret", "pedro_ramirez",
            "rose_doolan", "sid_ketchum", "slab_the_killer", "suzy_lafayette", "vulture_sam",
            "willy_the_kid"}
    seen = set()
    for seed in range(40):
        state = new_game(Setup(players=7, seed=seed, pool="base"))
        chars = {p.character for p in state.players}
        assert chars <= base and len(chars) == 7
        seen |= {p.character for p in new_game(Setup(players=7, seed=seed)).players}
    assert seen - base  # the full pool deals the 10 newer characters too


DECK = {  # the printed deck, restated: every copy's rank and suit
    "bang": "A♠ Q♥ K♥ A♥ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣",
    "missed": "2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 10♣ J♣ Q♣ K♣ A♣", "beer": "6♥ 7♥ 8♥ 9♥ 10♥ J♥",
    "saloon": "5♥", "stagecoach": "9♠ 9♠", "wells_fargo": "3♥", "general_store": "Q♠ 9♣",
    "panic": "J♥ Q♥ A♥ 8♦", "cat_balou": "K♥ 9♦ 10♦ J♦", "duel": "J♠ Q♦ 8♣", "gatling": "10♥",
    "indians": "K♦ A♦", "barrel": "Q♠ K♠", "dynamite": "2♥", "jail": "10♠ J♠ 4♥",
    "mustang": "8♥ 9♥", "scope": "A♠", "volcanic": "10♠ 10♣", "schofield": "K♠ J♣ Q♣",
    "remington": "K♣", "carabine": "A♣", "winchester": "8♠",
}


def test_the_80_card_deck() -> None:
    symbol = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
    got = Counter((c.key, c.rank + symbol[c.suit]) for c in CARDS)
    want = Counter((key, token) for key, spec in DECK.items() for token in spec.split())
    assert got == want and len(CARDS) == 80 and len(DECK) == 22
    assert Counter(c.suit for c in CARDS) == {s: 20 for s in symbol}
    ranks = Counter((c.rank, c.suit) for c in CARDS)
    for (rank, _suit), n in ranks.items():
        assert n == (1 if rank in "234567" else 2)
    assert sum(KEY[c.id] in BLUE for c in CARDS) == 17
    assert sum(KEY[c.id] in WEAPON_REACH for c in CARDS) == 8
    assert [c.id for c in CARDS] == list(range(80))


def test_a_new_game_deals_all_80_cards_once() -> None:
    state = new_game(Setup(players=7, seed=3))
    every = state.deck + state.discard + [c for p in state.players for c in p.hand + p.in_play]
    assert sorted(every) == list(range(80))


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    t = Table(4, hands={0: ["Stagecoach"]}, deck=["Beer 6♥"], only_deck=True)
    pile = len(t.state.discard)
    assert len(t.state.deck) == 1 and pile == 80 - 2
    t.play(0, "Stagecoach")
    reshuffle = t.find("reshuffle")
    assert reshuffle and reshuffle[0].count == pile + 1  # the Stagecoach went to the pile first
    assert len(t.hand(0)) == 2 and t.hand(0)[0] == "Beer 6♥"
    assert t.state.discard == [] and len(t.state.deck) == pile


def test_a_draw_check_reshuffles_too() -> None:
    t = Table(4, in_play={1: ["Jail 10♠"]}, only_deck=True, turn=1, start="start")
    assert t.find("reshuffle", t.events) and t.find("flip", t.events)
