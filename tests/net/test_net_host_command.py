"""`bang host` from the command line: says where it listens, refuses a taken port clearly,
and stops cleanly on SIGINT."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

from netkit import free_port, wait_port

ROOT = Path(__file__).resolve().parents[2]


def bang_host(*args: str, data: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "client.cli", "host", "--data", str(data),
                             *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def test_taken_port_is_reported_clearly(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        host = bang_host("--port", str(port), data=tmp_path / "h.sqlite3")
        out, _ = host.communicate(timeout=30)
    assert host.returncode == 1
    assert f"port {port} on 127.0.0.1 is already in use" in out
    assert "Traceback" not in out


def test_host_announces_itself_and_stops_on_sigint(tmp_path: Path) -> None:
    port = free_port()
    host = bang_host("--port", str(port), data=tmp_path / "h.sqlite3")
    wait_port(port, 30)
    host.send_signal(signal.SIGINT)
    out, _ = host.communicate(timeout=30)
    assert host.returncode == 0, out
    assert f"embedded MQTT broker listening on 127.0.0.1:{port}" in out
    assert "host fingerprint SHA256:" in out
    assert "everything is saved" in out
