"""`bang bench relay` runs end to end and prints every figure. The values are not judged:
they depend on the machine."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from netkit import MOSQUITTO

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"broker_rtt_p50_us", "broker_rtt_p99_us", "update_p50_us", "update_p99_us",
        "bytes_per_update_median", "tables", "actions_per_s", "host_bot_actions_per_s"}


def bench(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "client.cli", "bench", "relay", "--json",
                          "--seconds", "1.5", "--pings", "20", "--tables", "2", *args],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)


def test_bench_relay_embedded() -> None:
    result = bench()
    assert result.keys() >= KEYS
    assert result["tables"] == 2 and result["broker"] == "embedded amqtt"


def test_bench_relay_mosquitto(mosquitto) -> None:
    assert MOSQUITTO is not None
    result = bench("--broker", mosquitto.url)
    assert result.keys() >= KEYS and result["broker"] == mosquitto.url
