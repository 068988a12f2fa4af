"""The log keeps its history: after a watch, a reconnection, a host restart or a rejoin, the
log holds the game so far (the host's `history`), every event once; and an action confirmed
while the link is down is sent when it is back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from client_helpers import Player, ThreadedServer, lobby_app, table_of, until

from client.embedded import EmbeddedServer
from client.net import Remote, RemoteError, TableUpdate
from client.net.tables import TableUpdate as Update
from client.remote_session import LogFeed, RemoteSession
from client.screens.lobby import LobbyIntent
from client.session import Notice, Refused, SessionEvent, StatusChanged, ViewUpdate
from client.widgets.log import GameLog
from shared import protocol as p
from shared.describe import describe
from shared.events import redact
from shared.model import Action, Event
from shared.views import TableView

# --- the bookkeeping alone ------------------------------------------------------------------

INFO = p.RoomInfo(id="r", name="Saloon", status="playing", options=p.RoomOptions(), seats=[])
VIEW = TableView(viewer=None, players=[], turn=0, turn_number=1, deck_count=0,
                 discard_count=0, discard_top=None, three_player=False)


def ev(kind: str, value: int | None = None) -> Event:
    return Event(kind=kind, value=value)


def upd(seq: int, *events: Event, snapshot: bool = False,
        view: TableView | None = VIEW) -> Update:
    return Update("r", seq, None, INFO, view, tuple(events), snapshot)


def page(seq: int, start: int, *events: Event) -> p.HistoryPage:
    return p.HistoryPage(ref=1, room="r", seq=seq, start=start, total=start + len(events),
                         events=list(events))


def test_a_game_seen_from_its_deal_needs_no_history() -> None:
    feed = LogFeed()
    assert feed.on_update(upd(3, view=None, snapshot=True)) == ((), False)
    deal = (ev("game_start"), ev("turn_start"))
    assert feed.on_update(upd(4, *deal)) == (deal, False)
    assert feed.on_update(upd(5, ev("draw"))) == ((ev("draw"),), False)
    assert (feed.count, feed.seq) == (3, 5)
    assert feed.on_update(upd(5, snapshot=True)) == ((), False)  # nothing skipped


def test_a_game_under_way_is_told_from_the_start_then_live() -> None:
    feed = LogFeed()
    assert feed.on_update(upd(10, snapshot=True)) == ((), True)
    assert feed.on_update(upd(11, ev("a"))) == ((), False)  # held
    assert feed.on_update(upd(12, ev("time_up"), ev("b"))) == ((), False)
    # The history was read after change 11: change 12 is the only one it lacks.
    events, again = feed.on_history(page(11, 0, ev("x"), ev("y"), ev("a")))
    assert events == (ev("x"), ev("y"), ev("a"), ev("time_up"), ev("b")) and not again
    assert (feed.count, feed.seq) == (5, 12)  # time_up is in the history: counted
    assert feed.on_update(upd(13, ev("game_stopped"))) == ((ev("game_stopped"),), False)
    assert feed.count == 5  # game_stopped is not


def test_a_reconnection_asks_only_for_what_was_missed() -> None:
    feed = LogFeed()
    feed.on_update(upd(1, view=None))
    feed.on_update(upd(2, ev("game_start"), ev("b")))
    assert feed.on_update(upd(7, snapshot=True)) == ((), True)
    assert feed.count == 2  # the next history starts there
    events, _ = feed.on_history(page(7, 2, ev("c"), ev("d")))
    assert events == (ev("c"), ev("d"))
    assert feed.on_update(upd(7)) == ((), False)  # a late delta already in the history


def test_a_second_gap_while_the_history_comes_asks_again() -> None:
    feed = LogFeed()
    feed.on_update(upd(5, snapshot=True))
    feed.on_update(upd(9, snapshot=True))  # another snapshot, past what the history holds
    feed.on_update(upd(10, ev("z")))
    events, again = feed.on_history(page(6, 0, ev("a")))
    assert events == (ev("a"),) and again and feed.fetching
    events, again = feed.on_history(page(10, 1, ev("b"), ev("z")))
    assert events == (ev("b"), ev("z")) and not again


def test_a_history_that_cannot_be_had_leaves_live_lines() -> None:
    feed = LogFeed()
    feed.on_update(upd(5, snapshot=True))
    feed.on_update(upd(6, ev("a")))
    assert feed.on_history(None) == ((ev("a"),), False)
    assert feed.count is None
    assert feed.on_update(upd(9, snapshot=True)) == ((), False)  # no more asking
    assert feed.on_update(upd(10, ev("b"))) == ((ev("b"),), False)


# --- against the real host ------------------------------------------------------------------


def host_events(host: ThreadedServer, room: str, seat: int | None) -> list[Event]:
    """The game so far as the host keeps it, as `seat` may see it."""
    assert host.server.host is not None
    return [redact(e, seat) for e in host.server.host.rooms[room].events]


def logged(events: list[SessionEvent]) -> list[Event]:
    """What a session gave the log, without the host's `game_stopped` (not in the history)."""
    return [e for u in events if isinstance(u, ViewUpdate) for e in u.events
            if e.kind != "game_stopped"]


