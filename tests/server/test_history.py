"""`history`: the game so far, page by page, for the reader's eyes only, within the size
classes and the budgets."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec
import pytest
from hostkit import WireClient, raw_of
from test_server_host import play_one, start, table

from server.host import HISTORY_BURST, Host
from server.store import Store
from shared import crypto
from shared import protocol as p
from shared.events import redact, time_up
from shared.model import Event
from shared.record import replay


def whole(client: WireClient, room: str, start: int = 0) -> tuple[list[p.HistoryPage], list]:
    """Every page from `start` on, as a client pages through them; and their events."""
    pages: list[p.HistoryPage] = []
    events: list[Event] = []
    while True:
        page = client.reply(p.History(room=room, start=start + len(events)))
        assert isinstance(page, p.HistoryPage), page
        pages.append(page)
        events += page.events
        if not page.events or start + len(events) >= page.total:
            return pages, events


def recorded(host: Host, room: str) -> list[Event]:
    """The game's events as `bang replay` gives them from the stored record."""
    out: list[Event] = []
    record = host.store.game_record(room)
    assert record is not None
    replay(record, on_event=lambda _index, event: out.append(event))
    return out


def played(host: Host, clients: list[WireClient], room: str, moves: int) -> None:
    for _ in range(moves):
        if host.rooms[room].status != "playing":
            return
        play_one(host, clients, room)


def sizes_of(host: Host, client: WireClient, since: int) -> list[int]:
    """The plaintext sizes of the sealed messages on `client`'s outbox from item `since`."""
    out = []
    for item in raw_of(host, p.outbox_topic(client.cid))[since:]:
        envelope = p.decode_outbound(item.payload)
        if isinstance(envelope, p.Sealed):
            out.append(len(envelope.box) - 28)  # nonce and tag
    return out


