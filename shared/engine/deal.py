"""Dealing a new game from a Setup, optionally rigged by a Scenario."""

from __future__ import annotations

from collections.abc import Iterable

from shared import rng
from shared.cards import ALL_CARD_IDS, KEY
from shared.characters import CHARACTER_POOLS, CHARACTERS
from shared.engine.errors import SetupError
from shared.engine.machine import Engine
from shared.engine.refs import resolve
from shared.invariants import problems
from shared.model import STATE_VERSION, Event, GameState, Player, TurnFrame
from shared.roles import DEPUTY, MAX_PLAYERS, MIN_PLAYERS, ROLE_DEAL, SHERIFF
from shared.rulebook import has_ability
from shared.setup import Scenario, Setup


def _check_setup(setup: Setup) -> int:
    n = setup.players
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise SetupError(f"BANG! is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    if setup.pool not in CHARACTER_POOLS:
        raise SetupError(f"unknown character pool {setup.pool!r}: use 'base' or 'all'")
    if setup.names and len(setup.names) != n:
        raise SetupError(f"{len(setup.names)} names given for {n} players")
    if setup.characters is not None:
        if len(setup.characters) != n:
            raise SetupError(f"{len(setup.characters)} characters given for {n} players")
        unknown = [c for c in setup.characters if c not in CHARACTERS]
        if unknown:
            raise SetupError(f"unknown character(s): {', '.join(unknown)}")
        if len(set(setup.characters)) != n:
            raise SetupError("each character can be dealt only once")
    if setup.roles is not None and sorted(setup.roles) != sorted(ROLE_DEAL[n]):
        raise SetupError(
            f"roles for {n} players must be {', '.join(sorted(ROLE_DEAL[n]))}, "
            f"not {', '.join(sorted(setup.roles))}"
        )
    return n


def new_game(setup: Setup, scenario: Scenario | None = None,
             state_type: type[GameState] = GameState, version: int = STATE_VERSION) -> GameState:
    """Deal a game and advance it to its first decision."""
    return start_game(setup, scenario, state_type, version)[0]


def start_game(setup: Setup, scenario: Scenario | None = None,
               state_type: type[GameState] = GameState,
               version: int = STATE_VERSION) -> tuple[GameState, list[Event]]:
    """Deal a game, advance it to its first decision, and return the events of that start.
    `state_type`: a `GameState` subclass plays by its own rulebook (shared.rulebook).
    `version`: the rules revision (`shared.model.STATE_VERSION`; a record's `version`)."""
    n = _check_setup(setup)
    state_rng = rng.seed_state(setup.seed)
    roles = list(setup.roles) if setup.roles is not None else list(ROLE_DEAL[n])
    if setup.roles is None:
        state_rng = rng.shuffle(state_rng, roles)
    if setup.characters is not None:
        characters = list(setup.characters)
    else:
        pool = list(CHARACTER_POOLS[setup.pool])
        state_rng = rng.shuffle(state_rng, pool)
        characters = pool[:n]
    names = list(setup.names) or [f"Player {i + 1}" for i in range(n)]
    players = []
    for seat in range(n):
        life = CHARACTERS[characters[seat]].life + (roles[seat] == SHERIFF)
        players.append(Player(seat, names[seat], characters[seat], roles[seat], life, life, [], []))
    deck = list(ALL_CARD_IDS)
    state_rng = rng.shuffle(state_rng, deck)
    first = roles.index(DEPUTY if n == 3 else SHERIFF)
    state = state_type(
        version=version,
        rng=state_rng,
        players=players,
        deck=deck,
        discard=[],
        stack=[TurnFrame(first)],
        turn=first,
        three_player=n == 3,
    )
    if scenario is not None:
        _rig(state, scenario)
        _check_rig(state)
    else:
        _deal_hands(state, range(n))
    engine = Engine(state)
    engine.emit("game_start", count=n)
    engine.run()
    return state, engine.events


def _hand_size(state: GameState, seat: int) -> int:
    return 5 if has_ability(state, seat, "big_spencer") else state.players[seat].life


def _deal_hands(state: GameState, seats: Iterable[int]) -> None:
    for seat in seats:
        p = state.players[seat]
        for _ in range(_hand_size(state, seat)):
            p.hand.append(state.deck.pop())


def _check_rig(state: GameState) -> None:
    """A rigged table must still be a position the rules allow."""
    found = [line for line in problems(state) if "decision" not in line]
    for p in state.players:
        if p.role == SHERIFF and any(KEY[c] == "jail" for c in p.in_play):
            found.append(f"{p.name} is the Sheriff and cannot be in Jail")
    if found:
        raise SetupError("the scenario breaks the rules: " + "; ".join(found))


def _rig(state: GameState, scenario: Scenario) -> None:
    n = len(state.players)
    if len(scenario.seats) > n:
        raise SetupError(f"the scenario rigs {len(scenario.seats)} seats at a table of {n}")
    free = list(range(len(ALL_CARD_IDS)))

    def take(ref: str | int) -> int:
        card = resolve(ref, free)
        free.remove(card)
        return card

    unrigged_hands = []
    for seat, rig in enumerate(scenario.seats):
        p = state.players[seat]
        p.in_play = [take(ref) for ref in rig.in_play]
        if rig.hand is None:
            unrigged_hands.append(seat)
        else:
            p.hand = [take(ref) for ref in rig.hand]
        if rig.life is not None:
            if not 1 <= rig.life <= p.max_life:
                raise SetupError(f"seat {seat}: life {rig.life} is outside 1..{p.max_life}")
            p.life = rig.life
    unrigged_hands += range(len(scenario.seats), n)
    top = [take(ref) for ref in scenario.deck]
    state.discard = [take(ref) for ref in scenario.discard]
    # Whatever is left is shuffled (the state's own generator already shuffled `deck`).
    still_free = set(free)
    rest = [c for c in state.deck if c in still_free]
    state.deck = rest
    _deal_hands(state, unrigged_hands)
    if scenario.only_deck:
        state.discard = state.deck + state.discard
        state.deck = []
    state.deck.extend(reversed(top))
    if scenario.turn is not None:
        if not 0 <= scenario.turn < n:
            raise SetupError(f"turn {scenario.turn} is not a seat of this table")
        state.turn = scenario.turn
    if scenario.start not in ("start", "play"):
        raise SetupError("scenario start must be 'start' or 'play'")
    first = TurnFrame(state.turn)
    state.stack = [first]
    if scenario.start == "play":
        first.step = "play"
        state.turn_number = 1