async def collect(session: RemoteSession, into: list[SessionEvent]) -> None:
    async for event in session.events():
        into.append(event)


async def eventually(condition: Callable[[], object], what: str, timeout: float = 20) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)
    assert condition(), what


async def bob_at_a_table(bob: Player, seats: int = 4) -> str:
    """Bob's room with bots, started, at Bob's first decision (no clock: it waits for him)."""
    room = await bob.remote.create_room("Saloon", seats=seats, turn_timeout=0)
    await bob.remote.join(room.id, "Bob")
    await bob.remote.start(room.id, bots=True)
    await bob.my_turn(room.id)
    return room.id


async def play(bob: Player, room: str, moves: int) -> None:
    for _ in range(moves):
        view = await bob.my_turn(room)
        if view.winner:
            return
        await bob.act(room, view.default)


def log_of(table, events: list[Event]) -> list[str]:  # noqa: ANN001
    """The lines a spectator's table writes for `events`, in its language."""
    english = [describe(e, table.view, None) for e in events]
    return table.i18n.log_lines(english, events, table.view, None)


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_spectator_mid_game_reads_the_game_so_far(host, config_dir: Path,  # noqa: ANN001
                                                          tmp_path: Path, lang: str) -> None:
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob_at_a_table(bob)
        await play(bob, room, 3)
        await bob.my_turn(room)
        app = lobby_app(host.url, config_dir, "Eve", LobbyIntent(watch=room), spectator=True,
                        lang=lang)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: table_of(app) is not None and table_of(app).view,
                        what="the watched table")
            table = table_of(app)
            game = host_events(host, room, None)
            assert game[0].kind == "game_start"
            lines = log_of(table, game)
            if lang == "it":
                assert lines[0] != describe(game[0], table.view, None)
            log = table.query_one(GameLog)
            await until(pilot, lambda: log.text() == "\n".join(lines),
                        what="the log of the game so far, each line once")
            for _ in range(20):  # then live lines follow, once the game has moved on
                await play(bob, room, 1)
                await bob.my_turn(room)
                if len(host_events(host, room, None)) > len(game):
                    break
            await until(pilot, lambda: log.text() == "\n".join(
                log_of(table, host_events(host, room, None))),
                what="history and live lines, each once")
            assert len(log.text().splitlines()) > len(lines)


async def session_of(remote: Remote, room: str, seat: int | None,
                     into: list[SessionEvent]) -> tuple[RemoteSession, asyncio.Task[None]]:
    session = RemoteSession(remote, room, seat)
    reader = asyncio.create_task(collect(session, into))
    await session.start()
    return session, reader


def turn_of(seen: list[SessionEvent], seat: int | None, answered: int | None) -> TableView | None:
    """The latest view, when it asks `seat` a decision other than `answered`."""
    views = [e.view for e in seen if isinstance(e, ViewUpdate)]
    view = views[-1] if views else None
    if view is None or view.pending is None or view.pending.seat != seat \
            or view.pending.id == answered:
        return None
    return view


