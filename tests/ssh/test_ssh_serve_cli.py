"""`bang ssh-serve` as an operator runs it: one command starts the host, its embedded broker and
the door; a player's plain `ssh` lands in the real lobby; SIGTERM stops everything.

These drive the real client (`bang join`), so they use its keys: Ctrl+Q quits, `c` opens the
create-room dialog, Enter creates a room (seated, waiting for friends) and `s` starts it with
bots in the free seats.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import asyncssh
from door_harness import (
    WAIT,
    Ssh,
    Tmux,
    children_of,
    free_port,
    process_exists,
    run_cli,
    wait_until,
)


def test_one_command_serves_the_lobby_over_ssh(serve, ssh: Ssh, tmux: Tmux) -> None:
    server = serve()
    assert "host key fingerprint SHA256:" in server.text()

    tmux.open("rosa", ssh.argv(server.port, "rosa"))
    tmux.wait_for("rosa", f"Lobby · mqtt://127.0.0.1:{server.mqtt_port}")
    (client_pid,) = wait_until(lambda: children_of(server.process.pid), "the client process")
    assert b"join" in Path(f"/proc/{client_pid}/cmdline").read_bytes().split(b"\0")

    tmux.send("rosa", "C-q")
    tmux.wait_for("rosa", "SSH-EXIT=0")
    wait_until(lambda: not process_exists(client_pid), "the client to exit")

    tmux.open("again", ssh.argv(server.port, "rosa"))
    tmux.wait_for("again", "Lobby")
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(WAIT) == 0, server.text()
    tmux.wait_for("again", "shutting down")
    tmux.wait_for("again", "SSH-EXIT=")


def test_the_same_key_gets_its_seat_back(serve, ssh: Ssh, tmux: Tmux) -> None:
    server = serve("--auth", "pubkey")
    key, other_key = ssh.keygen(), ssh.keygen("other")

    tmux.open("first", ssh.argv(server.port, "rosa", key=key))
    tmux.wait_for("first", "Lobby")
    tmux.send("first", "c")
    tmux.wait_for("first", "Create room")
    tmux.send("first", "Enter")
    tmux.wait_for("first", "Seats: 1. rosa")  # seated in the room, which waits for friends
    tmux.send("first", "s")
    tmux.wait_for("first", "rosa (you)")  # seated in a game that has started

    os.kill(tmux.pane_pid("first"), signal.SIGKILL)  # the connection drops mid-game
    wait_until(lambda: not children_of(server.process.pid), "the dropped client to be ended")

    tmux.open("stranger", ssh.argv(server.port, "rosa", key=other_key))
    screen = tmux.wait_for("stranger", "rosa's table")  # the same name is not enough
    assert "(you)" not in screen
    tmux.send("stranger", "C-q")
    tmux.wait_for("stranger", "SSH-EXIT=0")

    tmux.open("back", ssh.argv(server.port, "rosa", key=key))
    tmux.wait_for("back", "rosa (you)")


def test_a_door_in_front_of_a_host_that_runs_elsewhere(serve, ssh: Ssh, tmux: Tmux,
                                                      tmp_path: Path) -> None:
    mqtt_port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "host-data")}
    host = subprocess.Popen(
        [sys.executable, "-m", "client.cli", "host", "--port", str(mqtt_port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    try:
        wait_until(lambda: host.poll() is not None or _listening(mqtt_port), "the host's broker")
        assert host.poll() is None
        server = serve("--broker", f"mqtt://127.0.0.1:{mqtt_port}")
        tmux.open("rosa", ssh.argv(server.port, "rosa"))
        tmux.wait_for("rosa", f"Lobby · mqtt://127.0.0.1:{mqtt_port}")
        wait_until(lambda: "connected" in map(str.strip, tmux.screen("rosa").splitlines()),
                   "the client to report that it is connected to the host")
    finally:
        host.terminate()
        host.wait(WAIT)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_startup_problems_are_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli(tmp_path, "--port", str(port))
    assert result.returncode == 1
    assert f"bang ssh-serve: cannot listen on 127.0.0.1 port {port}" in result.stderr
    assert "Traceback" not in result.stderr

    key = tmp_path / "door" / "ssh_host_ed25519_key"
    key.parent.mkdir()
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(key)
    key.chmod(0o640)
    result = run_cli(tmp_path, "--port", str(free_port()))
    assert result.returncode == 1
    assert "chmod 600" in result.stderr and "Traceback" not in result.stderr
