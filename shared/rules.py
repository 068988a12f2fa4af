"""Table geometry and the small rule predicates shared by the engine, views and bots."""

from __future__ import annotations

from shared.cards import KEY, WEAPON_REACH
from shared.model import GameState, Player


def has_in_play(player: Player, key: str) -> bool:
    return any(KEY[c] == key for c in player.in_play)


def weapon_of(player: Player) -> int | None:
    for c in player.in_play:
        if KEY[c] in WEAPON_REACH:
            return c
    return None


def alive_count(state: GameState) -> int:
    return sum(1 for p in state.players if p.alive)


def next_alive(state: GameState, seat: int) -> int:
    """The next living player clockwise (to the left) of `seat`."""
    n = len(state.players)
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if state.players[candidate].alive:
            return candidate
    return seat


def seats_from(state: GameState, seat: int) -> list[int]:
    """Living players in seat order starting with `seat` itself (if alive) and going clockwise."""
    n = len(state.players)
    return [(seat + i) % n for i in range(n) if state.players[(seat + i) % n].alive]


def base_distance(state: GameState, a: int, b: int) -> int:
    """Seats between a and b among the living, the shorter way round."""
    players = state.players
    if a == b:
        return 0
    if not (players[a].alive and players[b].alive):
        n, clockwise = len(players), (b - a) % len(players)
    else:
        n = sum(1 for p in players if p.alive)
        low, high = min(a, b), max(a, b)
        between = sum(1 for p in players[low + 1:high] if p.alive)
        clockwise = between + 1 if a < b else n - between - 1
    return min(clockwise, n - clockwise)


def distance(state: GameState, a: int, b: int) -> int:
    """How far `a` sees `b`: Mustang and Paul Regret add, Scope and Rose Doolan subtract."""
    seer, seen = state.players[a], state.players[b]
    d = base_distance(state, a, b)
    d += has_in_play(seen, "mustang") + (seen.character == "paul_regret")
    d -= has_in_play(seer, "scope") + (seer.character == "rose_doolan")
    return max(d, 1)


def reach(state: GameState, seat: int) -> int:
    weapon = weapon_of(state.players[seat])
    return WEAPON_REACH[KEY[weapon]] if weapon is not None else 1


def unlimited_bangs(player: Player) -> bool:
    return player.character == "willy_the_kid" or has_in_play(player, "volcanic")


def barrel_draws(player: Player) -> int:
    """How many Barrel "draw!"s this player gets against one BANG!."""
    return has_in_play(player, "barrel") + (player.character == "jourdonnais")