async def play_seated(session: RemoteSession, seen: list[SessionEvent], moves: int) -> int:
    """Answer `moves` decisions of the session's seat with their defaults, from its views;
    the last one's id."""
    answered = -1
    for _ in range(moves):
        await eventually(partial(turn_of, seen, session.seat, answered), "the seat's turn", 30)
        view = turn_of(seen, session.seat, answered)
        assert view is not None and view.pending is not None and view.default is not None
        answered = view.pending.id
        await session.act(view.default, view.pending.id)
    return answered


async def test_a_player_back_from_a_host_restart_has_every_line_once(
        host, tmp_path: Path) -> None:  # noqa: ANN001
    """The seat's own private cards included; the moves made while it was away filled in,
    none twice."""
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob_at_a_table(bob)
        seen: list[SessionEvent] = []
        session, reader = await session_of(bob.remote, room, 0, seen)
        await play_seated(session, seen, 2)
        await eventually(lambda: logged(seen) == host_events(host, room, 0),
                         "the log before the restart")
        host.restart()  # every link drops and comes back
        await eventually(lambda: any(isinstance(e, StatusChanged) and e.status ==
                                     "reconnecting" for e in seen), "the drop")
        await play_seated(session, seen, 3)
        await eventually(lambda: logged(seen) == host_events(host, room, 0),
                         "every event once, in order")
        assert [e for e in logged(seen) if e.kind == "game_start"] == \
            [host_events(host, room, 0)[0]]
        await session.close()
        reader.cancel()


async def test_changes_missed_by_a_seated_player_come_once(host, tmp_path: Path) -> None:  # noqa: ANN001, E501
    """The room's deltas stop reaching Bob while the bots play on (as in a short drop): the
    snapshot that follows brings the missed moves from the history, and nothing twice."""
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob_at_a_table(bob)
        seen: list[SessionEvent] = []
        session, reader = await session_of(bob.remote, room, 0, seen)
        last = await play_seated(session, seen, 1)
        game = host.server.host.rooms[room]
        await eventually(lambda: game.state.pending.id != last, "Bob's move applied")
        await eventually(lambda: logged(seen) == host_events(host, room, 0), "the log so far")
        before = len(logged(seen))
        client = bob.remote._client
        assert client is not None
        await client.unsubscribe(p.room_topic(room))
        async with asyncio.timeout(30):  # Bob moves (from the host's state, his view stands
            while len(game.events) == before or game.state.pending.seat != 0 \
                    or game.state.pending.id == last:  # still), until the bots moved too
                pending = game.state.pending
                if pending.seat == 0 and pending.id != last:
                    last = pending.id
                    await bob.remote.act(room, pending.id, pending.default)
                else:
                    await asyncio.sleep(0.02)
        assert len(logged(seen)) == before  # the room's deltas did not come
        await client.subscribe(p.room_topic(room), qos=1)
        await bob.remote.snapshot(room)
        await eventually(lambda: logged(seen) == host_events(host, room, 0),
                         "the missed moves, each once")
        assert len(logged(seen)) > before
        await session.close()
        reader.cancel()


async def test_a_seat_taken_back_from_the_lobby_reads_its_own_cards(
        host, config_dir: Path, tmp_path: Path) -> None:  # noqa: ANN001
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob_at_a_table(bob)

        def private(mine: bool) -> list[Event]:
            return [e for e in host_events(host, room, 0)
                    if e.private_to and (0 in e.private_to) == mine]

        for _ in range(50):  # until Bob and the others have drawn cards
            await play(bob, room, 1)
            if private(True) and private(False):
                break
        await bob.my_turn(room)
        # Bob's seat again, from a second process with the same key: the session starts from
        # the snapshot the lobby opened the table with.
        again = Remote(host.url, config_dir=tmp_path / "bob")
        async with again:
            await again.wait_connected()
            assert again.seats == {room: 0}
            first = None
            async for update in again.updates():
                if isinstance(update, TableUpdate) and update.room == room and update.view:
                    first = update
                    break
            seen: list[SessionEvent] = []
            session = RemoteSession(again, room, 0, first=first)
            reader = asyncio.create_task(collect(session, seen))
            await session.start()
            mine = host_events(host, room, 0)
            await eventually(lambda: logged(seen) == mine, "Bob's log, his cards shown")
            assert private(True) and all(e.cards for e in private(True))
            others = [e for e in logged(seen) if e.private_to and 0 not in e.private_to]
            assert others and all(e.cards == () for e in others)
            await session.close()
            reader.cancel()


