"""`bang ssh-serve` as an operator runs it: one command starts the host, its embedded broker and
the door; a player's plain `ssh` lands in the real lobby; SIGTERM stops everything."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from door_harness import WAIT, Ssh, Tmux, process_exists, wait_until


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_one_command_serves_the_lobby_over_ssh(tmp_path: Path, ssh: Ssh, tmux: Tmux) -> None:
    port, mqtt_port = free_port(), free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    out = tmp_path / "server.out"
    with out.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "client.cli", "ssh-serve", "--bind", "127.0.0.1",
             "--port", str(port), "--mqtt-port", str(mqtt_port), "--data", str(tmp_path / "door")],
            stdout=sink, stderr=subprocess.STDOUT, env=env,
        )
    try:
        wait_until(lambda: server.poll() is not None or "players connect with" in out.read_text(),
                   "the door to announce itself")
        assert server.poll() is None, out.read_text()
        assert "host key fingerprint SHA256:" in out.read_text()

        tmux.open("rosa", ssh.argv(port, "rosa"))
        screen = tmux.wait_for("rosa", "Lobby")
        assert f"mqtt://127.0.0.1:{mqtt_port}" in screen
        (client_pid,) = wait_until(lambda: children_of(server.pid), "the client process")
        assert b"join" in Path(f"/proc/{client_pid}/cmdline").read_bytes().split(b"\0")

        tmux.send("rosa", "C-q")
        tmux.wait_for("rosa", "SSH-EXIT=0")
        wait_until(lambda: not process_exists(client_pid), "the client to exit")

        tmux.open("again", ssh.argv(port, "rosa"))
        tmux.wait_for("again", "Lobby")
        server.send_signal(signal.SIGTERM)
        assert server.wait(WAIT) == 0, out.read_text()
        tmux.wait_for("again", "shutting down")
        tmux.wait_for("again", "SSH-EXIT=")
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(WAIT)


def children_of(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except (OSError, ValueError):
            continue
        if entry.isdigit() and int(stat.rpartition(")")[2].split()[1]) == parent:
            found.append(int(entry))
    return found
