"""The table uses the screen it has: a tall compact screen shows every choice of a long list,
wide seat boxes show the whole ability when there is room, and the boxes are used only when
they are wide enough to read."""

from __future__ import annotations

import textwrap

from client_helpers import answer, table_of, until
from textual.pilot import Pilot

from client.app import BangApp
from client.i18n import I18n
from client.screens.table import LOG_MIN, TableScreen
from client.session import LocalSession, LocalTable
from client.widgets.seat import SeatPanel
from shared.setup import Scenario, SeatRig, Setup


def store_app(players: int = 7) -> BangApp:
    """Rosa (seat 0) holds a General Store on her turn; bots never get to move."""
    scenario = Scenario(seats=[SeatRig(hand=["General Store 9♣", "BANG! Q♥"])], turn=0,
                        start="play")
    setup = Setup(players=players, seed=11, names=["Rosa", "Carlo", "Gina", "Tex", "Lupo",
                                                   "Nina", "Bill"][:players])
    return BangApp(LocalSession(LocalTable(setup=setup, seat=0, bot_delay=60,
                                           scenario=scenario)))


async def drawn(pilot: Pilot) -> None:
    await until(pilot, lambda: (t := table_of(pilot.app)) is not None and t.view is not None,
                what="the table")
    await pilot.pause(0.2)


async def store_open(pilot: Pilot) -> TableScreen:
    """Rosa plays her General Store; the table once its 7 cards are the choices."""
    await drawn(pilot)
    await answer(pilot, pilot.app, "play", lambda a: a.card is not None and a.target is None)
    await until(pilot, lambda: len(table_of(pilot.app).panel.actions) == 7, what="the store")
    await pilot.pause(0.2)
    return table_of(pilot.app)


async def test_a_tall_compact_screen_lists_every_store_card() -> None:
    async with store_app().run_test(size=(100, 32)) as pilot:
        table = await store_open(pilot)
        assert not table.has_class("-wide")
        assert table.panel.list_rows() >= 7  # 80x24 would show fewer and scroll


async def test_80x24_keeps_the_list_short_for_the_log() -> None:
    async with store_app().run_test(size=(80, 24)) as pilot:
        table = await store_open(pilot)
        assert table.panel.list_rows() < 7
        assert table.game_log.size.height >= LOG_MIN - 1  # its border is the other row


async def test_a_list_longer_than_its_rows_scrolls_and_says_how_many_more() -> None:
    async with store_app().run_test(size=(80, 24)) as pilot:
        table = await store_open(pilot)
        panel = table.panel
        rows = panel.list_rows()
        assert rows < len(panel.actions)

        def lines() -> list[str]:
            return panel.render().plain.splitlines()

        first = 2  # the question, the cards shown, then the choices
        assert lines()[first + rows - 1].endswith(f"↓{len(panel.actions) - rows}")
        await pilot.press("end")
        assert panel.highlighted == len(panel.actions) - 1
        assert lines()[first].endswith(f"↑{len(panel.actions) - rows}")
        await pilot.press("home")
        assert panel.highlighted == 0 and "↑" not in lines()[first]


async def test_a_click_on_a_choice_does_it() -> None:
    async with store_app().run_test(size=(100, 32)) as pilot:
        table = await store_open(pilot)
        second = table.panel.actions[1]
        await pilot.click(table.panel, offset=(3, 2 + 1))  # the question, the cards, choice 1
        await until(pilot, lambda: second.pick in table.view.hand, what="the card taken")


def rendered(panel: SeatPanel) -> str:
    return panel.render().plain


async def test_wide_boxes_show_the_whole_ability_when_the_screen_is_tall() -> None:
    app = store_app()
    i18n = I18n("en")
    async with app.run_test(size=(200, 50)) as pilot:
        await drawn(pilot)
        table = table_of(app)
        assert table.has_class("-wide")
        for panel in table.seat_panels:
            text = " ".join(line.strip() for line in rendered(panel).splitlines()[3:])
            assert text == i18n.ability(panel.player.character), panel.player.name


async def test_a_short_wide_screen_ends_the_ability_in_an_ellipsis() -> None:
    app = store_app()
    async with app.run_test(size=(160, 36)) as pilot:
        await drawn(pilot)
        table = table_of(app)
        assert table.has_class("-wide")
        cut = [p for p in table.seat_panels
               if len(textwrap.wrap(I18n("en").ability(p.player.character),
                                    p.size.width - 2)) > 1]
        assert cut  # some ability needs more than its one line here
        for panel in cut:
            assert rendered(panel).splitlines()[3].endswith("…")


async def test_boxes_too_narrow_to_read_stay_compact() -> None:
    async with store_app(7).run_test(size=(120, 36)) as pilot:  # four boxes across the top
        await drawn(pilot)
        assert not table_of(pilot.app).has_class("-wide")
    async with store_app(4).run_test(size=(120, 36)) as pilot:  # one box across the top
        await drawn(pilot)
        assert table_of(pilot.app).has_class("-wide")