async def test_a_move_confirmed_while_the_link_is_down_is_sent_when_it_is_back(
        host, tmp_path: Path) -> None:  # noqa: ANN001
    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob_at_a_table(bob)
        seen: list[SessionEvent] = []
        session, reader = await session_of(bob.remote, room, 0, seen)
        view = await bob.my_turn(room)
        decision = view.pending.id
        bob.remote.request_timeout = 0.2
        host.run(host.server.stop())  # the broker and the host are gone
        await eventually(lambda: not bob.remote.connected, "the link down")
        await session.act(view.default, decision)
        await eventually(lambda: Notice("move_queued") in seen, "the player told")
        await asyncio.sleep(1.0)  # far past the time a request waits for an answer
        host.server = EmbeddedServer(host.data, port=host.port, bot_delay=0.05)
        host.run(host.server.start())
        await eventually(lambda: host.server.host.rooms[room].state.pending.id != decision,
                         "the move applied", 30)
        assert not [e for e in seen if isinstance(e, Refused | Notice)
                    and e != Notice("move_queued")]
        await session.close()
        reader.cancel()


@pytest.mark.parametrize(("code", "told"), [
    ("unreachable", [Notice("move_not_sent")]),  # it may never have reached the host
    ("applied", []),  # it went through; only its answer was lost
    ("stale", [Refused("too late", "stale")]),
])
async def test_what_the_player_is_told_when_a_move_fails(tmp_path: Path, code: str,
                                                         told: list[SessionEvent]) -> None:
    class Failing(Remote):
        connected = True

        async def act(self, room: str, decision: int, action: Action,
                      patient: bool = False) -> None:
            assert patient
            raise RemoteError(code, "too late")

    session = RemoteSession(Failing("mqtt://127.0.0.1:1", config_dir=tmp_path), "r", 0)
    await session.act(Action("end_turn"), 3)
    await asyncio.gather(*session._tasks)
    seen: list[SessionEvent] = []
    while not session._queue.empty():
        seen.append(session._queue.get_nowait())
    assert seen == told


async def test_a_history_asked_too_fast_is_asked_again(host, config_dir: Path,  # noqa: ANN001
                                                      tmp_path: Path) -> None:
    """The host's budget for history pages is spent just before the spectator's first page:
    refused (`history_limited`), it is asked again a second later and the log is whole."""
    refusals: list[str] = []

    class Hurried(Remote):
        async def history(self, room: str, start: int = 0) -> p.HistoryPage:
            if not refusals:  # spend the budget first, up to its first refusal
                while True:
                    try:
                        await self.request(p.History(room=room, start=0))
                    except RemoteError as refusal:
                        assert refusal.code == "history_limited"
                        break
            try:
                return await super().history(room, start)
            except RemoteError as refusal:
                refusals.append(refusal.code)
                raise

    async with Player(host.url, tmp_path / "bob") as bob:
        room = await bob_at_a_table(bob)
        await play(bob, room, 3)
        remote = Hurried(host.url, config_dir=tmp_path / "eve")
        await remote.__aenter__()
        await remote.wait_connected()
        seen: list[SessionEvent] = []
        session, reader = await session_of(remote, room, None, seen)
        await eventually(lambda: logged(seen) == host_events(host, room, None),
                         "the whole game so far")
        assert refusals == ["history_limited"]
        await session.close()
        reader.cancel()
        await remote.close()