async def test_a_spectator_gets_the_public_game_so_far(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    played(host, clients, room, 30)
    eve = WireClient(host)
    _, events = whole(eve, room)
    game = recorded(host, room)
    assert events == [redact(e, None) for e in game]
    assert events[0].kind == "game_start"
    assert all(e.cards == () for e in events if e.private_to)  # counts only


async def test_a_seat_sees_its_own_private_cards_and_nobody_elses(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    played(host, clients, room, 30)
    game = recorded(host, room)
    for seat, client in enumerate(clients):
        _, events = whole(client, room)
        assert events == [redact(e, seat) for e in game]
    # Some private cards were shown to their seat, and to no one else.
    private = [e for e in game if e.private_to and e.cards]
    assert private
    stranger = WireClient(host, crypto.ClientKey.generate())
    _, seen = whole(stranger, room)
    assert all(e.cards == () for e in seen if e.private_to)


async def test_pages_fit_their_class_and_do_not_depend_on_the_reader(host: Host) -> None:
    clients, room = table(host, players=7, turn_timeout=0)
    start(clients, room)
    played(host, clients, room, 600)  # defaults only: nobody shoots, the game goes on
    game = host.rooms[room].events
    eve = WireClient(host)
    before = len(raw_of(host, p.outbox_topic(eve.cid)))
    spectator, events = whole(eve, room)
    assert len(events) == len(game) and len(spectator) >= 2
    sizes = sizes_of(host, eve, before)
    assert len(sizes) == len(spectator)
    done = 0
    for page, size in zip(spectator, sizes, strict=True):
        assert page.seq == host.rooms[room].record.seq and page.total == len(game)
        # Measured with every card shown: it fits, its class is the smallest that holds it,
        # and a page that is not the last had no room for the next event.
        full = game[done : done + len(page.events)]
        done += len(page.events)
        estimate = len(p.encode(msgspec.structs.replace(page, events=full))) + 2
        assert size == p.smallest_class(estimate - 2) and estimate <= size
        if done < len(game):
            assert estimate + len(p.encode(game[done])) + 2 > p.REPLY_CLASSES[-1]
    seat, _ = whole(clients[3], room)
    assert [len(page.events) for page in seat] == [len(page.events) for page in spectator]


async def test_a_page_from_where_the_reader_is(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    played(host, clients, room, 10)
    eve = WireClient(host)
    _, events = whole(eve, room)
    played(host, clients, room, 5)
    pages, more = whole(eve, room, start=len(events))
    assert pages[0].start == len(events)
    assert events + more == [redact(e, None) for e in recorded(host, room)]
    beyond = eve.reply(p.History(room=room, start=10**6))
    assert beyond.events == [] and beyond.start == 10**6 and beyond.total == len(events + more)


async def test_before_the_game_the_history_is_empty(host: Host) -> None:
    _, room = table(host)
    page = WireClient(host).reply(p.History(room=room))
    assert (page.events, page.total, page.start) == ([], 0, 0)


async def test_bad_history_requests_get_one_error_each(host: Host) -> None:
    eve = WireClient(host)
    assert eve.reply(p.History(room="nowhere")).code == "no_room"
    clients, room = table(host)
    start(clients, room)
    assert eve.reply(p.History(room=room, start=-1)).code == "invalid"
    assert eve.reply(p.History(room=room, start=2**63)).code == "invalid"
    assert eve.reply(p.History(room="../#")).code == "invalid"


async def test_a_stranger_asking_again_and_again_is_refused_and_nobody_else(host: Host) -> None:
    clients, room = table(host)
    start(clients, room)
    pest = WireClient(host)
    answers = [pest.reply(p.History(room=room)) for _ in range(int(HISTORY_BURST) + 5)]
    refused = [a for a in answers if isinstance(a, p.Error)]
    assert refused and {a.code for a in refused} == {"history_limited"}
    assert all(isinstance(a, p.HistoryPage) for a in answers[: int(HISTORY_BURST)])
    assert isinstance(WireClient(host).reply(p.History(room=room)), p.HistoryPage)
    play_one(host, clients, room)  # the host goes on


@pytest.mark.both_backends
async def test_time_up_is_in_the_history_and_a_restart_keeps_it(
        host: Host, store: Store, reopen) -> None:
    """The engine's events as the record replays them, and the host's `time_up` in its place:
    before the events of the default it applied."""
    clients, room = table(host, turn_timeout=30)
    start(clients, room)
    played(host, clients, room, 5)
    decision = host.rooms[room].state.pending
    seen = len(host.rooms[room].events)
    host._timeout(room, decision.id)
    played(host, clients, room, 5)
    _, before = whole(clients[0], room)
    assert [e.kind for e in before].count("time_up") == 1
    assert before[seen] == time_up(decision.seat, decision.default)
    assert [e for e in before if e.kind != "time_up"] == \
        [redact(e, 0) for e in recorded(host, room)]
    host.flush()
    store.close()
    again = Host(reopen(), bot_delay=0.0)
    clients[0].move_to(again)
    _, after = whole(clients[0], room)
    assert after == before
    again.store.close()


async def test_a_data_file_from_before_stored_timeouts_still_loads(
        host: Host, store: Store, tmp_path: Path) -> None:
    """Its actions table has no `timed_out` column: the host adds it and replays the games."""
    clients, room = table(host, turn_timeout=30)
    start(clients, room)
    played(host, clients, room, 5)
    _, before = whole(clients[0], room)
    host.flush()
    store.close()
    path = tmp_path / "host.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE old AS SELECT room, n, seat, decision, action FROM actions;
        DROP TABLE actions;
        CREATE TABLE actions (room TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
            decision INTEGER, action BLOB NOT NULL, PRIMARY KEY (room, n));
        INSERT INTO actions SELECT * FROM old;
        DROP TABLE old;
    """)
    db.close()
    again = Host(Store(path), bot_delay=0.0)
    for client in clients:
        client.move_to(again)
    _, after = whole(clients[0], room)
    assert after == before
    stored = again.store.action_count(room)
    play_one(again, clients, room)  # and it stores new actions
    assert again.store.action_count(room) > stored
    again.store.close()
