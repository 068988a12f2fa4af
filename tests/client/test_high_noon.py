"""High Noon at the table: the event cards in play and next, their texts on demand, your New
Identity on your seat, the help's list of every event card, and the words of its decisions."""

from __future__ import annotations

import pytest
from client_helpers import table_of, until

from client.app import BangApp
from client.i18n import CATALOGS, I18n
from client.render import describe_action, describe_decision
from client.screens.help import HelpScreen
from client.session import LocalSession, LocalTable
from client.widgets.events import EventBar
from client.widgets.seat import SeatPanel
from shared.characters import CHARACTERS
from shared.engine import start_game
from shared.high_noon.cards import EVENT_CARDS, EVENT_KEYS
from shared.model import Action, Decision
from shared.setup import HighNoonOptions, Scenario, Setup
from shared.views import view

#: Blessing in play, Thirst next; Rosa (seat 0) plays with her hand as dealt.
RIGGED = Scenario(event_active="blessing", event_deck=["thirst", "curse"], sheriff_turns=2,
                  start="play")


def high_noon_app(lang: str = "en", scenario: Scenario | None = RIGGED,
                  bonus: bool = False) -> BangApp:
    setup = Setup(players=4, seed=7, names=["Rosa", "Carlo", "Gina", "Tex"],
                  roles=["sheriff", "outlaw", "outlaw", "renegade"],
                  expansions=["high_noon"], high_noon=HighNoonOptions(bonus=bonus))
    return BangApp(LocalSession(LocalTable(setup=setup, bot_delay=60.0, scenario=scenario)),
                   lang=lang)


def bar_text(app: BangApp) -> str:
    return str(app.screen.query_one(EventBar).render())


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
async def test_the_event_cards_show_on_the_table_and_read_on_demand(size) -> None:  # noqa: ANN001
    app = high_noon_app()
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.pause()
        bar = app.screen.query_one(EventBar)
        assert bar.display and bar.region.height >= 1
        line = bar_text(app)
        assert "Event: Blessing" in line and "next: Thirst" in line
        assert "3 to come" in line  # High Noon comes last
        if size == (160, 50):  # a wide table also prints the text of the card in play
            assert "Hearts" in line
        await pilot.press("v")  # both texts, in full
        await until(pilot, lambda: app._notifications, what="the texts")
        shown = "\n".join(n.message for n in app._notifications)
        assert EVENT_CARDS["blessing"].text in shown and EVENT_CARDS["thirst"].text in shown
        bar.focus()  # as Tab reaches it: the info line says what the card in play does
        await until(pilot, lambda: "Blessing: The suit" in str(table_of(app).info.render()),
                    what="the info line")


async def test_the_event_cards_speak_italian() -> None:
    app = high_noon_app(lang="it")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        line = bar_text(app)
        assert "Evento: Benedizione" in line and "poi: Sete" in line
        await pilot.press("v")
        await until(pilot, lambda: app._notifications, what="the texts")
        assert "Tutte le carte sono considerate di Cuori." in \
            list(app._notifications)[-1].message


async def test_the_first_round_has_no_event_yet_and_a_base_game_shows_none() -> None:
    app = high_noon_app(scenario=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        assert "Event: none yet" in bar_text(app) and "next: " in bar_text(app)
    base = BangApp(LocalSession(LocalTable(setup=Setup(players=4, seed=7), bot_delay=60.0)))
    async with base.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(base) and table_of(base).view, what="the table")
        assert not base.screen.query_one(EventBar).display
        await pilot.press("v")  # nothing to read
        await pilot.pause(0.1)
        assert not base._notifications


async def test_your_seat_names_your_new_identity() -> None:
    app = high_noon_app(scenario=None, bonus=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.pause()
        table = table_of(app)
        other = table.view.other_character
        assert other  # dealt with New Identity in the deck
        mine = next(p for p in app.screen.query(SeatPanel) if p.seat == table.view.viewer)
        assert f"⇄ {CHARACTERS[other].name}" in str(mine.render())


async def test_the_help_lists_every_event_card() -> None:
    app = high_noon_app(lang="it")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        await pilot.press("2")
        cards = str(app.screen.query_one("#help-cards").query_one("Markdown").source)
        italian = CATALOGS["it"]
        for key in EVENT_KEYS:
            assert f"**{italian.event_names[key]}**: {italian.event_text[key]}" in cards


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_high_noon_decisions_read_in_every_language(lang: str) -> None:
    """Each decision High Noon asks, and each of its choices, has its own words."""
    i18n = I18n(lang)
    state, _ = start_game(Setup(players=4, seed=7, expansions=["high_noon"],
                                high_noon=HighNoonOptions(bonus=True)))
    table = view(state, 0)
    hand = table.hand
    asked = {
        "daltons_discard": [Action("discard_in_play", pick=hand[0])],
        "new_identity": [Action("new_identity"), Action("pass")],
        "name_suit": [Action(f"name_{suit}") for suit in
                      ("spades", "hearts", "diamonds", "clubs")],
        "kit_keep": [Action("keep", pick=hand[0])],
    }
    for kind, options in asked.items():
        state.pending = Decision(id=99, seat=0, kind=kind, options=tuple(options),
                                 default=options[0])
        seen = view(state, 0)
        for waiting in (False, True):
            text = describe_decision(seen, i18n, waiting)
            assert text and kind not in text, (kind, text)
        lines = [describe_action(a, seen, i18n) for a in options]
        assert all(line and "{" not in line for line in lines), lines
        assert len(set(lines)) == len(lines), lines
    assert "2" in describe_action(Action("new_identity"), seen, i18n)


async def test_the_create_room_form_has_a_high_noon_switch_that_fits_80x24() -> None:
    from textual.widgets import Button, Select

    from client.screens.create_room import CreateRoomScreen, RoomForm

    app = high_noon_app(scenario=None)
    forms: list[RoomForm | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        app.push_screen(CreateRoomScreen(app.i18n, "Rosa"), callback=forms.append)
        await pilot.pause()
        screen = app.screen
        switch = screen.query_one("#high-noon", Select)
        assert switch.value == ""  # off by default
        for widget in (switch, screen.query_one("#ok", Button)):
            assert widget.region.y >= 0 and widget.region.bottom <= 24, widget
        switch.value = "bonus"
        await pilot.pause()
        screen.submit()
        await pilot.pause()
    form = forms[0]
    assert form is not None and form.expansions == ("high_noon",)
    assert form.high_noon() == HighNoonOptions(bonus=True)
    assert RoomForm("x", 4, "all", 60, False, expansions=("high_noon",)).high_noon() is None
    assert RoomForm("x", 4, "all", 60, False, high_noon_bonus=True).high_noon() is None
