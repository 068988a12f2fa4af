"""Help: the rules, every card, every character, the keys (`?` or F1)."""

from __future__ import annotations

from collections import Counter
from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Markdown, TabbedContent, TabPane

from client.i18n import I18n
from client.localize import localize_bindings
from shared.cards import CARDS
from shared.characters import CHARACTERS

KEY_LINES = (
    "key_cards", "key_arrows", "key_enter", "key_end", "key_seats", "key_log", "key_help",
    "key_theme", "key_quit", "key_marks",
)


class HelpScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.pop_screen", "Back", show=False),
        Binding("f1", "app.pop_screen", "Back", show=False),
    ]

    def __init__(self, i18n: I18n) -> None:
        super().__init__()
        self.i18n = i18n
        localize_bindings(self, i18n)

    def compose(self) -> ComposeResult:
        t = self.i18n.t
        rules = resources.files("client.help").joinpath(f"rules_{self.i18n.lang}.md").read_text(
            encoding="utf-8"
        )
        with TabbedContent():
            with TabPane(t("rules"), id="help-rules"):
                yield Markdown(rules)
            with TabPane(t("cards"), id="help-cards"):
                yield DataTable(id="card-table", cursor_type="row", zebra_stripes=True)
            with TabPane(t("characters"), id="help-characters"):
                yield DataTable(id="character-table", cursor_type="row", zebra_stripes=True)
            with TabPane(t("keys"), id="help-keys"):
                yield Markdown("\n".join(f"- {t(key)}" for key in KEY_LINES))
        yield Footer()

    def on_mount(self) -> None:
        copies = Counter(card.key for card in CARDS)
        cards = self.query_one("#card-table", DataTable)
        cards.add_columns(self.i18n.t("cards"), "×", "")
        for key, count in copies.items():
            cards.add_row(self.i18n.card_name(key), str(count), self.i18n.card_text(key))
        people = self.query_one("#character-table", DataTable)
        people.add_columns(self.i18n.t("characters"), "♥", "")
        for character in CHARACTERS.values():
            people.add_row(
                character.name, str(character.life), self.i18n.ability(character.key)
            )
