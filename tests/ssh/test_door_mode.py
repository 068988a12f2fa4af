"""Door mode in the client: nothing is done on the server's machine for the player."""

from __future__ import annotations

import logging
import os
import sys
import threading
import webbrowser
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from client import door_mode


class Sample(App[None]):
    BINDINGS = [("x", "crash", "Crash")]

    def compose(self) -> ComposeResult:
        yield Static("sample")

    def action_crash(self) -> None:
        secret = "LOCAL-VALUE"  # noqa: F841
        raise RuntimeError("boom")


@pytest.fixture
def log_pipe(monkeypatch) -> Iterator[int]:
    """Door mode on, with a log pipe; the global logging and hook changes are undone after."""
    read_end, write_end = os.pipe()
    monkeypatch.setenv("BANG_DOOR", "1")
    monkeypatch.setenv("BANG_DOOR_LOG_FD", str(write_end))
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, sys.excepthook, threading.excepthook)
    yield read_end
    for handler in root.handlers:
        if handler not in saved[0]:
            handler.close()
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    sys.excepthook, threading.excepthook = saved[2], saved[3]
    os.close(read_end)


def read_log(fd: int) -> str:
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 1 << 20).decode()
    except BlockingIOError:
        return ""


@pytest.fixture
def browser_calls(monkeypatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: calls.append(url))
    return calls


async def test_outside_the_door_nothing_changes(monkeypatch, browser_calls) -> None:
    monkeypatch.delenv("BANG_DOOR", raising=False)
    handlers = list(logging.getLogger().handlers)
    door_mode.install_logging()
    assert logging.getLogger().handlers == handlers
    app = Sample()
    assert door_mode.apply(app) is False
    async with app.run_test():
        app.open_url("https://example.invalid/")
    assert browser_calls == ["https://example.invalid/"]  # what door mode must prevent


async def test_no_browser_no_files_no_suspend(log_pipe, browser_calls, tmp_path: Path,
                                              monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = Sample()
    assert door_mode.apply(app) is True
    async with app.run_test() as pilot:
        app.open_url("https://example.invalid/")
        app.save_screenshot(path=str(tmp_path))
        app.deliver_screenshot(path=str(tmp_path))
        app.action_screenshot(path=str(tmp_path))
        app.deliver_text(__import__("io").StringIO("x"), save_directory=tmp_path)
        app.action_suspend_process()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        await pilot.pause()
        notes = [str(n.message) for n in app._notifications]
    assert browser_calls == []
    assert list(tmp_path.iterdir()) == []
    assert "Screenshot" not in titles and "Quit" in titles
    assert any("https://example.invalid/" in n for n in notes)  # shown, so it can be copied


async def crash(app: Sample) -> None:
    with pytest.raises(RuntimeError, match="boom"):
        async with app.run_test() as pilot:
            await pilot.press("x")
            await pilot.pause()


async def test_crash_shows_a_traceback_with_locals_outside_the_door(monkeypatch, capsys) -> None:
    monkeypatch.delenv("BANG_DOOR", raising=False)
    await crash(Sample())
    assert "LOCAL-VALUE" in capsys.readouterr().err  # Textual's default, kept off the door


async def test_crash_goes_to_the_log_not_the_screen(log_pipe, capsys) -> None:
    app = Sample()
    door_mode.apply(app)
    await crash(app)
    shown = capsys.readouterr().err
    assert door_mode.CRASH_MESSAGE in shown
    assert "LOCAL-VALUE" not in shown and "Traceback" not in shown
    logged = read_log(log_pipe)
    assert "client crashed" in logged and "RuntimeError: boom" in logged


def test_uncaught_exception_outside_the_app_is_logged(log_pipe, capsys) -> None:
    door_mode.install_logging()
    try:
        raise ValueError("outside")
    except ValueError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)
    assert door_mode.CRASH_MESSAGE in capsys.readouterr().err
    assert "ValueError: outside" in read_log(log_pipe)


def test_in_the_door_an_unreachable_broker_is_said_in_the_lobby(tmp_path: Path) -> None:
    """Outside the door `bang join` says in one line that it cannot reach the broker and
    exits; in the door the broker is the server's, so the player gets the lobby, which says
    so and tries again."""
    import pty
    import select
    import signal
    import subprocess
    import time

    from door_harness import WAIT, free_port

    master, slave = pty.openpty()
    env = {**os.environ, "BANG_DOOR": "1", "BANG_CONFIG_DIR": str(tmp_path),
           "TERM": "xterm-256color"}
    env.pop("BANG_DOOR_LOG_FD", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "client.cli", "join", "--broker",
         f"mqtt://127.0.0.1:{free_port()}"],
        stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + WAIT
        while b"trying again" not in seen and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    seen += os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
        assert b"cannot reach the broker" in seen and b"trying again" in seen, seen[-500:]
        assert child.poll() is None  # still in the lobby
    finally:
        os.killpg(child.pid, signal.SIGTERM)
        child.wait(WAIT)
        os.close(master)
