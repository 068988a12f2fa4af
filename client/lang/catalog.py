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
    #: Why the host (or the link to it) refused something, by error code, plus "other" for
    #: a code not listed (its field: {code}). English has none: the host's own message is
    #: English, and may say more (who is not ready, why the rules refuse a move).
    errors: Mapping[str, str]


#: The error codes a player can meet (docs/PROTOCOL.md's, and the client library's own:
#: `unreachable`, `disconnected`, `refused`; `game_stopped` from an offline game).
REFUSAL_CODES = frozenset({
    "too_large", "malformed", "invalid", "version", "bad_key", "bad_box", "padding", "busy",
    "rate_limited", "replay", "no_room", "started", "full", "seat_taken", "bad_seat",
    "name_taken", "not_seated", "not_creator", "not_ready", "not_full", "not_playing",
    "too_many_rooms", "too_many_seats", "over", "illegal", "not_in_room", "chat_limited",
    "history_limited", "stale", "storage", "internal", "unreachable", "disconnected",
    "refused", "game_stopped",
})
