"""Help: the rules, every card, every character, the keys (`?` or F1)."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Markdown, TabbedContent, TabPane

from client.i18n import I18n
from client.localize import localize_bindings
from shared.cards import CARDS, SUIT_SYMBOL
from shared.characters import CHARACTERS
from shared.high_noon.cards import EVENT_KEYS

KEY_LINES = (
    "key_cards", "key_arrows", "key_enter", "key_end", "key_seats", "key_log", "key_scroll",
    "key_chat", "key_help", "key_tabs", "key_theme", "key_quit", "key_events", "key_marks",
)
TABS = ("help-rules", "help-cards", "help-characters", "help-keys")


class HelpScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("question_mark", "app.pop_screen", "Back", show=False),
        Binding("f1", "app.pop_screen", "Back", show=False),
        Binding("1", "show_tab(0)", "Tabs", key_display="1-4"),
        *[Binding(str(n + 1), f"show_tab({n})", show=False) for n in range(1, len(TABS))],
    ]

    def __init__(self, i18n: I18n) -> None:
        super().__init__()
        self.i18n = i18n
        localize_bindings(self, i18n)

    def action_show_tab(self, index: int) -> None:
        """The digit written on each tab opens it."""
        self.query_one(TabbedContent).active = TABS[index]

    def compose(self) -> ComposeResult:
        t = self.i18n.t
        rules = resources.files("client.help").joinpath(f"rules_{self.i18n.lang}.md").read_text(
            encoding="utf-8"
        )
        with TabbedContent():
            with TabPane(f"1 {t('rules')}", id="help-rules"):
                yield Markdown(rules)
            with TabPane(f"2 {t('cards')}", id="help-cards"):
                yield Markdown(self._cards())
            with TabPane(f"3 {t('characters')}", id="help-characters"):
                yield Markdown(self._characters())
            with TabPane(f"4 {t('keys')}", id="help-keys"):
                yield Markdown("\n".join(f"- {t(key)}" for key in KEY_LINES))
        yield Footer()

    def _cards(self) -> str:
        """Every card: name, copies with suit and rank, what it does; then High Noon's event
        cards."""
        copies: dict[str, list[str]] = {}
        for card in CARDS:
            copies.setdefault(card.key, []).append(f"{card.rank}{SUIT_SYMBOL[card.suit]}")
        cards = [f"- **{self.i18n.card_name(key)}** ×{len(marks)} ({' '.join(marks)}): "
                 f"{self.i18n.card_text(key)}" for key, marks in copies.items()]
        events = [f"- **{self.i18n.event_name(key)}**: {self.i18n.event_text(key)}"
                  for key in EVENT_KEYS]
        return "\n".join([*cards, "", f"## {self.i18n.t('events')}", "", *events])

    def _characters(self) -> str:
        return "\n".join(
            f"- **{c.name}** ({'♥' * c.life}): {self.i18n.ability(c.key)}"
            for c in CHARACTERS.values()
        )
