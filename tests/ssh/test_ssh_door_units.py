"""The door's small parts on their own: names, terminal modes, environment, caps, the CLI."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

import asyncssh
import pytest

from client.commands import ssh_serve
from server.ssh_door import childlog
from server.ssh_door.caps import SessionCaps
from server.ssh_door.config import AuthMode, ChildRequest, join_command
from server.ssh_door.environment import DEFAULT_TERM, build_env
from server.ssh_door.identity import Identity, sanitize_name
from server.ssh_door.terminal import ModeTracker, set_window_size, usable_size


@pytest.mark.parametrize(("user", "name"), [
    ("rosa", "rosa"),
    ("-rm -rf", "rm-rf"),
    ("..al!ce~", "alce"),
    ("\x1b[31mred\x07", "31mred"),
    ("José_Delgado.2", "José_Delgado.2"),
    ("ｗｉｄｅ", "wide"),
    ("a" * 40, "a" * 16),
    ("", "guest"),
    ("$();|&", "guest"),
    ("\u0430lice", "guest"),  # a Cyrillic а among Latin letters: the table would refuse it
    ("a\u115fb", "guest"),  # a letter that draws nothing
    ("Иван", "Иван"),
])
def test_sanitize_name(user: str, name: str) -> None:
    assert sanitize_name(user) == name


def test_mode_tracker_undoes_what_is_left_on() -> None:
    tracker = ModeTracker()
    tracker.feed(b"\x1b[?1049h\x1b[?1000;1006h\x1b[?25l\x1b[>1u\x1b[?2004h")
    tracker.feed(b"\x1b[?2004l")  # bracketed paste was turned off again
    reset = tracker.reset_sequence()
    assert b"\x1b[?1000l" in reset and b"\x1b[?1006l" in reset
    assert b"\x1b[?25h" in reset and b"\x1b[<1u" in reset
    assert b"2004" not in reset
    assert reset.endswith(b"\x1b[?1049l")  # last, so the cursor lands where the shell had it


def test_mode_tracker_sees_sequences_split_across_reads() -> None:
    tracker = ModeTracker()
    data = b"text\x1b[?1049hmore\x1b[?1003h"
    for i in range(len(data)):
        tracker.feed(data[i:i + 1])
    assert tracker.reset_sequence() == b"\x1b[0m\x1b[?1003l\x1b[?1049l"


def test_mode_tracker_after_a_clean_exit_only_resets_colours() -> None:
    tracker = ModeTracker()
    tracker.feed(b"\x1b[?1049h\x1b[?1000h\x1b[>1u\x1b[?25l")
    tracker.feed(b"\x1b[<u\x1b[?1000l\x1b[?25h\x1b[?1049l")
    assert tracker.reset_sequence() == b"\x1b[0m"


def test_zero_size_falls_back_to_80x24() -> None:
    assert usable_size(0, 0) == (80, 24)
    assert usable_size(132, 0) == (80, 24)
    assert usable_size(132, 43) == (132, 43)


@pytest.mark.parametrize(("asked", "got"), [((0, 0), (80, 24)), ((120, 40), (120, 40)),
                                            ((70_000, 24), (500, 24)),
                                            ((10_000, 10_000), (500, 250))])
def test_window_size_reaches_the_pty(asked: tuple[int, int], got: tuple[int, int]) -> None:
    master, slave = os.openpty()
    try:
        set_window_size(master, *asked)
        assert os.get_terminal_size(slave) == got
    finally:
        os.close(master)
        os.close(slave)


def test_child_log_lines_go_to_the_server_log(caplog, monkeypatch) -> None:
    monkeypatch.setattr(childlog, "LIMIT", 1000)  # small enough to overflow through a pipe
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    child_log = childlog.ChildLog(read_end, "1.2.3.4 [rosa]")
    os.write(write_end, b"first line\nTraceback: sec")
    with caplog.at_level(logging.WARNING, "server.ssh_door"):
        assert child_log.read() and not child_log.read()  # then nothing more for now
        os.write(write_end, b"ond part\n")
        for _ in range(20):
            os.write(write_end, b"flood " * 100 + b"\n")
            child_log.read()
        os.close(write_end)
        while child_log.read():
            pass
    os.close(read_end)
    assert child_log.at_end
    lines = [r.getMessage() for r in caplog.records]
    assert lines[:2] == ["1.2.3.4 [rosa] client: first line",
                         "1.2.3.4 [rosa] client: Traceback: second part"]
    assert 1 <= sum("flood" in line for line in lines) <= 2  # the rest of the flood was cut


def test_client_logs_are_capped_in_total_across_sessions(caplog) -> None:
    budget = childlog.LogBudget(100)
    pipes = [os.pipe() for _ in range(2)]
    logs = [childlog.ChildLog(read, f"s{i}", budget) for i, (read, _) in enumerate(pipes)]
    with caplog.at_level(logging.WARNING, "server.ssh_door"):
        for round_ in range(3):
            for (_, write), child_log in zip(pipes, logs, strict=True):
                os.write(write, f"{child_log.label} line {round_} ".encode() + b"x" * 20 + b"\n")
                child_log.read()
    for read, write in pipes:
        os.close(read)
        os.close(write)
    lines = [r.getMessage() for r in caplog.records]
    kept = [line for line in lines if " client: " in line]
    assert kept == [f"s{i} client: s{i} line {r} " + "x" * 20 for r, i in ((0, 0), (0, 1), (1, 0))]
    # One line says so when the cap is reached, and nothing from any client follows it.
    assert lines[3:] == [lines[3]] and "cap for the whole door (100 bytes)" in lines[3]


def test_environment_is_built_from_scratch(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SECRET_OF_THE_SERVER", "x")
    sent_by_client = {
        "COLORTERM": "truecolor", "NO_COLOR": "", "LD_PRELOAD": "/tmp/evil.so",
        "PYTHONPATH": "/tmp", "TEXTUAL": "devtools", "LANG": "xx_XX.ISO-8859-1",
    }
    env = build_env("xterm-kitty", sent_by_client, tmp_path, Identity("rosa", "SHA256:abc"))
    assert env["TERM"] == "xterm-kitty" and env["LANG"] == "C.UTF-8"
    assert env["COLORTERM"] == "truecolor" and env["NO_COLOR"] == "1"
    assert env["BANG_DOOR"] == "1" and env["BANG_DOOR_KEY"] == "SHA256:abc"
    assert env["HOME"] == str(tmp_path) and env["BANG_CONFIG_DIR"].startswith(str(tmp_path))
    assert env["PYTHONPATH"] != "/tmp"
    for name in ("LD_PRELOAD", "TEXTUAL", "SECRET_OF_THE_SERVER"):
        assert name not in env


@pytest.mark.parametrize("term", [None, "", "x" * 80, "xterm\x1b]0;", "../../etc"])
def test_odd_terminal_types_are_replaced(tmp_path: Path, term: str | None) -> None:
    env = build_env(term, {"COLORTERM": "rainbow"}, tmp_path, Identity("g"))
    assert env["TERM"] == DEFAULT_TERM
    assert "COLORTERM" not in env and "BANG_DOOR_KEY" not in env


def test_identity_from_key_is_stable() -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    first, again = Identity.from_key("rosa", key), Identity.from_key("other", key)
    assert first.key_digest == again.key_digest and len(first.key_digest or "") == 64
    assert first.key_fingerprint == key.get_fingerprint("sha256")
    assert Identity.guest("x").key_digest is None


def test_caps_total_and_per_address() -> None:
    caps = SessionCaps(max_sessions=3, max_per_ip=2)
    assert caps.try_acquire("a") is None and caps.try_acquire("a") is None
    assert "your address" in (caps.try_acquire("a") or "")
    assert caps.try_acquire("b") is None
    assert "all 3 places" in (caps.try_acquire("c") or "")
    caps.release("a")
    assert caps.try_acquire("c") is None
    assert caps.active == 3


def test_default_child_is_bang_join_from_an_argument_list() -> None:
    argv = join_command(ChildRequest("mqtt://127.0.0.1:1883", "rosa"))
    assert argv == [sys.executable, "-m", "client.cli", "join",
                    "--broker", "mqtt://127.0.0.1:1883", "--name", "rosa"]


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    ssh_serve.register(parser.add_subparsers())
    return parser.parse_args(["ssh-serve", *argv])


def test_cli_options_reach_the_config(tmp_path: Path) -> None:
    args = parse("--port", "2022", "--bind", "127.0.0.1", "--auth", "pubkey",
                 "--host-key", str(tmp_path / "k"), "--max-sessions", "7", "--max-per-ip", "2",
                 "--idle", "90", "--data", str(tmp_path))
    config = ssh_serve.door_config(args, "mqtt://127.0.0.1:1")
    assert (config.port, config.bind, config.auth) == (2022, "127.0.0.1", AuthMode.PUBKEY)
    assert config.host_key_file == tmp_path / "k" and config.data_dir == tmp_path
    assert (config.max_sessions, config.max_per_ip, config.idle_timeout) == (7, 2, 90)
    defaults = ssh_serve.door_config(parse(), "mqtt://127.0.0.1:1")
    assert (defaults.port, defaults.auth, defaults.bind) == (2222, AuthMode.HYBRID, "")


@pytest.mark.parametrize("bad", [["--max-sessions", "0"], ["--idle", "-1"], ["--auth", "none"]])
def test_cli_rejects_bad_values(bad: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse(*bad)
