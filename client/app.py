"""The Textual app: a table (or a lobby that leads to one), help, themes, command palette."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen

from client import door_mode, heap
from client.i18n import I18n
from client.localize import localize_bindings
from client.net import Remote
from client.screens.confirm import ConfirmScreen
from client.screens.help import HelpScreen
from client.screens.table import TableScreen
from client.session import Session

if TYPE_CHECKING:
    from client.embedded import EmbeddedServer

THEMES = {"dark": "textual-dark", "light": "textual-light"}


class BangApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "BANG!"
    BINDINGS = [
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("f1", "help", "Help", show=False),
        Binding("t", "toggle_theme", "Theme", show=False),
    ]

    def __init__(
        self,
        session: Session | None = None,
        *,
        lang: str = "en",
        theme: str = "dark",
        first_screen: Callable[[BangApp], Screen] | None = None,
        remote: Remote | None = None,
        notice: str | None = None,
        server: EmbeddedServer | None = None,
    ) -> None:
        """Start at the table of `session`, or at `first_screen(app)` (the lobby, which
        uses `remote`; the app closes it on exit)."""
        super().__init__()
        self.i18n = I18n(lang)
        localize_bindings(self, self.i18n)
        self.session = session
        self.remote = remote
        self.notice = notice  # shown at start, e.g. the `bang join` line for friends
        self.server = server  # started before the first screen, stopped on exit
        self._first_screen = first_screen
        self.theme = THEMES.get(theme, theme)
        self._asking_quit = False  # the quit question is on screen

    async def on_mount(self) -> None:
        if self.notice:
            self.notify(self.notice, timeout=120)
        if self.server is not None:
            await self.server.start()
        if self._first_screen is not None:
            self.push_screen(self._first_screen(self))
        elif self.session is not None:
            self.push_screen(TableScreen(self.session, self.i18n))
        self.call_after_refresh(heap.settle)
        # Between frames of any screen; a table also asks after each update it draws.
        self.set_interval(1, heap.collect_due)

    def open_table(self, session: Session) -> None:
        """Leave the lobby for a table."""
        self.session = session
        self.push_screen(TableScreen(session, self.i18n))

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.i18n))

    async def action_quit(self) -> None:
        """Ctrl+Q (and the game-over screen's q). During a game where we hold a seat, ask
        first; Ctrl+Q again on that question quits."""
        if isinstance(self.screen, ConfirmScreen) and self._asking_quit:
            self.exit()
            return
        table = next((s for s in reversed(self.screen_stack) if isinstance(s, TableScreen)),
                     None)
        if table is None or not table.game_on:
            self.exit()
            return
        goes_on = self.server is None and table.session.outlives_app
        question = self.i18n.t("confirm_quit" if goes_on else "confirm_quit_local")

        def answered(yes: bool | None) -> None:
            self._asking_quit = False
            if yes:
                self.exit()

        self._asking_quit = True
        self.push_screen(ConfirmScreen(question, self.i18n), answered)

    def action_toggle_theme(self) -> None:
        self.theme = THEMES["light"] if self.current_theme.dark else THEMES["dark"]

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette, in the player's language: our own commands in place of
        Textual's English ones (its theme list and key panel are covered by `t` and help)."""
        t = self.i18n.t
        yield SystemCommand(t("cmd_help"), t("key_help"), self.action_help)
        yield SystemCommand(t("cmd_theme"), t("key_theme"), self.action_toggle_theme)
        if isinstance(screen, TableScreen):
            yield SystemCommand(t("cmd_end_turn"), t("key_end"), screen.action_end_turn)
            yield SystemCommand(t("cmd_toggle_log"), t("key_log"), screen.action_toggle_log)
        yield SystemCommand(t("cmd_quit"), t("cmd_quit_help"), self.action_quit)
        if not door_mode.is_door():  # the door's disk is not the player's
            yield SystemCommand(t("cmd_screenshot"), t("cmd_screenshot_help"),
                                lambda: self.set_timer(0.1, self.deliver_screenshot))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not any(isinstance(s, CommandPalette)
                                                for s in self.screen_stack):
            self.push_screen(CommandPalette(id="--command-palette",
                                            placeholder=self.i18n.t("palette_search")))

    def action_help_quit(self) -> None:
        """Ctrl+C does not quit (it copies in a text field): say how to."""
        self.notify(self.i18n.t("how_to_quit"))

    async def on_unmount(self) -> None:
        heap.release()
        if self.session is not None:
            await self.session.close()
        if self.remote is not None:
            await self.remote.close()
        if self.server is not None:
            await self.server.stop()
