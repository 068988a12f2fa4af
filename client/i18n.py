"""All text the client shows, in the user's language: one catalog per language (client.lang),
looked up the same way for every language."""

from __future__ import annotations

from collections.abc import Sequence

from client.lang import en, es, hu, it
from client.lang.catalog import Catalog
from client.log_writer import describe_event
from client.net.remote import RemoteError
from shared.model import Event
from shared.names import NAME_MAX

CATALOGS: dict[str, Catalog] = {
    "en": en.CATALOG, "it": it.CATALOG, "es": es.CATALOG, "hu": hu.CATALOG,
}
LANGUAGES = tuple(CATALOGS)


class I18n:
    """All text the client shows, in one language."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in CATALOGS:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        self.catalog = CATALOGS[lang]

    def t(self, key: str, **values: object) -> str:
        return self.catalog.ui[key].format(**values)

    def table_name(self, player: str) -> str:
        """The name a room opened by `player` gets unless they choose one ("Zed's table"),
        the player's name shortened to keep it within a room name's NAME_MAX characters."""
        room = self.t("default_table", name=player)
        if len(room) > NAME_MAX:
            excess = len(room) - NAME_MAX
            room = self.t("default_table", name=player[:len(player) - excess].rstrip())
        return room

    def card_name(self, key: str) -> str:
        return self.catalog.card_names[key]

    def card_text(self, key: str) -> str:
        return self.catalog.card_text[key]

    def event_name(self, key: str) -> str:
        """A High Noon event card's name."""
        return self.catalog.event_names[key]

    def event_text(self, key: str) -> str:
        return self.catalog.event_text[key]

    def ability(self, character: str) -> str:
        return self.catalog.abilities[character]

    def role(self, role: str) -> str:
        return self.catalog.role_names[role]

    def side(self, side: str) -> str:
        return self.t(f"side_{side}")

    def refusal(self, code: str, message: str) -> str:
        """Why something was refused, for a person: this language's text for the error code,
        or the host's own `message` (English, and in English the more telling one)."""
        errors = self.catalog.errors
        if not errors or not code:
            return message
        return errors[code] if code in errors else errors["other"].format(code=code)

    def problem(self, problem: BaseException) -> str:
        """A failure of the link to the host (or of the host), for a person."""
        if isinstance(problem, RemoteError | TimeoutError):
            failed = RemoteError.of(problem)
            return self.refusal(failed.code, failed.message)
        return str(problem) or type(problem).__name__

    def footer(self, label: str) -> str:
        """A footer key label, given in English."""
        return self.catalog.footer.get(label, label)

    def log_lines(self, english: Sequence[str], events: Sequence[Event], table,  # noqa: ANN001
                  viewer: int | None) -> list[str]:
        """The log lines for one update: the English ones it came with, or this language's,
        written from its events."""
        phrases = self.catalog.log
        if phrases is None:
            return list(english)
        return [describe_event(self.catalog, phrases, e, table, viewer) for e in events]
