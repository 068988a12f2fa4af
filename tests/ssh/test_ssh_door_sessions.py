"""End to end: the real OpenSSH client in tmux, through the door, into a Textual app."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from door_harness import APP_SHOWN, RunningDoor, Ssh, Tmux, process_exists, wait_until

from client.door_mode import CRASH_MESSAGE
from server.ssh_door.config import SessionLimits

RESTORED = {"alternate_on": "0", "mouse_any_flag": "0", "mouse_sgr_flag": "0", "cursor_flag": "1"}


def only_child(door: RunningDoor) -> tuple[int, str, str | None]:
    return wait_until(lambda: door.children()[0] if len(door.children()) == 1 else None,
                      "exactly one client process")


def assert_confined(pid: int, limits: SessionLimits) -> None:
    """The client leads its own session on the pty, with the per-session limits applied."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    session, tty, nice = int(fields[3]), int(fields[4]), int(fields[16])
    assert session == pid and tty != 0  # its controlling terminal is the session's pty
    assert nice >= limits.nice
    table = Path(f"/proc/{pid}/limits").read_text()
    expected = {
        "Max open files": limits.open_files,
        "Max address space": limits.address_space,
        "Max core file size": 0,
        "Max file size": limits.file_size,
        "Max cpu time": limits.cpu_seconds,
    }
    for line in table.splitlines():
        for name, value in expected.items():
            if line.startswith(name):
                assert line[len(name):].split()[:2] == [str(value)] * 2, line
    # No door descriptor leaked in: no pty master (its own or another session's).
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(FileNotFoundError):
            assert os.readlink(fd) != "/dev/ptmx", f"fd {fd.name} of the client is a pty master"


def test_connect_see_resize_quit_restores_terminal(start, ssh: Ssh, tmux: Tmux,
                                                   base_config) -> None:
    door = start()
    argv = ssh.argv(door.port, "..al!ce~",
                    "-o", "SetEnv=COLORTERM=truecolor DOOR_TEST_LEAK=1")
    tmux.open("a", argv, 100, 30)

    screen = tmux.wait_for("a", APP_SHOWN)
    assert "size=100x30" in screen
    assert "DOOR-APP name=alce " in screen  # the SSH user name, sanitised
    assert "door=1 key=none" in screen
    # Built from scratch: the whitelisted COLORTERM passes, anything else the client sends not.
    assert "lang=C.UTF-8 colorterm=truecolor leak=none" in screen
    assert tmux.state("a")["alternate_on"] == "1"

    tmux.resize("a", 72, 20)
    tmux.wait_for("a", "size=72x20")
    tmux.resize("a", 90, 26)
    tmux.wait_for("a", "size=90x26")

    pid, _, _ = only_child(door)
    assert_confined(pid, base_config.limits)
    tmux.send("a", "q")
    screen = tmux.wait_for("a", "SSH-EXIT=0")
    assert "DOOR-APP" not in screen
    assert {k: tmux.state("a")[k] for k in RESTORED} == RESTORED
    wait_until(lambda: not process_exists(pid), "the client process to be gone")
    wait_until(lambda: door.active() == 0, "the session slot to be released")


def test_two_sessions_and_a_crash_touches_only_its_own(start, ssh: Ssh, tmux: Tmux,
                                                       door_log, base_config) -> None:
    door = start()
    tmux.open("one", ssh.argv(door.port, "one"), 80, 24)
    tmux.open("two", ssh.argv(door.port, "two"), 80, 24)
    tmux.wait_for("one", "name=one")
    tmux.wait_for("two", "name=two")
    children = wait_until(lambda: c if len(c := door.children()) == 2 else None,
                          "two client processes")
    assert len({pid for pid, _, _ in children}) == 2
    for pid, _, _ in children:
        assert_confined(pid, base_config.limits)

    tmux.send("one", "x")  # the test app raises with a local variable in its frame
    screen = tmux.wait_for("one", "SSH-EXIT=1")
    assert CRASH_MESSAGE in screen
    assert "Traceback" not in screen and "LOCAL-VALUE" not in screen
    assert {k: tmux.state("one")[k] for k in RESTORED} == RESTORED
    # The crash report went to the server's log instead.
    wait_until(lambda: "RuntimeError: deliberate crash" in door_log.text(), "the crash report")

    # The other player did not notice.
    (pid_two, name, _), = wait_until(lambda: c if len(c := door.children()) == 1 else None,
                                     "one client left")
    assert name == "two" and process_exists(pid_two)
    tmux.resize("two", 70, 22)
    tmux.wait_for("two", "size=70x22")
    tmux.send("two", "q")
    tmux.wait_for("two", "SSH-EXIT=0")


def test_dropped_connection_leaves_no_process(start, ssh: Ssh, tmux: Tmux) -> None:
    door = start()
    tmux.open("a", ssh.argv(door.port), keep_shell=False)  # the pane's process is ssh itself
    tmux.wait_for("a", "DOOR-APP")
    pid, _, _ = only_child(door)
    profile = Path(os.readlink(f"/proc/{pid}/cwd"))
    assert profile.name.startswith("bang-door-guest-")

    os.kill(tmux.pane_pid("a"), signal.SIGKILL)  # the player's ssh vanishes mid-game

    wait_until(lambda: not process_exists(pid), "the orphaned client to be ended")
    wait_until(lambda: door.active() == 0 and not door.children(), "the session to be cleaned up")
    assert not profile.exists()  # a guest's throw-away profile is removed


def test_killed_client_still_restores_the_terminal(start, ssh: Ssh, tmux: Tmux) -> None:
    door = start()
    tmux.open("a", ssh.argv(door.port))
    tmux.wait_for("a", "DOOR-APP")
    assert tmux.state("a")["mouse_any_flag"] == "1"
    pid, _, _ = only_child(door)

    os.kill(pid, signal.SIGKILL)  # no chance for Textual to clean up after itself

    screen = tmux.wait_for("a", "SSH-EXIT=")
    assert "The game client stopped unexpectedly." in screen
    assert {k: tmux.state("a")[k] for k in RESTORED} == RESTORED


def test_idle_session_is_closed(start, ssh: Ssh, tmux: Tmux) -> None:
    door = start(idle_timeout=2)
    tmux.open("a", ssh.argv(door.port))
    tmux.wait_for("a", "DOOR-APP")
    screen = tmux.wait_for("a", "SSH-EXIT=")
    assert "Disconnected: no keystroke for 2 seconds." in screen
    assert {k: tmux.state("a")[k] for k in RESTORED} == RESTORED
    wait_until(lambda: door.active() == 0, "the slot to be released")


def test_crash_reports_stop_at_the_door_wide_cap(start, ssh: Ssh, tmux: Tmux, door_log) -> None:
    door = start(client_log_total=300)  # a crash report is longer: the first one reaches it
    for name in ("one", "two"):
        tmux.open(name, ssh.argv(door.port, name))
        tmux.wait_for(name, f"name={name}")
        tmux.send(name, "x")
        tmux.wait_for(name, "SSH-EXIT=1")
        # The door reads a client's log to its end before it logs that the session ended.
        wait_until(lambda n=name: f"session for {n!r} ended" in door_log.text(),
                   f"the end of {name}'s session")
    lines = door_log.lines
    (capped,) = [i for i, line in enumerate(lines) if "cap for the whole door" in line]
    kept = [line.partition(" client: ")[2] for line in lines[:capped] if " client: " in line]
    assert kept and sum(map(len, kept)) <= 300
    assert not [line for line in lines[capped:] if " client: " in line]
    assert "deliberate crash" not in door_log.text()
