"""Everything but the game is refused: commands, sftp, forwarding, sessions without a terminal,
sessions beyond the caps, connections that never log in, and windows no screen has."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import time

import asyncssh
import pytest
from door_harness import WAIT, Ssh, Tmux, wait_until

from server.ssh_door.config import AuthMode
from server.ssh_door.terminal import MAX_SIZE


def test_exec_sftp_and_no_terminal_are_refused(start, ssh: Ssh, tmp_path, door_log) -> None:
    door = start(auth=AuthMode.GUEST)
    marker = tmp_path / "created-by-exec"

    result = ssh.run(door.port, command=["touch", str(marker)])
    assert result.returncode == 255
    assert "exec request failed" in result.stderr
    assert not marker.exists()

    result = subprocess.run(
        ["sftp", "-F", "/dev/null", "-P", str(door.port), "-b", "/dev/null",
         "-o", f"UserKnownHostsFile={ssh.known_hosts}", "-o", "BatchMode=yes",
         "-o", "PubkeyAuthentication=no", "alice@127.0.0.1"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=WAIT,
    )
    assert result.returncode != 0
    assert "subsystem request failed" in result.stderr

    result = ssh.run(door.port, "-T")  # a shell without a terminal
    assert result.returncode == 1
    assert "needs a terminal" in result.stderr

    assert "started" not in door_log.text()  # not one client process was spawned
    assert door.active() == 0


def test_port_forwarding_is_refused(start, ssh: Ssh) -> None:
    door = start(auth=AuthMode.GUEST)
    with socket.socket() as target:
        target.bind(("127.0.0.1", 0))
        target.listen()
        target.settimeout(0.5)
        port = target.getsockname()[1]

        local = ssh.run(door.port, "-W", f"127.0.0.1:{port}")  # direct-tcpip channel
        assert local.returncode == 255
        assert "administratively prohibited" in local.stderr
        try:
            target.accept()
        except TimeoutError:
            pass
        else:
            raise AssertionError("the door connected to the forwarding target")

    remote = ssh.run(door.port, "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9")
    assert remote.returncode == 255
    assert "remote port forwarding failed" in remote.stderr


def test_cap_refuses_an_extra_session_with_a_clear_message(start, ssh: Ssh, tmux: Tmux) -> None:
    door = start(auth=AuthMode.GUEST, max_sessions=1)
    tmux.open("first", ssh.argv(door.port, "first"))
    tmux.wait_for("first", "DOOR-APP")

    extra = ssh.run(door.port, "-tt", user="second")
    assert extra.returncode == 1
    assert "Server full" in extra.stdout + extra.stderr
    assert [name for _, name, _ in door.children()] == ["first"]

    tmux.send("first", "q")
    tmux.wait_for("first", "SSH-EXIT=0")
    wait_until(lambda: door.active() == 0, "the slot to be released")
    tmux.open("third", ssh.argv(door.port, "third"))
    tmux.wait_for("third", "name=third")  # the freed place can be taken again


def test_per_address_cap(start, ssh: Ssh, tmux: Tmux) -> None:
    door = start(auth=AuthMode.GUEST, max_sessions=10, max_per_ip=1)
    tmux.open("first", ssh.argv(door.port, "first"))
    tmux.wait_for("first", "DOOR-APP")
    extra = ssh.run(door.port, "-tt", user="second")
    assert extra.returncode == 1
    assert "Server full for your address" in extra.stdout + extra.stderr


def test_login_timeout_closes_silent_connections(start) -> None:
    door = start(login_timeout=1)
    began = time.monotonic()
    with socket.create_connection(("127.0.0.1", door.port), timeout=WAIT) as conn:
        assert conn.recv(256).startswith(b"SSH-2.0-")
        while conn.recv(256):  # say nothing; the door must hang up on its own
            pass
    assert time.monotonic() - began < WAIT


def test_a_login_without_a_session_is_closed(start, ssh: Ssh) -> None:
    door = start(auth=AuthMode.GUEST, login_timeout=1)
    result = ssh.run(door.port, "-N")  # logs in, then asks for nothing: would idle forever
    assert result.returncode == 255


@pytest.mark.parametrize("ask", ["exec", "subsystem", "no terminal"])
async def test_a_connection_whose_session_was_refused_is_closed(start, ask: str) -> None:
    """Attack: log in, get a session refused (an exec, a subsystem, no pty), keep the
    connection. Guards the door's session timer: a connection with no game running is closed
    after the login timeout, whatever it asked for before."""
    door = start(auth=AuthMode.GUEST, login_timeout=1)
    async with asyncssh.connect("127.0.0.1", door.port, username="mallory", known_hosts=None,
                                client_keys=None, agent_path=None) as conn:
        with contextlib.suppress(asyncssh.Error):
            if ask == "exec":
                await conn.run("id", check=True)
            elif ask == "subsystem":
                await conn.create_session(asyncssh.SSHClientSession, subsystem="sftp")
            else:  # a shell without a terminal: refused with a message
                await conn.run(check=True)
        await asyncio.wait_for(conn.wait_closed(), WAIT)
    assert door.active() == 0


def test_connections_beyond_the_caps_are_refused(start) -> None:
    """Attack: hold many connections open without logging in. Guards the connection caps:
    twice the session caps plus two, per address and in all; a freed place can be taken."""
    door = start(auth=AuthMode.GUEST, max_sessions=1, max_per_ip=1)
    allowed = 2 * 1 + 2
    held = [socket.create_connection(("127.0.0.1", door.port), timeout=WAIT)
            for _ in range(allowed)]
    try:
        for conn in held:
            assert conn.recv(256).startswith(b"SSH-2.0-")
        with socket.create_connection(("127.0.0.1", door.port), timeout=WAIT) as extra, \
                contextlib.suppress(ConnectionResetError):
            while extra.recv(256):  # the door hangs up at once
                pass
        held.pop().close()
        with socket.create_connection(("127.0.0.1", door.port), timeout=WAIT) as again:
            wait_until(lambda: door.connections() == allowed, "the freed place taken")
            assert again.recv(256).startswith(b"SSH-2.0-")
    finally:
        for conn in held:
            conn.close()


def child_window(pid: int) -> tuple[int, int]:
    """The window size of a client process's terminal (its stdin, the pty's other end)."""
    fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NOCTTY)
    try:
        size = os.get_terminal_size(fd)
        return size.columns, size.lines
    finally:
        os.close(fd)


async def test_a_huge_window_is_clamped_and_the_session_goes_on(start, door_log) -> None:
    """Attack: ask for a 70,000-column terminal, then resize to 10,000 x 10,000 (the pty's
    size is a 16-bit field; a client drawing 10^8 cells runs out of memory). Guards
    `usable_size`: the client gets at most MAX_SIZE, the door says so, and nothing fails."""
    door = start(auth=AuthMode.GUEST)
    async with asyncssh.connect("127.0.0.1", door.port, username="mallory", known_hosts=None,
                                client_keys=None, agent_path=None) as conn:
        chan, _ = await conn.create_session(asyncssh.SSHClientSession, term_type="xterm",
                                            term_size=(70_000, 24))
        pid = await asyncio.to_thread(
            wait_until, lambda: door.children()[0][0] if door.children() else None,
            "the client process")
        width, height = MAX_SIZE
        await asyncio.to_thread(wait_until, lambda: child_window(pid) == (width, 24),
                                "the first window")
        chan.change_terminal_size(10_000, 10_000, 99_999, 99_999)
        await asyncio.to_thread(wait_until, lambda: child_window(pid) == (width, height),
                                "the resized window")
        assert door.active() == 1
        chan.close()
    assert f"a 70000x24 window is served as {width}x24" in door_log.text()
    assert "Traceback" not in door_log.text()
