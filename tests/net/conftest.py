"""Brokers and hosts for the network tests: a real Mosquitto on a free port and the embedded
amqtt broker. Mosquitto tests skip (with the reason) only when its binary is missing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from netkit import MOSQUITTO, MosquittoProcess, RunningHost, free_port

from server.broker import EmbeddedBroker


@pytest.fixture
def mosquitto(tmp_path: Path) -> Iterator[MosquittoProcess]:
    if MOSQUITTO is None:
        pytest.skip("the mosquitto binary is not installed (Debian package `mosquitto`)")
    broker = MosquittoProcess(tmp_path)
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture
async def embedded() -> AsyncIterator[EmbeddedBroker]:
    broker = EmbeddedBroker(port=free_port())
    await broker.start()
    yield broker
    await broker.stop()


@pytest.fixture(params=["mosquitto", "amqtt"])
def broker_url(request: pytest.FixtureRequest) -> str:
    """Each test that asks for a broker runs against both kinds."""
    if request.param == "mosquitto":
        return request.getfixturevalue("mosquitto").url
    return request.getfixturevalue("embedded").url


@pytest.fixture
async def running_host(broker_url: str, tmp_path: Path) -> AsyncIterator[RunningHost]:
    host = RunningHost(broker_url, tmp_path / "host.sqlite3")
    await host.start()
    yield host
    await host.stop()
