"""Fixtures for the SSH door tests (the helpers live in door_harness.py)."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from door_harness import (
    WAIT,
    LogRecords,
    RunningDoor,
    Served,
    Ssh,
    Tmux,
    door_app_command,
    free_port,
    serve_argv,
    wait_until,
)

from server.ssh_door import DoorConfig


@pytest.fixture
def door_log() -> Iterator[LogRecords]:
    handler = LogRecords()
    logger = logging.getLogger("server.ssh_door")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(old_level)


@pytest.fixture
def base_config(tmp_path: Path) -> DoorConfig:
    return DoorConfig(
        broker_url="mqtt://127.0.0.1:1",
        port=0,
        bind="127.0.0.1",
        data_dir=tmp_path / "door",
        idle_timeout=0,
        child_command=door_app_command,
    )


@pytest.fixture
def start(base_config: DoorConfig, door_log: LogRecords) -> Iterator[Callable[..., RunningDoor]]:
    """`start(**config_changes)` runs a door; all are closed at the end of the test."""
    doors: list[RunningDoor] = []

    def run(**changes: Any) -> RunningDoor:
        doors.append(RunningDoor(replace(base_config, **changes)))
        return doors[-1]

    yield run
    for door in doors:
        door.close()


def require(tool: str, package: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"needs `{tool}` (Debian package {package})")


@pytest.fixture
def ssh(tmp_path: Path) -> Ssh:
    require("ssh", "openssh-client")
    return Ssh(tmp_path)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    require("tmux", "tmux")
    # A short path: unix socket names are limited to about 100 bytes.
    sock_dir = Path(tempfile.mkdtemp(prefix="bang-tmux-", dir="/tmp"))
    server = Tmux(sock_dir / "sock")
    yield server
    server.kill()
    shutil.rmtree(sock_dir, ignore_errors=True)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """`serve(*options, data=DIR, prefix=ARGV)` runs `bang ssh-serve` (after `prefix`, e.g.
    setpriv) until it announces itself; every one started is stopped at the end of the test."""
    started: list[Served] = []

    def run(*options: str, data: Path | None = None, prefix: Sequence[str] = ()) -> Served:
        port, mqtt_port = free_port(), free_port()
        if "--broker" not in options:
            options = ("--mqtt-port", str(mqtt_port), *options)
        env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
        output = tmp_path / "server.out"
        with output.open("w") as sink:
            process = subprocess.Popen(
                [*prefix, *serve_argv(port, data or tmp_path / "door", *options)],
                stdout=sink, stderr=subprocess.STDOUT, env=env,
            )
        served = Served(process, port, mqtt_port, output)
        started.append(served)
        wait_until(lambda: process.poll() is not None or "players connect with" in served.text(),
                   "the door to announce itself")
        assert process.poll() is None, served.text()
        return served

    yield run
    for served in started:
        if served.process.poll() is None:
            served.process.terminate()  # the door ends its clients on the way out
            try:
                served.process.wait(WAIT)
            except subprocess.TimeoutExpired:
                served.process.kill()
                served.process.wait(WAIT)
