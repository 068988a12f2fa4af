"""The help screen's tabs open with the digits written on them, in the player's language."""

from __future__ import annotations

from client_helpers import table_of, until
from textual.widgets import TabbedContent

from client.app import BangApp
from client.screens.help import HelpScreen
from client.session import LocalSession, LocalTable
from shared.setup import Setup


async def test_digits_open_the_tabs_they_are_written_on() -> None:
    app = BangApp(LocalSession(LocalTable(setup=Setup(players=4, seed=5), bot_delay=60.0)),
                  lang="it")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: table_of(app) and table_of(app).view, what="the table")
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help")
        tabs = app.screen.query_one(TabbedContent)
        labels = [str(tab.label) for tab in tabs.query("Tab")]
        assert labels == ["1 Regole", "2 Carte", "3 Personaggi", "4 Tasti"]
        for key, pane in (("2", "help-cards"), ("4", "help-keys"), ("3", "help-characters"),
                          ("1", "help-rules")):
            await pilot.press(key)
            await until(pilot, lambda pane=pane: tabs.active == pane, what=pane)
        await pilot.press("4")
        keys = str(app.screen.query_one("#help-keys").query_one("Markdown").source)
        assert "m: parla al tavolo" in keys and "1-4: le schede" in keys
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen), what="back")
