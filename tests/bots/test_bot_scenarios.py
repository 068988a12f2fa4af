"""Small rigged tables where one choice is obviously right."""

from __future__ import annotations

import pytest
from rig import BotTable, card_id

from shared.bots import EasyBot, NormalBot
from shared.cards import KEY
from shared.model import Action
from shared.roles import DEPUTY, OUTLAW, RENEGADE, SHERIFF
from shared.views import view

FOUR = [SHERIFF, OUTLAW, OUTLAW, RENEGADE]
FIVE = [SHERIFF, DEPUTY, OUTLAW, OUTLAW, RENEGADE]
SEEDS = range(5)
HOSTILE = ("bang", "duel", "cat_balou", "panic", "jail")


@pytest.mark.parametrize("bot_kind", [NormalBot, EasyBot])
@pytest.mark.parametrize("seed", SEEDS)
def test_plays_missed_against_a_bang_at_one_life(bot_kind, seed):
    bot = bot_kind(seed)
    table = BotTable(FOUR, bots={1: bot}, turn=0, seed=seed,
                     hands={0: ["BANG! A♠"], 1: ["Missed! 2♠", "BANG! 2♦", "Panic! J♥"]},
                     life={1: 1})
    table.act(0, Action("play", card=card_id("BANG! A♠"), target=1))
    assert (table.pending.seat, table.pending.kind) == (1, "respond_shot")
    assert bot.choose(view(table.state, 1)) == Action("missed", card=card_id("Missed! 2♠"))


@pytest.mark.parametrize("seed", SEEDS)
def test_draws_barrel_first_then_missed(seed):
    bot = NormalBot(seed)
    table = BotTable(FOUR, bots={1: bot}, turn=0, seed=seed, deck=["BANG! 3♦"],
                     hands={0: ["BANG! A♠"], 1: ["Missed! 2♠"]}, in_play={1: ["barrel"]},
                     life={1: 1})
    table.act(0, Action("play", card=card_id("BANG! A♠"), target=1))
    assert table.step() == Action("barrel")
    assert table.step() == Action("missed", card=card_id("Missed! 2♠"))
    assert table.state.players[1].life == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_drinks_beer_at_one_life_before_passing(seed):
    bot = NormalBot(seed)
    table = BotTable(FOUR, bots={1: bot}, turn=1, seed=seed,
                     hands={1: ["Beer 6♥", "Missed! 2♠", "Missed! 3♠"]}, life={1: 1})
    chosen = table.bot_turn_actions(1)
    kinds = [KEY[a.card] if a.kind == "play" else a.kind for a in chosen]
    assert "beer" in kinds
    assert kinds.index("beer") < kinds.index("end_turn")
    assert table.state.players[1].life == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_beer_saves_a_fatal_hit(seed):
    bot = NormalBot(seed)
    table = BotTable(FOUR, bots={1: bot}, turn=0, seed=seed,
                     hands={0: ["Duel J♠"], 1: ["Beer 6♥"]}, life={1: 1})
    table.act(0, Action("play", card=card_id("Duel J♠"), target=1))
    table.run_until(lambda t: t.pending.seat == 0)
    assert table.state.players[1].alive
    assert table.state.players[1].life == 1


@pytest.mark.parametrize("bot_kind", [NormalBot, EasyBot])
@pytest.mark.parametrize("seed", SEEDS)
def test_deputy_never_attacks_the_sheriff(bot_kind, seed):
    # The Sheriff is the only player in reach: seat 2 hides behind a Mustang, 3 and 4 are far.
    bot = bot_kind(seed)
    table = BotTable(
        FIVE, bots={1: bot}, turn=1, seed=seed,
        hands={1: ["BANG! A♠", "BANG! 2♦", "Duel J♠", "Cat Balou K♥", "Panic! J♥"],
               0: ["Missed! 2♠", "Beer 6♥"]},
        in_play={2: ["mustang"]}, life={0: 2},
    )
    chosen = table.bot_turn_actions(1)
    attacks = [a for a in chosen if a.target == 0 and a.kind in ("play", "play_as_bang")
               and KEY[a.card] in HOSTILE]
    assert attacks == []
    assert table.state.players[0].life == 2


@pytest.mark.parametrize("seed", SEEDS)
def test_sheriff_shoots_the_outlaw_who_shot_him(seed):
    # Seat 2 shoots the Sheriff; two turns later the Sheriff has everybody in reach and one
    # BANG!: he aims it at seat 2, whose behaviour gave him away, although seat 2 is the
    # hardest to hit (a Barrel and Missed! cards in hand).
    sheriff = NormalBot(seed)
    table = BotTable(
        FIVE, bots={0: sheriff}, turn=2, seed=seed,
        hands={0: ["BANG! 2♦", "Missed! 2♠"], 2: ["BANG! A♠", "Missed! 7♠", "Missed! 8♠"]},
        in_play={0: ["remington"], 2: ["schofield", "barrel"]},
        deck=["Missed! 3♠", "Missed! 4♠", "Missed! 5♠", "Missed! 6♠", "Beer 6♥", "Beer 7♥"],
    )
    table.act(2, Action("play", card=card_id("BANG! A♠"), target=0))
    table.run_until(lambda t: t.pending.seat == 0 and t.pending.kind == "play")
    assert all(p.in_reach for p in view(table.state, 0).players if p.seat != 0)
    chosen = table.bot_turn_actions(0)
    shots = [a.target for a in chosen if a.kind == "play" and KEY[a.card] == "bang"]
    assert shots == [2]  # one BANG! (he drew another: either will do), at seat 2


@pytest.mark.parametrize("seed", SEEDS)
def test_outlaw_takes_the_sheriffs_barrel(seed):
    bot = NormalBot(seed)
    table = BotTable(FOUR, bots={1: bot}, turn=1, seed=seed,
                     hands={1: ["Cat Balou K♥"], 0: ["Missed! 2♠"], 2: ["Missed! 3♠"]},
                     in_play={0: ["barrel", "mustang"], 2: ["barrel"]})
    chosen = table.bot_turn_actions(1)
    assert chosen[0] == Action("play", card=card_id("Cat Balou K♥"), target=0,
                               pick=card_id("barrel Q♠"))


@pytest.mark.parametrize("seed", SEEDS)
def test_picks_a_weapon_that_reaches_the_sheriff(seed):
    # Outlaw at seat 2 of 5: the Sheriff is at distance 2. Schofield (2) reaches him.
    bot = NormalBot(seed)
    table = BotTable(FIVE, bots={2: bot}, turn=2, seed=seed,
                     hands={2: ["BANG! A♠", "schofield"], 0: ["Beer 6♥"]})
    chosen = table.bot_turn_actions(2)
    assert chosen[:2] == [Action("play", card=card_id("schofield")),
                          Action("play", card=card_id("BANG! A♠"), target=0)]
