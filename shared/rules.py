"""Table geometry and the small rule predicates shared by the engine, views and bots."""

from __future__ import annotations

from typing import Final

from shared.cards import KEY, WEAPON_REACH
from shared.model import GameState, Player
from shared.roles import DEPUTY, SHERIFF
from shared.rulebook import ability, player_ability, rulebook


def has_in_play(player: Player, key: str) -> bool:
    # A loop over the few cards in play (mypyc compiles `any` of a generator to one): cheaper
    # compiled than a set operation, which is a method call by name.
    return any(KEY[card] == key for card in player.in_play)


def weapon_of(player: Player) -> int | None:
    for c in player.in_play:
        if KEY[c] in WEAPON_REACH:
            return c
    return None


def alive_count(state: GameState) -> int:
    return sum(1 for p in state.players if p.alive)


def next_alive(state: GameState, seat: int, step: int = 1) -> int:
    """The next living player clockwise (to the left) of `seat`; `step=-1`: counter-clockwise."""
    n = len(state.players)
    for i in range(1, n + 1):
        candidate = (seat + i * step) % n
        if state.players[candidate].alive:
            return candidate
    return seat


def round_leader(state: GameState) -> int:
    """Whose turn starts a round: the Sheriff (3 players: the Deputy, who plays first), or the
    next living player after them once they are gone."""
    first = next(p.seat for p in state.players
                 if p.role == (DEPUTY if state.three_player else SHERIFF))
    return first if state.players[first].alive else next_alive(state, first)


#: `_ROUND[n][seat]`: the n seats in order from `seat`, clockwise.
_ROUND: Final = [tuple(tuple((seat + i) % n for i in range(n)) for seat in range(n))
                 for n in range(8)]


def seats_from(state: GameState, seat: int) -> list[int]:
    """Living players in seat order starting with `seat` itself (if alive) and going clockwise."""
    players = state.players
    n = len(players)
    order = _ROUND[n][seat] if n < len(_ROUND) else [(seat + i) % n for i in range(n)]
    return [s for s in order if players[s].alive]


#: Seat distances by which seats are alive: a game only ever has a few such patterns.
_RINGS: Final[dict[tuple[bool, ...], tuple[tuple[int, ...], ...]]] = {}


def _ring(state: GameState) -> tuple[tuple[int, ...], ...]:
    """`_ring(state)[a][b]`: the seats between a and b among the living, the shorter way
    round (for a dead a or b: counting every seat)."""
    alive = tuple([p.alive for p in state.players])
    ring = _RINGS.get(alive)
    if ring is None:
        ring = _RINGS[alive] = tuple(
            tuple(_seats_between(alive, a, b) for b in range(len(alive)))
            for a in range(len(alive)))
    return ring


def _seats_between(alive: tuple[bool, ...], a: int, b: int) -> int:
    if a == b:
        return 0
    if not (alive[a] and alive[b]):
        n, clockwise = len(alive), (b - a) % len(alive)
    else:
        n = sum(alive)
        low, high = min(a, b), max(a, b)
        between = sum(alive[low + 1:high])
        clockwise = between + 1 if a < b else n - between - 1
    return min(clockwise, n - clockwise)


def base_distance(state: GameState, a: int, b: int) -> int:
    """Seats between a and b among the living, the shorter way round."""
    return _ring(state)[a][b]


def _seen_from(state: GameState, seen: Player) -> int:
    """What `seen` adds to every distance to it: a Mustang, and the ability's `cover`."""
    return has_in_play(seen, "mustang") + player_ability(state, seen).cover


def _sight(state: GameState, seer: Player) -> int:
    """What `seer` takes off every distance: a Scope, and the ability's `sight`."""
    return has_in_play(seer, "scope") + player_ability(state, seer).sight


class Unchanged:
    """`with Unchanged(state):` promises that `state` does not change inside the block (the
    options of a decision are being worked out), so `distance` works out each seat's row
    once and `reach` each seat's reach once, and read them from there. Outside such a
    block, or for another state, nothing is kept: a state changes in many places, and a
    cache could not tell when.

    Only the innermost block keeps what it worked out, and leaving a block forgets it unless
    another block came in since (then it is that block's to forget): whatever the order
    blocks are left in, even from several threads, nothing outlives its block."""

    __slots__ = ("_kept",)

    def __init__(self, state: GameState) -> None:
        self._kept = _Kept(state)

    def __enter__(self) -> None:
        global _unchanged
        _unchanged = self._kept  # one object, read at once: never half another block's

    def __exit__(self, *exc: object) -> None:
        global _unchanged
        if _unchanged is self._kept:
            _unchanged = None


class _Kept:
    """What an `Unchanged` block has worked out for its state: rows of distances and
    reaches, by seat."""

    __slots__ = ("state", "rows", "reaches")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.rows: dict[int, list[int]] = {}
        self.reaches: dict[int, int] = {}


#: What the innermost `Unchanged` block keeps.
_unchanged: _Kept | None = None


def distance(state: GameState, a: int, b: int) -> int:
    """How far `a` sees `b`: Mustang and Paul Regret add, Scope and Rose Doolan subtract."""
    kept = _unchanged
    if kept is not None and kept.state is state:
        row = kept.rows.get(a)
        if row is None:
            row = kept.rows[a] = distances_from(state, a)
        return row[b]
    seer, seen = state.players[a], state.players[b]
    return max(_ring(state)[a][b] + _seen_from(state, seen) - _sight(state, seer), 1)


def distances_from(state: GameState, a: int) -> list[int]:
    """`distance(state, a, b)` for every seat b (1 for a itself: callers leave it out)."""
    players = state.players
    ring, sight = _ring(state)[a], _sight(state, players[a])
    row = []
    for p in players:  # a loop, not max() in a comprehension: the options start here
        d = ring[p.seat] + _seen_from(state, p) - sight
        row.append(d if d > 1 else 1)
    return row


def reach(state: GameState, seat: int) -> int:
    """How far `seat` shoots: the weapon's reach, 1 without one."""
    kept = _unchanged
    if kept is not None and kept.state is state:
        found = kept.reaches.get(seat)
        if found is None:
            found = kept.reaches[seat] = _reach(state, seat)
        return found
    return _reach(state, seat)


def _reach(state: GameState, seat: int) -> int:
    weapon = weapon_of(state.players[seat])
    return WEAPON_REACH[KEY[weapon]] if weapon is not None else 1


def may_bang(state: GameState, seat: int) -> bool:
    """Whether `seat` may still play a BANG! card this turn."""
    limit = rulebook(state).bang_limit(state, seat)
    return limit is None or state.bangs_played < limit


def barrel_draws(state: GameState, seat: int) -> int:
    """How many Barrel "draw!"s this player gets against one BANG!."""
    return has_in_play(state.players[seat], "barrel") + ability(state, seat).barrels
