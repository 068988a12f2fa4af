"""`bang bench relay` runs end to end (host and load workers in processes of their own) and
prints every figure. The values are not judged: they depend on the machine."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from netkit import MOSQUITTO, RunningHost, bench_relay, free_port

from client.benchkit.lean import HostKeys, LeanSeat, LeanTable
from client.benchkit.worker import Tally
from server.ratelimit import RateLimiter
from shared import protocol as p

KEYS = {"broker", "broker_rtt_p50_us", "broker_rtt_p99_us", "update_p50_us", "update_p99_us",
        "updates_timed", "bytes_per_update_median", "tables", "games_finished",
        "actions_per_s", "host_bot_tables", "host_bot_actions_per_s", "host_rss_mb",
        "host_actions_per_s", "workers", "rate", "errors", "host_bot_errors", "sealed_sizes",
        "clients", "seats", "store", "hosts", "games_started", "failover_s",
        "lost_actions", "engine"}
CONNECT_KEYS = {"connect_clients", "connect_window_s", "connect_welcomed", "connect_p50_ms",
                "connect_p99_ms"}
FLOOD_KEYS = {"flood_rate", "flood_msgs_per_s", "flood_requests", "flood_answered",
              "flood_p50_ms", "flood_p99_ms", "flood_actions", "flood_games_finished",
              "flood_errors"}


def figures(*args: str) -> dict:
    out = bench_relay(*args)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_bench_relay_embedded_with_seven_seats() -> None:
    result = figures("--seats", "7")
    assert result.keys() == KEYS
    assert result["tables"] == 2 and result["broker"] == "embedded amqtt"
    assert result["rate"] is None and result["workers"] >= 1 and result["clients"] == "lean"
    assert result["seats"] == 7
    assert result["engine"] == "interpreted"  # the suite runs the sources (tests/conftest.py)
    assert result["updates_timed"] > 0 and result["actions_per_s"] > 0


def test_bench_relay_with_the_full_client_library(mosquitto) -> None:
    result = figures("--broker", mosquitto.url, "--clients", "full", "--tables", "1")
    assert result.keys() == KEYS and result["clients"] == "full" and result["seats"] == 4
    assert result["updates_timed"] > 0 and result["actions_per_s"] > 0


def test_bench_relay_mosquitto_paced_with_a_connect_burst(mosquitto) -> None:
    assert MOSQUITTO is not None
    result = figures("--broker", mosquitto.url, "--rate", "20", "--workers", "2",
                     "--connect", "6")
    assert result.keys() == KEYS | CONNECT_KEYS and result["broker"] == mosquitto.url
    assert result["rate"] == 20 and result["workers"] == 2
    assert result["connect_clients"] == result["connect_welcomed"] == 6
    assert result["connect_window_s"] == 0
    classes = {len(p.encode(p.Sealed(v=p.VERSION, box=bytes(12 + size + 16))))
               for size in p.REPLY_CLASSES}
    assert result["sealed_sizes"] and set(result["sealed_sizes"]) <= classes
    # Paced: at most 20 actions a second at each of the 2 tables (one more for the edges).
    assert result["actions_per_s"] <= 2 * (20 + 1 / 1.5)


def test_bench_relay_mosquitto_under_a_flood_with_a_connect_window(mosquitto) -> None:
    result = figures("--broker", mosquitto.url, "--tables", "1", "--flood", "200",
                     "--connect", "8", "--connect-window", "1")
    assert result.keys() == KEYS | CONNECT_KEYS | FLOOD_KEYS
    assert result["connect_clients"] == result["connect_welcomed"] == 8
    assert result["connect_window_s"] == 1
    assert result["flood_rate"] == 200
    # Evenly paced: at most 200 messages a second (one more for the edges).
    assert 0 < result["flood_msgs_per_s"] <= 200 + 1 / 1.5
    # Every action applied is an answered request; every answer is to a request.
    assert 0 <= result["flood_actions"] <= result["flood_answered"] <= result["flood_requests"]
    assert result["flood_requests"] >= 1
    assert result["flood_p50_ms"] <= result["flood_p99_ms"]
    assert isinstance(result["flood_errors"], dict)


@pytest.mark.parametrize(("flags", "named"), [
    (["--rate", "0"], "--rate"),
    (["--connect", "5", "--connect-window", "-1"], "--connect-window"),
    (["--connect-window", "5"], "--connect-window"),
    (["--flood", "0"], "--flood"),
    (["--flood", "-1000"], "--flood"),
    (["--seats", "8"], "--seats"),
    (["--hosts", "2"], "--broker"),
    (["--hosts", "2", "--broker", "mqtt://127.0.0.1:1"], "--store postgresql://"),
    (["--hosts", "0", "--broker", "mqtt://127.0.0.1:1"], "--hosts"),
    (["--kill-one"], "--kill-one"),
    (["--store", "redis://127.0.0.1/0"], "postgresql://"),
])
def test_bench_relay_refuses_a_bad_flag_in_one_line(flags: list[str], named: str) -> None:
    out = bench_relay(*flags)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0 and named in out.stderr


def test_bench_relay_refuses_a_broker_url_that_is_not_mqtt() -> None:
    """Refused as `bang host` refuses it, before any host starts (argparse's usage, then the
    one line that names the flag)."""
    out = bench_relay("--broker", "http://x:1883")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines()[-1].startswith("bang bench relay: error: argument --broker")


def test_bench_relay_says_in_one_line_that_it_cannot_reach_the_broker() -> None:
    out = bench_relay("--broker", f"mqtt://127.0.0.1:{free_port()}", "--seconds", "1")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0
    assert "cannot reach the broker at 127.0.0.1" in out.stderr


def test_bench_relay_with_its_host_on_postgresql(pg_url: str) -> None:
    result = figures("--store", pg_url, "--tables", "1")
    assert result.keys() == KEYS and result["store"] == "postgresql" and result["hosts"] == 1
    assert result["actions_per_s"] > 0 and result["host_actions_per_s"] > 0
    assert result["lost_actions"] == 0


class _NoPace:
    async def wait(self) -> None:
        return None


async def one_lean_table(broker: str, store: Path, seconds: float,
                         limiter: RateLimiter | None = None, spacing: float = 0.0) -> Tally:
    """One table of four lean seats (each spacing its requests `spacing` s apart) playing
    as fast as it can for `seconds` against a host (with `limiter`, if given)."""
    running = RunningHost(broker, store)
    host = await running.start()
    if limiter is not None:
        host.limiter = limiter
    address = p.parse_broker_url(broker)
    tally = Tally(seats=4)
    seats = [LeanSeat(await HostKeys.fetch(address, host.keys.fingerprint), tally)
             for _ in range(4)]
    try:
        for seat in seats:
            await seat.connect(address)
            seat.spacing = spacing
        table = LeanTable(1, seats, tally)
        assert await table.new_game(patient=True)
        start = time.perf_counter()
        await table.play(start + seconds, grace=1.0, pacer=_NoPace(), stall=60.0)
    finally:
        for seat in seats:
            seat.close()
        await running.stop()
    return tally


async def test_a_lean_seat_refused_as_rate_limited_asks_again(embedded, tmp_path: Path) -> None:
    """A bench table as fast as it can outruns one client's allowance; the seat whose act is
    refused as `rate_limited` asks again a moment later instead of stalling its game until the
    stall detector (here far beyond the run) asks for a snapshot."""
    tally = await one_lean_table(embedded.url, tmp_path / "host.sqlite3", 3.0,
                                 limiter=RateLimiter(rate=50.0, burst=5.0))  # a small burst
    assert tally.errors["rate_limited"] >= 1, tally.errors  # the allowance was outrun
    assert tally.pause < 1.0, tally.pause  # and no game waited on a refused act
    assert tally.actions > 100


async def test_a_spaced_seat_is_timed_from_when_it_sends(embedded, tmp_path: Path) -> None:
    """A seat spacing its requests (after a `rate_limited`) waits before its clock starts: the
    update time is the host's and the broker's, not the seat's own pause."""
    spacing = 0.3  # as after a refusal
    tally = await one_lean_table(embedded.url, tmp_path / "host.sqlite3", 2.5, spacing=spacing)
    assert len(tally.latencies) >= 5
    # Timed from before the pause, most updates took nearly `spacing` (a seat's previous
    # request went out a few actions earlier); timed from the send, a few milliseconds.
    assert sorted(tally.latencies)[len(tally.latencies) // 2] < spacing / 3 * 1e6
