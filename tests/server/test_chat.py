"""Table talk on the host: who hears what, who may say what, how much, and what the broker sees."""

from __future__ import annotations

import asyncio
import random

import pytest
from hostkit import Bus, WireClient
from test_server_host import play_one, start, table

from server.host import Host
from server.store import Store
from shared import chat
from shared import protocol as p


def chats(client: WireClient) -> list[p.Chat]:
    """The chat lines this client received since its last read."""
    return [m for m in client.inbox() if isinstance(m, p.Chat)]


def watcher(host: Host, room: str, name: str = "Carl") -> WireClient:
    client = WireClient(host)
    assert isinstance(client.reply(p.Watch(room=room, name=name)), p.Ok)
    client.inbox()
    return client


async def test_table_talk_reaches_the_room_and_answers_the_speaker(host: Host) -> None:
    (ann, bob, cid3, dee), room = table(host)
    carl = watcher(host, room)
    stranger = WireClient(host)
    for client in (bob, cid3, dee):
        client.inbox()
    own = ann.reply(p.Say(room=room, text="Howdy, partners"))
    assert isinstance(own, p.Chat) and own.ref is not None
    assert (own.channel, own.name, own.seat, own.text) == ("table", "P0", 0, "Howdy, partners")
    assert own.key == ann.cid[:p.KEY_ID]
    for client in (bob, cid3, dee, carl):
        [line] = chats(client)
        assert (line.text, line.name, line.ref) == ("Howdy, partners", "P0", None)
    assert chats(stranger) == []


async def test_spectators_talk_among_themselves_not_to_the_living(host: Host) -> None:
    (ann, bob, cid3, dee), room = table(host)
    start([ann, bob, cid3, dee], room)
    carl = watcher(host, room)
    eve = watcher(host, room, name="Eve")
    for client in (ann, bob, cid3, dee):
        client.inbox()
    said = carl.reply(p.Say(room=room, text="the Sheriff is doomed"))
    assert said.channel == "spectators" and said.name == "Carl" and said.seat is None
    assert [c.text for c in chats(eve)] == ["the Sheriff is doomed"]
    for client in (ann, bob, cid3, dee):
        assert chats(client) == []
    # An eliminated player (the engine's `alive` is all chat reads) joins the spectators:
    # they hear them and talk to them, and no longer reach the living.
    host.rooms[room].state.players[1].alive = False
    carl.reply(p.Say(room=room, phrase="nice_shot"))
    assert [c.phrase for c in chats(bob)] == ["nice_shot"]
    assert chats(ann) == []
    line = bob.reply(p.Say(room=room, text="Dee is the Renegade"))
    assert line.channel == "spectators" and line.seat == 1
    assert [c.text for c in chats(carl)] == ["Dee is the Renegade"]
    for client in (ann, cid3, dee):
        assert chats(client) == []
    assert [c.text or c.phrase for c in chats(eve)] == ["nice_shot", "Dee is the Renegade"]
    # Table talk still reaches everyone, the eliminated and the spectators too.
    ann.reply(p.Say(room=room, phrase="not_me"))
    for client in (bob, cid3, dee, carl, eve):
        assert [c.phrase for c in chats(client)] == ["not_me"]


async def test_only_people_in_the_room_may_talk(host: Host) -> None:
    (ann, *_), room = table(host)
    stranger = WireClient(host)
    error = stranger.reply(p.Say(room=room, text="let me in"))
    assert isinstance(error, p.Error) and error.code == "not_in_room"
    assert stranger.reply(p.Say(room="nosuch", text="hi")).code == "no_room"


