"""Two hosts of one cluster in one process, sharing a store (no broker: what one host sends
another is handed over by the test, as the broker would). Replays, forwarding, and the notes
and wills between hosts, on both backends."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

import msgspec
import pytest
from hostkit import Bus, WireClient, host_errors

from server import cluster as c
from server.cluster_host import ClusterHost
from server.ratelimit import RateLimiter
from server.store import Store
from shared import crypto
from shared import protocol as p

pytestmark = pytest.mark.both_backends


@pytest.fixture
async def pair(store: Store, reopen: Callable[[], Store]) -> list[ClusterHost]:
    first = ClusterHost(store, c.Cluster("g"), bot_delay=0.0)
    second = ClusterHost(reopen(), c.Cluster("g"), bot_delay=0.0)
    return [first, second]


def deliver(sender: ClusterHost, to: ClusterHost) -> int:
    """Hand `to` what `sender` published on its forward topic (and wills): how many."""
    topic = to.cluster.forward_topic()
    published = [item for item in Bus.of(sender).pump() if item.topic == topic]
    for item in published:
        to.handle(item.topic, item.payload)
    Bus.of(sender).published = [i for i in Bus.of(sender).published if i.topic != topic]
    return len(published)


async def test_a_request_replayed_to_the_other_host_is_refused(pair) -> None:
    first, second = pair
    ann = WireClient(first)
    envelope = ann.envelope(p.Ping())
    ann.send_raw(envelope)
    ann.move_to(second)
    answer = ann.send_raw(envelope)  # the same bytes, through the other host
    assert any(isinstance(m, p.Error) and m.code == "replay" for m in answer), answer


async def test_a_request_for_the_other_hosts_room_is_forwarded_and_answered_there(pair) -> None:
    first, second = pair
    ann = WireClient(first)
    made = ann.reply(p.CreateRoom(name="Saloon"))
    assert isinstance(made, p.Ok) and made.room is not None
    bob = WireClient(second)
    assert bob.send(p.Join(room=made.room.id, name="Bob")) == []  # not answered here
    bob.move_to(first)  # (it reads the answer there: the broker would bring it)
    assert deliver(second, first) == 1
    assert any(isinstance(m, p.Ok) and m.seat == 0 for m in bob.inbox())
    assert second.store.seats_of(bob.cid) == [(made.room.id, 0)]


async def test_a_gone_hosts_rooms_are_taken_over_with_the_request_in_flight(pair) -> None:
    first, second = pair
    ann = WireClient(first)
    room = ann.reply(p.CreateRoom(name="Saloon")).room.id
    bob = WireClient(second)
    bob.send(p.Join(room=room, name="Bob"))  # forwarded to `first`, which dies now
    assert room not in second.rooms
    second.handle(second.cluster.gone_topic, c.gone(first.keys, first.cluster.host_id))
    assert room in second.rooms
    got = bob.inbox()
    assert any(isinstance(m, p.Ok) and m.seat == 0 for m in got), got


async def test_a_forged_will_or_note_changes_nothing(pair) -> None:
    first, second = pair
    ann = WireClient(first)
    room = ann.reply(p.CreateRoom(name="Saloon")).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    unsigned = b"\0" * 64 + f"gone|{first.cluster.host_id}".encode()
    second.handle(second.cluster.gone_topic, unsigned)
    forged = c.Note(cid=ann.cid, rooms=[room], online=False, at=c.now_ms())
    first.handle(first.cluster.forward_topic(), c.note(crypto.HostKeys.generate(), forged))
    assert room in first.rooms and room not in second.rooms
    assert ann.cid in first.rooms[room].online
    # The same note signed by the cluster's key is believed: the player went away.
    first.handle(first.cluster.forward_topic(), c.note(first.keys, forged))
    assert ann.cid not in first.rooms[room].online


def deliver_to_all(sender: ClusterHost, hosts: list[ClusterHost]) -> None:
    """Hand every host what `sender` published for every host."""
    for item in Bus.of(sender).pump():
        if item.topic == sender.cluster.everyone_topic:
            for host in hosts:
                host.handle(item.topic, item.payload)


async def test_a_will_registered_at_one_host_counts_at_the_other(pair) -> None:
    """The player greeted `first` (its room is there); its MQTT will reaches `second`: the
    seat goes offline at `first` all the same."""
    first, second = pair
    ann = WireClient(first)
    room = ann.reply(p.CreateRoom(name="Saloon")).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    will = ann.envelope(p.Bye())
    assert isinstance(ann.reply(p.Hello(will=ann.ctr)), p.Welcome)
    deliver_to_all(first, [second])
    assert ann.cid in first.rooms[room].online
    ann.move_to(second)
    ann.send_raw(will)
    assert deliver(second, first) == 1  # the note: ann has gone
    assert ann.cid not in first.rooms[room].online


async def test_hostile_messages_on_every_topic_of_a_cluster_change_nothing(pair, caplog) -> None:
    """20,000 messages: junk and forged envelopes on the hosts' own topics, and sealed
    requests for rooms that do not exist (no lease may be taken on a made-up name)."""
    caplog.set_level(logging.INFO, logger="bang")
    first, second = pair
    ann = WireClient(first)
    room = ann.reply(p.CreateRoom(name="Saloon")).room.id
    ann.reply(p.Join(room=room, name="Ann"))
    stranger = WireClient(second)
    second.limiter = RateLimiter(rate=1e9, burst=1e9)
    rng = random.Random(13)
    topics = [second.cluster.forward_topic(), second.cluster.gone_topic,
              second.cluster.everyone_topic, p.lobby_topic(room), p.lobby_topic("zzzz")]
    for n in range(20_000):
        kind = n % 4
        if kind == 0:
            second.handle(rng.choice(topics), rng.randbytes(rng.randrange(200)))
        elif kind == 1:
            junk = c.Forward(topic=rng.choice(["", p.inbox_topic(ann.cid), "x"]),
                             payload=rng.randbytes(40), hops=rng.randrange(-1, 9),
                             note=rng.randbytes(rng.randrange(100)))
            second.handle(second.cluster.forward_topic(), msgspec.msgpack.encode(junk))
        elif kind == 2:
            made_up = "".join(rng.choice("abcdefghijk0123") for _ in range(8))
            stranger.send(p.Join(room=made_up, name="Zed"))
        else:
            second.handle(second.cluster.gone_topic, rng.randbytes(64) + b"gone|" +
                          first.cluster.host_id.encode())
        if n % 1000 == 0:
            Bus.of(second).pump()
    Bus.of(second).pump()
    assert not host_errors(caplog.records)
    assert room in first.rooms and room not in second.rooms
    # No lease on a made-up name: the room's own is the only one.
    assert second.store.tables._run("SELECT room FROM leases") == [(room,)]


async def test_the_hosts_announce_one_link_which_changes_when_a_host_goes(pair) -> None:
    """Clients re-send unanswered requests when the host's `link` changes: every host of a
    cluster announces the same one, and a host found gone changes it."""
    first, second = pair
    first.announce()
    second.cluster_tick()
    assert second._link == first._link == first.store.cluster_link()
    before = first._link
    second.handle(second.cluster.gone_topic, c.gone(first.keys, first.cluster.host_id))
    assert second._link != before and second.store.cluster_link() == second._link
    hellos = [item for item in Bus.of(second).pump() if item.topic == p.HOST_TOPIC]
    signed = p.decode_outbound(hellos[-1].payload)
    assert p.decode_public(signed.body).link == second._link
