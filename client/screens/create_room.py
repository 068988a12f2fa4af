"""The form that creates a room: name, players, character pool, turn timeout, bots, and the
High Noon expansion (with or without its bonus cards; its other rulings stay at their
defaults)."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select

from client.i18n import I18n
from client.localize import localize_bindings
from client.plaintext import clean
from shared.bots import BOT_KINDS
from shared.roles import MAX_PLAYERS, MIN_PLAYERS
from shared.setup import HighNoonOptions


@dataclass(frozen=True)
class RoomForm:
    name: str
    players: int
    pool: str
    timeout: int
    bots: bool  # start at once with bots in the free seats
    bot: str = "normal"  # how those bots play
    expansions: tuple[str, ...] = ()  # shared.setup.EXPANSIONS
    high_noon_bonus: bool = False  # High Noon's Handcuffs and New Identity
    rulings: HighNoonOptions | None = None  # from `bang play --rulings`

    def high_noon(self) -> HighNoonOptions | None:
        """The room's High Noon options: the bonus cards chosen here, on top of the rulings
        given on the command line."""
        if "high_noon" not in self.expansions:
            return None
        options = self.rulings or HighNoonOptions()
        if self.high_noon_bonus:
            options = msgspec.structs.replace(options, bonus=True)
        return None if options == HighNoonOptions() else options


class CreateRoomScreen(ModalScreen[RoomForm | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Back")]

    def __init__(self, i18n: I18n, player_name: str) -> None:
        super().__init__()
        self.i18n = i18n
        localize_bindings(self, i18n)
        self.player_name = player_name

    def compose(self) -> ComposeResult:
        t = self.i18n.t
        with Vertical(id="create-room"):
            yield Label(t("create_room"), id="create-title")
            yield Label(t("name"))
            yield Input(clean(self.i18n.table_name(self.player_name)), id="room-name",
                        max_length=40)
            with Horizontal(classes="form-row"):
                with Vertical():
                    yield Label(t("players"))
                    yield Select(
                        [(str(n), n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
                        value=5, allow_blank=False, id="players",
                    )
                with Vertical():
                    yield Label(t("pool"))
                    yield Select(
                        [(t("pool_all"), "all"), (t("pool_base"), "base")],
                        value="all", allow_blank=False, id="pool",
                    )
                with Vertical():
                    yield Label(t("timeout"))
                    yield Input("60", id="timeout", type="integer", max_length=4)
            with Horizontal(classes="form-row"):
                with Vertical():
                    yield Label(t("bot_kind"))
                    yield Select([(t(f"bot_{kind}"), kind) for kind in sorted(BOT_KINDS)],
                                 value="normal", allow_blank=False, id="bot-kind")
                with Vertical():
                    yield Label(t("expansion_high_noon"))
                    yield Select([(t("option_off"), ""), (t("option_high_noon"), "on"),
                                  (t("option_high_noon_bonus"), "bonus")],
                                 value="", allow_blank=False, id="high-noon")
                yield Vertical()  # keeps the fields as wide as the ones above
            yield Checkbox(t("bots"), value=False, id="bots")  # a room is for friends
            with Horizontal(id="create-buttons"):
                yield Button(t("create_room"), id="ok", variant="primary")
                yield Button(t("back"), id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        self.submit()

    def on_input_submitted(self) -> None:
        self.submit()

    def submit(self) -> None:
        name = self.query_one("#room-name", Input).value.strip() or "BANG!"
        timeout_text = self.query_one("#timeout", Input).value.strip()
        high_noon = self.query_one("#high-noon", Select).value  # "", "on" or "bonus"
        self.dismiss(RoomForm(
            name=name,
            players=int(self.query_one("#players", Select).value),  # type: ignore[arg-type]
            pool=str(self.query_one("#pool", Select).value),
            timeout=min(3600, int(timeout_text or 0)),
            bots=self.query_one("#bots", Checkbox).value,
            bot=str(self.query_one("#bot-kind", Select).value),
            expansions=("high_noon",) if high_noon else (),
            high_noon_bonus=high_noon == "bonus",
        ))
