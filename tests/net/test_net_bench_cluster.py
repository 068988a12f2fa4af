"""`bang bench relay --hosts 2 --kill-one`: two host processes share one Mosquitto and one
PostgreSQL database; one of them is killed with SIGKILL a third of the way through, and the
tables play on through the other: no game stops, no acknowledged action is lost."""

from __future__ import annotations

import json

from netkit import bench_relay

#: Long enough for the dead host's leases to expire and its rooms to be replayed elsewhere
#: after the kill (at a third of it); every host step of the bench plays this long.
SECONDS = 15.0
TABLES = 3



def test_a_cluster_survives_the_death_of_a_host(mosquitto, pg_url: str) -> None:
    out = bench_relay("--broker", mosquitto.url, "--store", pg_url, "--hosts", "2",
                      "--kill-one", "--tables", str(TABLES), "--seconds", str(SECONDS),
                      timeout=8 * SECONDS + 60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["hosts"] == 2 and result["store"] == "postgresql"
    assert result["lost_actions"] == 0
    assert isinstance(result["failover_s"], int | float)
    # Every game started either finished or was still in course at the end (one per table),
    # and none stood still from the kill to the end: each table's longest pause is shorter
    # than what was left after the kill.
    assert result["games_finished"] >= 1
    assert 0 <= result["games_started"] - result["games_finished"] <= TABLES
    assert result["failover_s"] < SECONDS * 2 / 3
    assert result["actions_per_s"] > 0
