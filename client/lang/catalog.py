"""What one language provides: the shape every language module fills in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LogPhrases:
    """The game log in one language, for client.log_writer.

    `lines` has one template per event kind. Its fields: seat, target, card, cards (what the
    viewer may see), all_cards (every card, or the count), count, value, lives (the count with
    its noun), note (translated), paren_note (" (note)" or nothing), role, side, chosen, and the
    optional pieces below, each already formatted or empty."""

    lines: Mapping[str, str]
    #: Free-text notes of the engine ("Barrel", "as BANG!"...); an unknown one is shown as is.
    notes: Mapping[str, str]
    #: What a timed-out player was given, by the default action's kind; "*" for any other.
    default_chosen: Mapping[str, str]
    nobody: str
    nothing: str
    #: "{n} card" and "{n} cards": the first when n is 1.
    cards: tuple[str, str]
    #: "{n} life point" and "{n} life points", likewise.
    lives: tuple[str, str]
    #: {jailed}: after turn_end when the turn was skipped in Jail.
    jailed: str
    #: {how}: " {note}" after a played card, when there is a note.
    how: str
    #: {on}: " on {target}" after a played card aimed at someone else.
    on: str
    #: {where}: " in front of {target}" after a card put in play in front of someone else.
    where: str
    #: {hit_by}: who caused a hit, and the same when one hits oneself.
    hit_by: str
    hit_self: str
    #: {elim_by}: who eliminated a player, and the same when they fell on their own.
    elim_by: str
    elim_self: str


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every text of one language. `log` is None for English, whose lines come with each
    update (shared.describe, also the host's and the replays' language)."""

    ui: Mapping[str, str]
    card_names: Mapping[str, str]
    card_text: Mapping[str, str]
    abilities: Mapping[str, str]
    role_names: Mapping[str, str]
    #: Footer key labels by their English text; English has none.
    footer: Mapping[str, str]
    log: LogPhrases | None
