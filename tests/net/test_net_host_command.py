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
    fingerprint = out.split("host fingerprint ")[1].split()[0]
    assert f"players join with: bang join --broker mqtt://127.0.0.1:{port} --fingerprint " \
           f"{fingerprint}" in out
    assert "everything is saved" in out


def test_host_on_a_broker_tells_players_its_url_without_the_account(tmp_path: Path,
                                                                    mosquitto) -> None:
    port = mosquitto.url.rsplit(":", 1)[1]
    host = bang_host("--broker", f"mqtt://hostuser:s3cret@127.0.0.1:{port}",
                     data=tmp_path / "h.sqlite3")
    try:
        line = ""
        assert host.stdout is not None
        while "players join with" not in line:
            line = host.stdout.readline()
            assert line, "the host exited"
    finally:
        host.send_signal(signal.SIGINT)
        out, _ = host.communicate(timeout=30)
    assert f"bang join --broker mqtt://127.0.0.1:{port} --fingerprint SHA256:" in line
    assert "s3cret" not in line + out and "hostuser" not in line
