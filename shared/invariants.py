"""`problems(state)`: every broken invariant, as readable lines. Empty means healthy."""

from __future__ import annotations

from collections import Counter
from typing import Final

from shared.cards import CARDS, DECK_SIZE, KEY, WEAPON_REACH
from shared.model import DyingFrame, EventFrame, GameState, KitFrame, StoreFrame
from shared.rulebook import rulebook


def card_places(state: GameState) -> Counter[int]:
    """How many times each card id appears in some place."""
    places: Counter[int] = Counter(state.deck)
    places.update(state.discard)
    for p in state.players:
        places.update(p.hand)
        places.update(p.in_play)
    for frame in state.stack:
        if isinstance(frame, (StoreFrame, KitFrame, EventFrame)):
            places.update(frame.cards)
    return places


_EVERY_CARD: Final = frozenset(range(DECK_SIZE))


def _cards_misplaced(state: GameState) -> list[str]:
    held = state.deck + state.discard
    for p in state.players:
        held += p.hand
        held += p.in_play
    for frame in state.stack:
        if isinstance(frame, (StoreFrame, KitFrame, EventFrame)):
            held += frame.cards
    # As many cards as the deck has, and every card among them: each exactly once.
    if len(held) == DECK_SIZE and set(held) == _EVERY_CARD:
        return []
    places = card_places(state)
    found = [f"{CARDS[c].label} (#{c}) is in {places[c]} places"
             for c in range(DECK_SIZE) if places[c] != 1]
    extra = set(places) - _EVERY_CARD
    if extra:
        found.append(f"unknown card ids {sorted(extra)}")
    return found


def problems(state: GameState) -> list[str]:
    found = _cards_misplaced(state)
    dying = {f.seat for f in state.stack if isinstance(f, DyingFrame)}
    book = rulebook(state)
    for p in state.players:
        if p.alive:
            low = book.min_life(state, p.seat) if p.seat not in dying else -10
            if not low <= p.life <= p.max_life:
                found.append(f"{p.name} has {p.life} life (allowed {low}..{p.max_life})")
        elif p.hand or p.in_play:
            found.append(f"{p.name} is eliminated but still holds cards")
        if len(p.in_play) < 2:
            continue
        keys = [KEY[c] for c in p.in_play]
        weapons = [k for k in keys if k in WEAPON_REACH]
        if len(weapons) > 1:
            found.append(f"{p.name} has {len(weapons)} weapons in play")
        if len(set(keys)) < len(keys):
            duplicates = sorted(k for k, n in Counter(keys).items() if n > 1)
            found.append(f"{p.name} has duplicate cards in play: {', '.join(duplicates)}")
    if state.winner is None and state.pending is None:
        found.append("the game is not over but nobody has a decision to make")
    if state.pending is not None and not state.players[state.pending.seat].alive:
        found.append(f"{state.players[state.pending.seat].name} is eliminated but must decide")
    return found + book.problems(state)
