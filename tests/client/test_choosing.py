"""One way to choose, and no slips (issue 12): the real app against the in-process engine,
with bots that play a script so a decision of a given kind comes to the player.

The rule: digits pick a card of your hand, ↑/↓ move in the choices, Enter does the
highlighted choice. Steps that cannot be taken back ask first; a lone "Take the hit" answers
itself after a visible pause; traps are warned of; a refused key or target says why."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from client_helpers import answer, highlight, table_of, until
from textual.pilot import Pilot

import client.session
from client.app import BangApp
from client.screens.confirm import ConfirmScreen
from client.screens.table import TableScreen
from client.session import LocalSession, LocalTable
from client.slips import AUTO_DELAY
from client.widgets.seat import SeatPanel
from shared.cards import CARDS
from shared.engine.refs import resolve
from shared.model import Action, Event
from shared.setup import Scenario, SeatRig, Setup
from shared.views import TableView

NAMES = ["Rosa", "Carlo", "Gina", "Tex"]
RULE = "1-9, 0: a card of your hand · ↑/↓: a choice · Enter: do it · Esc: back"
Prefer = Callable[[Action, TableView], bool]


def card(ref: str) -> int:
    return resolve(ref, range(len(CARDS)))


class Scripted:
    """A bot that takes the first option `prefer` accepts, else the decision's default."""

    def __init__(self, prefer: Prefer) -> None:
        self.prefer = prefer

    def choose(self, view: TableView) -> Action:
        chosen = next((a for a in view.options if self.prefer(a, view)), view.default)
        assert chosen is not None
        return chosen

    def observe(self, events: list[Event]) -> None:
        pass


def plays(key: str, target: int = 0) -> Prefer:
    """Play the first card `key` in hand (at `target` when it aims), then end the turn."""
    def prefer(action: Action, view: TableView) -> bool:
        if action.kind != "play" or action.card is None or CARDS[action.card].key != key:
            return False
        return action.target in (None, target) and view.bangs_played == 0
    return prefer


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Callable[[Prefer], None]:
    """Every bot of the next local table plays by `prefer`."""
    def script(prefer: Prefer) -> None:
        monkeypatch.setattr(client.session, "make_bot", lambda kind, seed: Scripted(prefer))
    return script


def app_for(scenario: Scenario, characters: list[str] | None = None,
            roles: list[str] | None = None, **table: object) -> BangApp:
    """Rosa at seat 0 of four; the bots move after `bot_delay`."""
    setup = Setup(players=4, seed=5, names=NAMES,
                  characters=characters or ["vulture_sam", "bart_cassidy", "pixie_pete",
                                            "willy_the_kid"],
                  roles=roles or ["sheriff", "outlaw", "renegade", "outlaw"])
    options = {"seat": 0, "bot_delay": 0.05, "scenario": scenario, **table}
    return BangApp(LocalSession(LocalTable(setup=setup, **options)))  # type: ignore[arg-type]


async def my_decision(pilot: Pilot, app: BangApp, kind: str) -> TableScreen:
    def ready() -> bool:
        table = table_of(app)
        return bool(table and table.my_options and table.view.pending.kind == kind)
    await until(pilot, ready, what=f"a {kind} decision of ours")
    table = table_of(app)
    assert table is not None
    return table


def info(table: TableScreen) -> str:
    return str(table.info.render())


def note(table: TableScreen) -> str:
    return table.panel.note


def rule_shown(table: TableScreen) -> bool:
    return RULE in table.panel.render().plain


# --- one rule -----------------------------------------------------------------------------


async def test_on_your_turn_a_digit_picks_a_card_and_end_turn_is_a_choice() -> None:
    app = app_for(Scenario(seats=[SeatRig(hand=["Panic! J♥", "Beer 6♥"], life=2)], turn=0,
                           start="play"), bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "play")
        decision = table.view.pending.id
        assert rule_shown(table)
        await pilot.press("2")  # the Beer: picked, not played
        assert table.selected == card("Beer 6♥")
        assert [a.card for a in table.panel.actions] == [card("Beer 6♥")]
        await pilot.pause(0.1)
        assert table.view.pending.id == decision and card("Beer 6♥") in table.view.hand
        await pilot.press("escape")  # the card down: the list holds End turn
        assert [a.kind for a in table.panel.actions] == ["end_turn"]
        await highlight(pilot, table, 0)
        await pilot.press("enter")  # cards still playable: asked first
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        await pilot.press("y")
        await until(pilot, lambda: table.view.pending.id != decision, what="the turn's end")


