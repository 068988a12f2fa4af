"""The game log in any language but English (English is shared.describe): one writer, each
language's phrases in its catalog (client.lang). Events arrive already redacted for the viewer.
Every word comes from the event's codes (shared.event_kinds) through the catalog."""

from __future__ import annotations

from collections.abc import Mapping

from client.lang.catalog import Catalog, LogPhrases
from shared.cards import CARDS, SUIT_SYMBOL
from shared.characters import CHARACTERS
from shared.event_kinds import CHARACTER_CODES
from shared.events import visible_to
from shared.model import Event


def _counted(forms: tuple[str, str], n: int) -> str:
    return forms[0 if n == 1 else 1].format(n=n)


def _word(code: str | None, words: Mapping[str, str]) -> str:
    """A code in the catalog's words; a character's code as the character's name."""
    if code in CHARACTER_CODES:
        return CHARACTERS[code].name
    return words.get(code or "", "")


def _paren(word: str) -> str:
    return f" ({word})" if word else ""


def describe_event(catalog: Catalog, phrases: LogPhrases, event: Event, table,  # noqa: ANN001
                   viewer: int | None) -> str:
    """One line for `event`; `table` is a view or a state (for the names)."""
    names = [p.name for p in table.players]
    e = event

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None else phrases.nobody

    def label(card: int | None) -> str:
        if card is None or card < 0:
            return phrases.nothing
        c = CARDS[card]
        return f"{catalog.card_names[c.key]} {c.rank}{SUIT_SYMBOL[c.suit]}"

    template = phrases.lines.get(e.kind)
    seat, target = who(e.seat), who(e.target)
    if template is None:
        return f"{e.kind}: {seat} {target}"
    counted = _counted(phrases.cards, e.count)
    labels = ", ".join(label(c) for c in e.cards)
    purpose = _word(e.purpose, phrases.purposes)
    if e.kind == "flip" and e.card is None:
        purpose = phrases.no_card_left.format(purpose=purpose)
    by_someone = e.target is not None
    by_self = by_someone and e.target == e.seat
    return template.format(
        seat=seat,
        target=target,
        card=label(e.card),
        cards=labels if e.cards and visible_to(e, viewer) else counted,
        all_cards=labels or counted,
        count=e.count,
        value=e.value,
        lives=_counted(phrases.lives, e.count),
        left=_counted(phrases.lives, e.value or 0),
        purpose=purpose,
        paren_source=_paren(_word(e.source, phrases.sources)),
        paren_zone=_paren(_word(e.zone, phrases.zones)),
        paren_reason=_paren(_word(e.reason, phrases.discard_reasons)),
        role=catalog.role_names.get(e.role or "", ""),
        event=catalog.event_names.get(e.event_card or "", ""),
        suit=phrases.suits.get(e.suit or "", ""),
        character=_word(e.character, {}),
        side=catalog.ui.get(f"side_{e.side}", "") if e.side else "",
        chosen=phrases.default_chosen.get(e.default or "", phrases.default_chosen["*"]),
        jailed=phrases.jailed if e.reason == "skipped" else "",
        how=f" {_word(e.how, phrases.how)}" if e.how else "",
        on=phrases.on.format(target=target) if by_someone and not by_self else "",
        where=phrases.where.format(target=target) if e.target != e.seat else "",
        hit_by=(phrases.hit_self if by_self else phrases.hit_by).format(target=target)
        if by_someone else "",
        elim_by=(phrases.elim_self if by_self else phrases.elim_by).format(target=target)
        if by_someone else "",
    )
