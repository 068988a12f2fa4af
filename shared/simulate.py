"""Whole games between bots, with every invariant checked after every action.

Used by `bang simulate` (the engine benchmark) and by the randomised tests."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from shared import rng
from shared.bots import make_bot
from shared.engine import apply, start_game
from shared.invariants import problems
from shared.model import GameState
from shared.record import GameRecord, move_of
from shared.setup import Setup
from shared.views import view

TURN_CAP = 1000


class InvariantBreach(Exception):
    def __init__(self, message: str, record: GameRecord) -> None:
        super().__init__(message)
        self.record = record


@dataclass
class SimulationResult:
    games: int = 0
    completed: int = 0
    actions: int = 0
    seconds: float = 0.0
    longest_game_turns: int = 0
    longest_game_actions: int = 0
    wins: Counter = field(default_factory=Counter)

    def as_json(self) -> dict:
        return {
            "games": self.games,
            "completed": self.completed,
            "wins": dict(self.wins),
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games / self.seconds, 1) if self.seconds else 0.0,
            "actions_per_s": round(self.actions / self.seconds) if self.seconds else 0,
            "longest_game_turns": self.longest_game_turns,
            "longest_game_actions": self.longest_game_actions,
        }


def _hand_limit_breach(state: GameState, events) -> str | None:
    """The turn_end event records the hand size (value) and life (count) at that moment."""
    for event in events:
        if event.kind == "turn_end" and event.note == "discard phase" \
                and event.value > event.count:
            name = state.players[event.seat].name
            return f"{name} ended the turn with {event.value} cards and {event.count} life"
    return None


def play_game(setup: Setup, bot_kinds: list[str], check: bool = True) -> tuple[GameState, int]:
    """Play one game to the end; returns the final state and the number of actions.
    Raises InvariantBreach (carrying the game record) on the first broken invariant."""
    state, _ = start_game(setup)
    bots = [make_bot(kind, setup.seed * 31 + seat) for seat, kind in enumerate(bot_kinds)]
    record = GameRecord(setup=setup)
    actions = 0
    while state.winner is None:
        decision = state.pending
        action = bots[decision.seat].choose(view(state, decision.seat))
        record.actions.append(move_of(decision.seat, action))
        events = apply(state, decision.seat, action)
        actions += 1
        if check:
            found = problems(state)
            breach = _hand_limit_breach(state, events)
            if breach:
                found.append(breach)
            if found:
                raise InvariantBreach("; ".join(found), record)
        if state.turn_number > TURN_CAP:
            raise InvariantBreach(f"the game did not end within {TURN_CAP} turns", record)
    return state, actions


def simulate(games: int, players: tuple[int, int], seed: int = 0,
             bots: list[str] | None = None, pool: str = "all",
             check: bool = True) -> SimulationResult:
    """Play `games` games with a player count drawn from the inclusive range `players`."""
    result = SimulationResult()
    stream = rng.seed_state(seed)
    start = time.perf_counter()
    for _ in range(games):
        stream, n_offset = rng.below(stream, players[1] - players[0] + 1)
        stream, game_seed = rng.next_u64(stream)
        n = players[0] + n_offset
        kinds = bots[:n] if bots else ["random"] * n
        kinds += ["random"] * (n - len(kinds))
        state, actions = play_game(Setup(players=n, seed=game_seed, pool=pool), kinds, check)
        result.games += 1
        result.completed += state.winner is not None
        result.actions += actions
        result.wins[state.winner] += 1
        if state.turn_number > result.longest_game_turns:
            result.longest_game_turns = state.turn_number
        result.longest_game_actions = max(result.longest_game_actions, actions)
    result.seconds = time.perf_counter() - start
    return result