async def test_out_of_turn_a_digit_picks_a_card_and_only_enter_answers(scripted) -> None:  # noqa: ANN001
    """Carlo plays Indians!: `2` (the old pop-up's second choice) picks Rosa's second card and
    answers nothing; `1`, a Missed!, is not playable here and says so; Enter discards."""
    scripted(plays("indians"))
    app = app_for(Scenario(seats=[SeatRig(hand=["Missed! 2♠", "BANG! A♠"]),
                                  SeatRig(hand=["Indians! K♦"])], turn=1, start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "respond_indians")
        decision = table.view.pending.id
        assert app.screen is table and rule_shown(table)  # asked once, on the table
        assert [a.kind for a in table.panel.actions] == ["discard_bang", "take_hit"]
        await pilot.press("2")
        await pilot.pause(0.1)
        assert table.view.pending.id == decision and table.selected == card("BANG! A♠")
        assert [a.card for a in table.panel.actions] == [card("BANG! A♠")]
        await pilot.press("1")
        assert info(table).startswith("Not playable now · Missed!")
        assert table.view.pending.id == decision
        await pilot.press("2", "enter")
        await until(pilot, lambda: card("BANG! A♠") not in table.view.hand, what="the discard")
        assert table.view.players[0].life == table.view.players[0].max_life


async def test_discarding_a_digit_picks_the_card_and_enter_discards_it() -> None:
    app = app_for(Scenario(seats=[SeatRig(hand=["Missed! 2♠", "Missed! 3♠", "BANG! A♠",
                                                 "BANG! K♥", "Mustang 8♥", "Scope A♠"],
                                           life=2)], turn=0, start="play"), bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "play")
        await pilot.press("e", "y")
        table = await my_decision(pilot, app, "discard")
        decision = table.view.pending.id
        assert rule_shown(table)
        await pilot.press("3")
        await pilot.pause(0.1)
        assert table.view.pending.id == decision and len(table.view.hand) == 6
        assert [a.card for a in table.panel.actions] == [card("BANG! A♠")]
        await pilot.press("enter")
        await until(pilot, lambda: len(table.view.hand) == 5, what="the discard")
        assert card("BANG! A♠") not in table.view.hand


async def test_a_choice_of_shown_cards_is_made_with_the_arrows_not_digits() -> None:
    """Kit Carlson puts a card back: the cards are not in the hand, digits answer nothing."""
    app = app_for(Scenario(deck=["Wells Fargo 3♥", "Duel J♠", "Scope A♠"], turn=0),
                  characters=["kit_carlson", "bart_cassidy", "pixie_pete", "willy_the_kid"],
                  bot_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await my_decision(pilot, app, "kit_put_back")
        decision = table.view.pending.id
        await pilot.press("2")  # a card of Kit's hand: only read, the choices stay
        await pilot.pause(0.1)
        assert table.view.pending.id == decision
        assert [a.kind for a in table.panel.actions] == ["put_back"] * 3
        chosen = table.panel.actions[1]
        await highlight(pilot, table, 1)
        await pilot.press("enter")
        await until(pilot, lambda: table.view.pending.kind == "play", what="Kit's turn")
        assert chosen.pick not in table.view.hand


# --- no slips -----------------------------------------------------------------------------


async def test_taking_a_hit_with_a_missed_in_hand_asks_first(scripted) -> None:  # noqa: ANN001
    scripted(plays("bang"))
    app = app_for(Scenario(seats=[SeatRig(hand=["Missed! 2♠"]), SeatRig(hand=["BANG! A♠"])],
                           turn=1, start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "respond_shot")
        decision = table.view.pending.id
        assert not note(table)  # a Missed! answers it: nothing answers by itself
        take_hit = table.panel.actions.index(Action("take_hit"))
        await highlight(pilot, table, take_hit)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert "Missed!" in str(app.screen.query_one("#question").render())
        await pilot.press("n")
        await until(pilot, lambda: app.screen is table, what="back at the table")
        await pilot.pause(0.1)
        assert table.view.pending.id == decision
        await answer(pilot, app, "take_hit", confirm=True)
        await until(pilot, lambda: table.view.players[0].life == table.view.players[0].max_life - 1,
                    what="the hit")


async def test_a_lone_hit_is_taken_by_itself_then_falling_with_a_beer_asks(scripted) -> None:  # noqa: ANN001
    """Nothing answers the shot: "Take the hit" goes by itself after a visible countdown.
    Then, dying with a Beer in hand, "Fall" asks first; the Beer saves."""
    scripted(plays("bang"))
    app = app_for(Scenario(seats=[SeatRig(hand=["Beer 6♥"], life=1),
                                  SeatRig(hand=["BANG! A♠"])], turn=1, start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "respond_shot")
        await until(pilot, lambda: "taking the hit in" in note(table), what="the countdown")
        table = await my_decision(pilot, app, "dying")
        assert not note(table)  # the countdown went with the hit
        decision = table.view.pending.id
        die = table.panel.actions.index(Action("die"))
        await highlight(pilot, table, die)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the question")
        assert "Beer" in str(app.screen.query_one("#question").render())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, what="back at the table")
        assert table.view.pending.id == decision and table.view.players[0].alive
        await answer(pilot, app, "beer")
        await until(pilot, lambda: card("Beer 6♥") not in table.view.hand, what="the Beer")
        assert table.view.players[0].alive


async def test_esc_stops_a_hit_from_being_taken_by_itself(scripted) -> None:  # noqa: ANN001
    scripted(plays("bang"))
    app = app_for(Scenario(seats=[SeatRig(hand=["Beer 6♥"]), SeatRig(hand=["BANG! A♠"])],
                           turn=1, start="play"))
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "respond_shot")
        decision = table.view.pending.id
        await until(pilot, lambda: "Esc: wait" in note(table), what="the countdown")
        await pilot.press("escape")
        assert not note(table)
        await pilot.pause(AUTO_DELAY + 0.5)  # past the moment it would have answered
        assert table.view.pending.id == decision
        await pilot.press("enter")  # nothing could answer it: no question
        await until(pilot, lambda: table.view.pending is None
                    or table.view.pending.id != decision, what="the hit")
        assert not isinstance(app.screen, ConfirmScreen)


async def test_the_timer_shows_on_your_turn_and_the_log_says_what_time_chose() -> None:
    app = app_for(Scenario(seats=[SeatRig(hand=["Missed! 2♠"])], turn=0, start="play"),
                  bot_delay=60, timeout=2.0)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await my_decision(pilot, app, "play")
        await until(pilot, lambda: "left" in table.panel.render().plain,
                    what="the countdown on our own turn")
        await until(pilot, lambda: "Time ran out for Rosa: the turn ends"
                    in table.game_log.text(), what="the timeout in the log")


# --- traps and reasons --------------------------------------------------------------------


async def test_a_shot_that_needs_two_missed_warns(scripted) -> None:  # noqa: ANN001
    """Slab the Killer shoots: one Missed! will not stop it, and the list says so."""
    scripted(plays("bang"))
    app = app_for(Scenario(seats=[SeatRig(hand=["Missed! 2♠"]), SeatRig(hand=["BANG! A♠"])],
                           turn=1, start="play"),
                  characters=["vulture_sam", "slab_the_killer", "pixie_pete", "willy_the_kid"])
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "respond_shot")
        assert note(table) == "⚠ BANG! needs 2 Missed!: you have 1"


async def test_a_beer_at_full_life_warns() -> None:
    app = app_for(Scenario(seats=[SeatRig(hand=["Beer 6♥"])], turn=0, start="play"),
                  bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "play")
        await pilot.press("1")
        assert note(table) == "⚠ Beer at full life: it heals nothing"
        await pilot.press("escape")
        assert not note(table)


async def test_a_left_out_target_says_why_on_its_seat(scripted) -> None:  # noqa: ANN001
    """BANG!: Gina (distance 2) is out of a Colt's reach; Cat Balou J♦: Tex is Apache Kid.
    A second BANG! in the turn says one per turn."""
    scripted(lambda action, view: False)  # the bots take the defaults (the hit)
    app = app_for(Scenario(seats=[SeatRig(hand=["BANG! A♠", "Cat Balou J♦", "BANG! K♥"])],
                           turn=0, start="play"),
                  characters=["vulture_sam", "bart_cassidy", "pixie_pete", "apache_kid"])
    async with app.run_test(size=(100, 30)) as pilot:
        table = await my_decision(pilot, app, "play")

        def why() -> dict[int, str | None]:
            return {p.seat: p.why for p in table.query(SeatPanel)}

        await pilot.press("1")
        assert {a.target for a in table.panel.actions} == {1, 3}
        assert why() == {0: None, 1: None, 2: "dist 2 > reach 1", 3: None}
        gina = next(p for p in table.query(SeatPanel) if p.seat == 2)
        await pilot.pause()
        assert "✗ dist 2 > reach 1" in str(gina.render())
        await pilot.resize_terminal(160, 50)  # seats around the table: new panels, same why
        await until(pilot, lambda: why() == {0: None, 1: None, 2: "dist 2 > reach 1", 3: None}
                    and len(why()) == 4 and table.has_class("-wide"), what="the wide seats")
        await pilot.resize_terminal(100, 30)
        await pilot.press("2")
        assert 3 not in {a.target for a in table.panel.actions}
        assert why()[3] == "immune to ♦"
        await pilot.press("escape")
        assert set(why().values()) == {None}
        await answer(pilot, app, "play", lambda a: a.card == card("BANG! A♠") and a.target == 1)
        await my_decision(pilot, app, "play")
        await until(pilot, lambda: table.view.bangs_played == 1, what="the shot")
        await pilot.press(str(table.view.hand.index(card("BANG! K♥")) + 1))
        assert info(table).startswith("One BANG! per turn · BANG!")


async def test_a_key_out_of_turn_says_whose_turn_it_is() -> None:
    app = app_for(Scenario(seats=[SeatRig(hand=["BANG! A♠"])], turn=1, start="play"),
                  bot_delay=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        table = table_of(app)
        await pilot.press("e")
        assert info(table) == "Not your turn: Carlo is deciding"
        await pilot.press("1")
        assert info(table).startswith("Not your turn: Carlo is deciding · BANG!")


# --- the log and the end ------------------------------------------------------------------


async def test_page_keys_scroll_the_log_from_anywhere_and_new_lines_come_back() -> None:
    app = app_for(Scenario(turn=0, start="play"), bot_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await my_decision(pilot, app, "play")
        table.game_log.add([f"line {n}" for n in range(60)])
        await pilot.press("m")  # typing in the chat: the keys still reach the log
        await until(pilot, lambda: table.chat.input.has_focus, what="the chat line")
        await pilot.press("pageup", "pageup")
        await pilot.pause()
        assert "line 59" not in str(table.game_log.render())
        await pilot.press("pagedown")
        await pilot.pause()
        assert "line 59" not in str(table.game_log.render())
        table.game_log.add(["a new line"])
        await pilot.pause()
        assert str(table.game_log.render()).endswith("a new line")


async def test_an_eliminated_player_sees_a_banner_and_no_end_turn(scripted) -> None:  # noqa: ANN001
    scripted(plays("bang"))
    app = app_for(Scenario(seats=[SeatRig(hand=[], life=1), SeatRig(hand=["BANG! A♠"])],
                           turn=1, start="play"),
                  roles=["outlaw", "sheriff", "renegade", "outlaw"])
    async with app.run_test(size=(80, 24)) as pilot:
        table = await my_decision(pilot, app, "dying")  # the hit went by itself
        assert not table.banner.display
        await pilot.press("enter")  # "Fall" is the only choice: nothing to ask
        await until(pilot, lambda: not table.view.players[0].alive, what="the fall")
        table.session.table.bot_delay = 60  # the bots pause: nothing redraws the info line
        await pilot.pause(0.3)
        assert table.banner.display and "You are eliminated" in str(table.banner.render())
        assert table.view.winner is None
        assert not table.check_action("end_turn", ())
        assert "End turn" not in {b.binding.description for b in app.active_bindings.values()}
        await pilot.press("e")
        assert info(table).startswith("You are out: watch, but give the living no hints · "
                                      "Not your turn")
