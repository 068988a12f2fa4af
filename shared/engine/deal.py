"""Dealing a new game from a Setup, optionally rigged by a Scenario."""

from __future__ import annotations

from collections.abc import Iterable

from shared import rng
from shared.cards import ALL_CARD_IDS, KEY
from shared.characters import CHARACTER_POOLS, CHARACTERS
from shared.engine.errors import SetupError
from shared.engine.machine import Engine
from shared.engine.refs import resolve
from shared.high_noon.cards import BONUS, EVENT_CARDS, EVENTS, FINAL
from shared.high_noon.rules import HighNoonState
from shared.invariants import problems
from shared.model import STATE_VERSION, Event, GameState, Player, TurnFrame
from shared.roles import DEPUTY, MAX_PLAYERS, MIN_PLAYERS, ROLE_DEAL, SHERIFF
from shared.rulebook import ability
from shared.setup import HighNoonOptions, Scenario, Setup, expansions_problem


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
    problem = expansions_problem(setup.expansions, setup.high_noon, n)
    if problem is not None:
        raise SetupError(problem)
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
    high_noon = "high_noon" in setup.expansions
    if high_noon and state_type is GameState:
        state_type = HighNoonState
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
    if high_noon:  # after every shuffle of the base game, so that its deals stay the same
        state_rng, events = _event_deck(state_rng, setup)
        state_rng, others = _other_characters(state_rng, setup, characters, events)
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
    if isinstance(state, HighNoonState):
        state.options = setup.high_noon or HighNoonOptions()
        state.event_deck = events
        state.other_character = others
    if scenario is not None:
        _rig(state, scenario)
        _check_rig(state)
    else:
        _deal_hands(state, range(n))
    engine = Engine(state)
    engine.emit("game_start", count=n)
    engine.run()
    return state, engine.events


def _event_deck(state_rng: int, setup: Setup) -> tuple[int, list[str]]:
    """High Noon's event deck: the events shuffled (with the bonus cards by option), the
    first `event_limit` of them kept, High Noon last."""
    options = setup.high_noon or HighNoonOptions()
    events: list[str] = list(EVENTS) + (list(BONUS) if options.bonus else [])
    state_rng = rng.shuffle(state_rng, events)
    if options.event_limit is not None:
        events = events[:options.event_limit]
    return state_rng, events + [FINAL]


def _other_characters(state_rng: int, setup: Setup, characters: list[str],
                      events: list[str]) -> tuple[int, list[str]]:
    """New Identity's second character for each seat, from the characters nobody plays
    (none when the card is not in the event deck)."""
    n = len(characters)
    if "new_identity" not in events:
        return state_rng, [""] * n
    unused = [c for c in CHARACTER_POOLS[setup.pool] if c not in characters]
    state_rng = rng.shuffle(state_rng, unused)
    return state_rng, (unused + [""] * n)[:n]


def _hand_size(state: GameState, seat: int) -> int:
    """Cards dealt: as many as the life points, unless the ability says (Big Spencer: 5)."""
    hand = ability(state, seat).hand
    return state.players[seat].life if hand is None else hand


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
    alive = {p.role for p in state.players if p.alive}
    if (len([p for p in state.players if p.alive]) < 2 if state.three_player
            else SHERIFF not in alive or alive <= {SHERIFF, DEPUTY}):
        found.append("the game would already be over")
    if found:
        raise SetupError("the scenario breaks the rules: " + "; ".join(found))


def _rig_events(state: GameState, scenario: Scenario) -> None:
    """High Noon's scenario keys: the active card, the event deck and the round."""
    rigged = (scenario.event_active, scenario.event_deck, scenario.sheriff_turns)
    if not isinstance(state, HighNoonState):
        if any(value is not None for value in rigged):
            raise SetupError("event_active, event_deck and sheriff_turns need the high_noon "
                             "expansion in the setup")
        return
    named = ([scenario.event_active] if scenario.event_active is not None else []) + \
        list(scenario.event_deck or [])
    unknown = [key for key in named if key not in EVENT_CARDS]
    if unknown:
        raise SetupError(f"unknown event card(s): {', '.join(unknown)}")
    if scenario.event_deck is not None:
        deck = list(scenario.event_deck)
        if FINAL not in deck and scenario.event_active != FINAL:
            deck.append(FINAL)
        if FINAL in deck and deck[-1] != FINAL:
            raise SetupError("high_noon can only be the last card of the event deck")
        state.event_deck = deck
    elif scenario.event_active is not None:
        state.event_deck = [c for c in state.event_deck if c != scenario.event_active]
    if scenario.event_active is not None:
        state.event_active = scenario.event_active
        if scenario.event_active == FINAL:
            state.event_deck = []
    if len(set(named)) < len(named):
        raise SetupError("an event card is named twice")
    if scenario.sheriff_turns is not None:
        if scenario.sheriff_turns < 0:
            raise SetupError(f"sheriff_turns must be 0 or more, not {scenario.sheriff_turns}")
        state.sheriff_turns = scenario.sheriff_turns
    if "new_identity" in state.event_deck + [state.event_active or ""] and \
            not any(state.other_character):
        raise SetupError("new_identity in a rigged event deck needs a game dealt with it: "
                         "set high_noon.bonus in the setup")


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
        if rig.eliminated:
            if p.hand or p.in_play or rig.life is not None:
                raise SetupError(f"seat {seat} is eliminated: it holds no cards and no life")
            if rig.hand is None:
                unrigged_hands.remove(seat)
            p.alive, p.life = False, 0
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
    _rig_events(state, scenario)
    if scenario.start not in ("start", "play"):
        raise SetupError("scenario start must be 'start' or 'play'")
    first = TurnFrame(state.turn)
    state.stack = [first]
    if scenario.start == "play":
        first.step = "play"
        state.turn_number = 1
