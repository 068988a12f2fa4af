"""Whole games between bots, with every invariant checked after every action.

Used by `bang simulate` (the engine benchmark) and by the randomised tests."""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from shared import rng
from shared.bots import Bot, make_bot
from shared.driver import GameDriver, GameFailed
from shared.engine import start_game
from shared.invariants import problems
from shared.model import Action, Event, GameState
from shared.record import RECORD_VERSION, GameRecord, move_of
from shared.setup import HighNoonOptions, Setup
from shared.views import TableView

TURN_CAP = 1000


class Tally(TypedDict):
    games: int
    wins: int
    rate: float


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
    wins: Counter[str | None] = field(default_factory=Counter)
    #: (bot kind, role) -> [games, wins]
    seats: defaultdict[tuple[str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0]))
    #: bot kind -> seconds per decision (only when timing is asked for)
    timings: dict[str, list[float]] | None = None

    def record_seats(self, state: GameState, kinds: list[str]) -> None:
        for player, kind in zip(state.players, kinds, strict=True):
            tally = self.seats[(kind, player.role)]
            tally[0] += 1
            tally[1] += player.seat in state.winners

    def by_kind(self) -> dict[str, dict[str, Tally]]:
        """bot kind -> role (and "all") -> games, wins and win rate."""
        table: dict[str, dict[str, Tally]] = {}
        for (kind, role), (games, wins) in sorted(self.seats.items()):
            table.setdefault(kind, {})[role] = {
                "games": games, "wins": wins, "rate": round(wins / games, 3)}
        for roles in table.values():
            games = sum(r["games"] for r in roles.values())
            wins = sum(r["wins"] for r in roles.values())
            roles["all"] = {"games": games, "wins": wins, "rate": round(wins / games, 3)}
        return table

    def decision_ms(self) -> dict[str, dict[str, float]]:
        out = {}
        for kind, times in sorted((self.timings or {}).items()):
            ordered = sorted(times)
            out[kind] = {
                "decisions": len(ordered),
                "median": round(statistics.median(ordered) * 1000, 4),
                "p99": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 4),
                "max": round(ordered[-1] * 1000, 4),
            }
        return out

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games,
            "completed": self.completed,
            "wins": dict(self.wins),
            "by_kind": self.by_kind(),
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games / self.seconds, 1) if self.seconds else 0.0,
            "actions_per_s": round(self.actions / self.seconds) if self.seconds else 0,
            "longest_game_turns": self.longest_game_turns,
            "longest_game_actions": self.longest_game_actions,
        }
        if self.timings is not None:
            data["decision_ms"] = self.decision_ms()
        return data


def _hand_limit_breach(state: GameState, events: Iterable[Event]) -> str | None:
    """The turn_end event records the hand size (value) and life (count) at that moment. (A
    ghost of High Noon's Ghost Town has no hand limit, and is out of the game again after.)"""
    for event in events:
        if event.kind == "turn_end" and event.reason == "discard":
            assert event.value is not None and event.seat is not None  # the engine sets them
            if event.value > event.count and state.players[event.seat].alive:
                name = state.players[event.seat].name
                return f"{name} ended the turn with {event.value} cards and {event.count} life"
    return None


class _Timed:
    """A bot whose decisions are timed; everything else (`observe`) goes to the bot itself."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self._bot = bot
        self._times = times
        among = getattr(bot, "choose_among", None)
        if among is not None:  # the driver asks this instead of `choose`: time it too
            def choose_among(options: tuple[Action, ...]) -> Action | None:
                started = time.perf_counter()
                action: Action | None = among(options)
                if action is not None:  # else `choose` is asked, and timed, next
                    self._times.append(time.perf_counter() - started)
                return action
            self.choose_among = choose_among

    def choose(self, seat_view: TableView) -> Action:
        started = time.perf_counter()
        action = self._bot.choose(seat_view)
        self._times.append(time.perf_counter() - started)
        return action

    def __getattr__(self, name: str) -> object:
        return getattr(self._bot, name)


def play_game(setup: Setup, bot_kinds: list[str], check: bool = True,
              timings: dict[str, list[float]] | None = None) -> tuple[GameState, int]:
    """Play one game to the end; returns the final state and the number of actions.
    Raises InvariantBreach (carrying the game record) on the first broken invariant or an
    engine failure. With `timings`, each decision's duration is appended under its bot kind."""
    state, events = start_game(setup)
    bots: dict[int, Bot] = {
        seat: make_bot(kind, setup.seed * 31 + seat) for seat, kind in enumerate(bot_kinds)}
    if timings is not None:
        bots = {seat: _Timed(bot, timings[bot_kinds[seat]]) for seat, bot in bots.items()}
    driver = GameDriver(state, bots)
    driver.tell(events)
    played: list[tuple[int, Action]] = []  # made into a record only when something breaks

    def record() -> GameRecord:
        return GameRecord(setup=setup, version=RECORD_VERSION,
                          actions=[move_of(s, a) for s, a in played])

    def observe(seat: int, action: Action, events: list[Event]) -> None:
        played.append((seat, action))
        if check:
            found = problems(state)
            breach = _hand_limit_breach(state, events)
            if breach:
                found.append(breach)
            if found:
                raise InvariantBreach("; ".join(found), record())
        if state.turn_number > TURN_CAP:
            raise InvariantBreach(f"the game did not end within {TURN_CAP} turns", record())

    driver.observers.append(observe)
    try:
        driver.run_bots()
    except GameFailed as failure:
        if failure.seat is not None and failure.action is not None:
            played.append((failure.seat, failure.action))
        raise InvariantBreach(failure.reason, record()) from failure
    return state, len(played)


def deal_kinds(stream: int, bots: list[str] | None, n: int) -> tuple[int, list[str]]:
    """The bot kinds of an n-seat game: the first n of `bots` (padded with "random"), dealt to
    the seats in a random order drawn from the run's generator."""
    if not bots:
        return stream, ["random"] * n
    kinds = list(bots[:n]) + ["random"] * (n - len(bots))
    stream = rng.shuffle(stream, kinds)
    return stream, kinds


def simulate(games: int, players: tuple[int, int], seed: int = 0,
             bots: list[str] | None = None, pool: str = "all",
             check: bool = True, timing: bool = False,
             expansions: list[str] | None = None,
             high_noon: HighNoonOptions | None = None) -> SimulationResult:
    """Play `games` games with a player count drawn from the inclusive range `players`, with
    the `expansions` named (shared.setup.EXPANSIONS) and High Noon's options."""
    result = SimulationResult()
    if timing:
        result.timings = defaultdict(list)
    stream = rng.seed_state(seed)
    start = time.perf_counter()
    for _ in range(games):
        stream, n_offset = rng.below(stream, players[1] - players[0] + 1)
        stream, game_seed = rng.next_u64(stream)
        n = players[0] + n_offset
        stream, kinds = deal_kinds(stream, bots, n)
        setup = Setup(players=n, seed=game_seed, pool=pool, expansions=list(expansions or []),
                      high_noon=high_noon)
        state, actions = play_game(setup, kinds, check, result.timings)
        result.record_seats(state, kinds)
        result.games += 1
        result.completed += state.winner is not None
        result.actions += actions
        result.wins[state.winner] += 1
        if state.turn_number > result.longest_game_turns:
            result.longest_game_turns = state.turn_number
        result.longest_game_actions = max(result.longest_game_actions, actions)
    result.seconds = time.perf_counter() - start
    return result