@pytest.mark.parametrize(("say", "words"), [
    (p.Say(room="abc", text="x" * (chat.TEXT_MAX + 1)), "at most 200"),
    (p.Say(room="abc", text=" \t\n "), "empty"),
    (p.Say(room="abc", text="\u200b\u202e"), "empty"),
    (p.Say(room="abc"), "either a text or a phrase"),
    (p.Say(room="abc", text="hi", phrase="ouch"), "either a text or a phrase"),
    (p.Say(room="abc", phrase="surrender"), "unknown phrase"),
])
async def test_what_cannot_be_said_is_refused_in_one_line(host: Host, say: p.Say,
                                                          words: str) -> None:
    (ann, *_), room = table(host)
    say.room = room
    error = ann.reply(say)
    assert isinstance(error, p.Error) and error.code == "invalid"
    assert words in error.message and "\n" not in error.message


async def test_text_arrives_on_one_visible_line(host: Host) -> None:
    (ann, bob, *_), room = table(host)
    bob.inbox()
    ann.reply(p.Say(room=room, text="  two\nlines\x1b[2J and\u202e a\u200bbidi trick\t "))
    [line] = chats(bob)
    assert line.text == "two lines[2J and abidi trick"
    longest = "\U0001F920" * chat.TEXT_MAX  # 200 cowboys, 4 bytes each: still fits its class
    assert ann.reply(p.Say(room=room, text=longest)).text == longest


async def test_talk_is_rate_limited_per_speaker(host: Host) -> None:
    (ann, bob, *_), room = table(host)
    for n in range(chat.BURST):
        assert isinstance(ann.reply(p.Say(room=room, text=f"line {n}")), p.Chat)
    error = ann.reply(p.Say(room=room, text="one too many"))
    assert isinstance(error, p.Error) and error.code == "chat_limited"
    assert isinstance(bob.reply(p.Say(room=room, text="my turn to talk")), p.Chat)


async def test_the_broker_sees_only_sizes_that_say_nothing(host: Host) -> None:
    """Every request that says something is one size, every line delivered another, whatever
    was said and by whom; and the words are nowhere on the wire."""
    (ann, bob, *_), room = table(host)
    carl = watcher(host, room)
    bus = Bus.of(host)
    sent: list[bytes] = []
    real_send_raw = ann.send_raw
    for client in (ann, carl):
        def capture(payload: bytes, client: WireClient = client) -> list[object]:
            sent.append(payload)
            return WireClient.send_raw(client, payload)
        client.send_raw = capture  # type: ignore[method-assign]
    start_at = len(bus.pump())
    secret = "Bob is the Renegade"
    ann.reply(p.Say(room=room, text=secret))
    ann.reply(p.Say(room=room, text="\U0001F920" * chat.TEXT_MAX))
    ann.reply(p.Say(room=room, phrase="deputy"))
    carl.reply(p.Say(room=room, text="x"))
    ann.send_raw = real_send_raw  # type: ignore[method-assign]
    published = bus.pump()[start_at:]
    assert len({len(payload) for payload in sent}) == 1
    lines = [item for item in published if "/out" in item.topic]
    assert lines and len({len(item.payload) for item in lines}) == 1
    for payload in [*sent, *(item.payload for item in published)]:
        assert secret.encode() not in payload and b"Renegade" not in payload


async def test_bots_talk_only_when_the_table_asks_for_it(store: Store) -> None:
    for bot_talk, expect_lines in ((False, False), (True, True)):
        host = Host(store, bot_delay=0.0, bot_talk=bot_talk)
        host.talk.rng = random.Random(7)
        ann = WireClient(host)
        room = ann.reply(p.CreateRoom(name="Solo", options=p.RoomOptions(seats=4))).room.id
        ann.reply(p.Join(room=room, name="Ann"))
        ann.reply(p.Start(room=room, bots=True))
        heard: list[p.Chat] = []
        for _ in range(3000):
            state = host.rooms[room].state
            heard += chats(ann)
            if state.winner is not None:
                break
            if state.pending.seat == 0:
                play_one(host, [ann], room)
            await asyncio.sleep(0)
        heard += chats(ann)
        assert bool(heard) == expect_lines
        for line in heard:
            assert line.channel == "table" and line.key == "" and line.phrase in chat.PHRASES
            assert host.rooms[room].record.seats[line.seat].kind == "bot"
