"""What one language provides: the shape every language module fills in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LogPhrases:
    """The game log in one language, for client.log_writer.

    `lines` has one template per event kind. Its fields: seat, target, card, cards (what the
    viewer may see), all_cards (every card, or the count), count, value, lives (the count with
    its noun), role, side, chosen, purpose, event (an event card's name), suit, character
    (a character's name), and the optional pieces below, each already
    formatted or empty. Every word comes from the event's codes (shared.event_kinds), never
    from text in the event: a character's code is written as the character's name."""

    lines: Mapping[str, str]
    #: {how}: after a played card, by the play's `how` (a space, then this).
    how: Mapping[str, str]
    #: {purpose}: what a "draw!" is for, by its `purpose`, but a character's.
    purposes: Mapping[str, str]
    #: {purpose} of a "draw!" that found no card left: "{purpose}: no card left".
    no_card_left: str
    #: {paren_source}: " (this)" after a draw, by its `source`, but a character's.
    sources: Mapping[str, str]
    #: {paren_zone}: " (this)" after a steal or a forced discard, by its `zone`.
    zones: Mapping[str, str]
    #: {paren_reason}: " (this)" after a discard out of the discard phase, by its `reason`.
    discard_reasons: Mapping[str, str]
    #: {suit}: a suit named with High Noon's Handcuffs (a `suit_named`'s `suit`).
    suits: Mapping[str, str]
    #: {chosen}: what a timed-out player was given, by the `time_up`'s `default`; "*" for any
    #: other kind of action.
    default_chosen: Mapping[str, str]
    nobody: str
    nothing: str
    #: "{n} card" and "{n} cards": the first when n is 1.
    cards: tuple[str, str]
    #: "{n} life point" and "{n} life points", likewise.
    lives: tuple[str, str]
    #: {jailed}: after turn_end when the turn was skipped in Jail.
    jailed: str
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
    #: High Noon's event cards, by key (shared.high_noon.cards): name and text.
    event_names: Mapping[str, str]
    event_text: Mapping[str, str]
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
