"""`bang ssh-serve --user NAME`: started as root, the door binds its port, then it and every
client it starts run as NAME, for good. Played for real: the door in a subprocess, the real ssh
client in tmux, and the kernel's own account of each process in /proc/PID/status.

The user is `nobody`, which Debian and Ubuntu have. The tests that switch users need root and a
Python (and project) that `nobody` may run: this one, or else the system's python3 of the same
version seeing this one's packages; without either they skip, saying why.
"""

from __future__ import annotations

import atexit
import functools
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import door_harness
import pytest
from door_harness import WAIT, Ssh, Tmux, children_of, proc_status, run_cli, wait_until

from server.ssh_door.privileges import Account, prepare_directory

PROJECT = Path(__file__).resolve().parents[2]
CAP_NET_BIND_SERVICE = 10


def nobody_account() -> Account:
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("needs the user `nobody`")
    return Account(entry.pw_name, entry.pw_uid, entry.pw_gid)


def why_nobody_cannot_run(python: str) -> str:
    """Empty when `nobody` can run `python` and import the project with it; else the reason."""
    try:
        result = subprocess.run(
            [python, "-c", "import client.cli, server.ssh_door, textual, amqtt"],
            user="nobody", group=pwd.getpwnam("nobody").pw_gid, extra_groups=[], cwd=PROJECT,
            capture_output=True, text=True, timeout=WAIT,
        )
    except PermissionError as exc:  # the interpreter itself is out of its reach
        return str(exc)
    lines = (result.stderr or result.stdout).strip().splitlines()
    return "" if result.returncode == 0 else (lines[-1] if lines else f"exit {result.returncode}")


def stand_in_python() -> str | None:
    """This interpreter may live where `nobody` cannot go (a pyenv under /root). The system's
    python3 of the same version, in a throw-away venv that sees this one's packages and the
    project, runs the same code; None when there is no such python3."""
    system = shutil.which("python3", path="/usr/bin:/bin")
    if system is None:
        return None
    version = subprocess.run([system, "-c", "import sys; print(*sys.version_info[:2])"],
                             capture_output=True, text=True, timeout=WAIT).stdout.split()
    if version != [str(n) for n in sys.version_info[:2]]:
        return None
    home = Path(tempfile.mkdtemp(prefix="bang-nobody-python-", dir="/tmp"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    home.chmod(0o755)
    subprocess.run([system, "-m", "venv", "--without-pip", str(home)], check=True, timeout=WAIT)
    lib = home / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (lib / "bang-under-test.pth").write_text(
        "\n".join([*(p for p in sys.path if p.endswith("site-packages")), str(PROJECT)]) + "\n")
    return str(home / "bin" / "python")


@functools.cache
def python_for_nobody() -> tuple[str, str]:
    """(an interpreter `nobody` can run the project with, "") or ("", why there is none)."""
    why = why_nobody_cannot_run(sys.executable)
    if not why:
        return sys.executable, ""
    stand_in = stand_in_python()
    if stand_in is None:
        return "", why
    return (stand_in, "") if not (why := why_nobody_cannot_run(stand_in)) else ("", why)


@pytest.fixture
def nobody(monkeypatch: pytest.MonkeyPatch) -> Account:
    """`nobody`, when this test process may become it and it may run the project; the doors of
    the test then run with an interpreter it may use."""
    if os.geteuid() != 0:
        pytest.skip("needs root: only a door started as root can switch users")
    account = nobody_account()
    python, why = python_for_nobody()
    if why:
        pytest.skip(f"user nobody cannot run {sys.executable} with this project (is it under "
                    f"a private home such as /root?), nor a system python3 of its version: {why}")
    monkeypatch.setattr(door_harness, "PYTHON", python)
    return account


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory `nobody` can reach (pytest's tmp_path is inside root's private one)."""
    path = Path(tempfile.mkdtemp(prefix="bang-user-", dir="/tmp"))
    path.chmod(0o711)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def assert_runs_as(pid: int, account: Account) -> None:
    """Real, effective, saved and filesystem ids are the user's; no supplementary groups, no
    capability, and no way to gain privileges through exec."""
    status = proc_status(pid)
    assert status["Uid"].split() == [str(account.uid)] * 4, status["Uid"]
    assert status["Gid"].split() == [str(account.gid)] * 4, status["Gid"]
    assert status["Groups"] == ""
    assert status["NoNewPrivs"] == "1"
    for name in ("CapPrm", "CapEff", "CapAmb"):
        assert int(status[name], 16) == 0, f"{name} {status[name]}"


def assert_owned(path: Path, account: Account, mode: int) -> None:
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (
        account.uid, account.gid, mode), path


def test_the_door_and_its_clients_run_as_the_user(serve, ssh: Ssh, tmux: Tmux,
                                                  shared_dir: Path, nobody: Account) -> None:
    data = shared_dir / "door"  # missing: root creates it for nobody
    server = serve("--user", "nobody", "--auth", "pubkey", data=data)
    assert "running as user nobody" in server.text()
    assert_runs_as(server.process.pid, nobody)

    tmux.open("rosa", ssh.argv(server.port, "rosa", key=ssh.keygen()))
    tmux.wait_for("rosa", "Lobby")
    (client_pid,) = wait_until(lambda: children_of(server.process.pid), "the client process")
    assert_runs_as(client_pid, nobody)

    # Everything the door made belongs to nobody, private as before.
    assert_owned(data, nobody, 0o700)
    assert_owned(data / "ssh_host_ed25519_key", nobody, 0o600)
    assert_owned(data / "host.sqlite3", nobody, 0o600)
    assert_owned(data / "players", nobody, 0o700)
    (profile,) = (data / "players").iterdir()
    assert_owned(profile, nobody, 0o700)

    tmux.send("rosa", "C-q")
    tmux.wait_for("rosa", "SSH-EXIT=0")


def test_an_ambient_capability_stops_at_the_door(serve, ssh: Ssh, tmux: Tmux,
                                                shared_dir: Path, nobody: Account) -> None:
    """systemd's AmbientCapabilities=CAP_NET_BIND_SERVICE (for port 22) without --user: the
    door keeps what it was given, but no client inherits it."""
    if shutil.which("setpriv") is None:
        pytest.skip("needs `setpriv` (Debian package util-linux)")
    data = shared_dir / "door"
    data.mkdir(mode=0o700)
    os.chown(data, nobody.uid, nobody.gid)
    prefix = ["setpriv", f"--reuid={nobody.uid}", f"--regid={nobody.gid}", "--clear-groups",
              "--inh-caps=+net_bind_service", "--ambient-caps=+net_bind_service", "--"]
    server = serve(data=data, prefix=prefix)
    door = proc_status(server.process.pid)
    assert int(door["CapEff"], 16) == 1 << CAP_NET_BIND_SERVICE  # what setpriv gave it
    assert int(door["CapAmb"], 16) == 0

    tmux.open("rosa", ssh.argv(server.port, "rosa"))
    tmux.wait_for("rosa", "Lobby")
    (client_pid,) = wait_until(lambda: children_of(server.process.pid), "the client process")
    client = proc_status(client_pid)
    for name in ("CapPrm", "CapEff", "CapAmb"):
        assert int(client[name], 16) == 0, f"{name} {client[name]}"


def assert_one_line_error(result: subprocess.CompletedProcess[str], *expected: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("bang ssh-serve: "), \
        result.stderr
    for text in expected:
        assert text in result.stderr


@pytest.mark.parametrize(("user", "expected"), [
    ("no-such-user-for-bang", "no such user on this machine"),
    ("root", "that is root"),
])
def test_a_user_that_cannot_serve_is_one_line(tmp_path: Path, user: str, expected: str) -> None:
    assert_one_line_error(run_cli(tmp_path, "--user", user), "--user ", user, expected)


def test_user_needs_a_door_started_as_root(tmp_path: Path, shared_dir: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() != 0:  # this test process is itself the unprivileged operator
        nobody_account()
        result = run_cli(tmp_path, "--user", "nobody")
    else:
        nobody = nobody_account()
        python, why = python_for_nobody()
        if why:
            pytest.skip(f"user nobody cannot run {sys.executable} with this project: {why}")
        monkeypatch.setattr(door_harness, "PYTHON", python)
        result = run_cli(shared_dir, "--user", "nobody", data=shared_dir / "door",
                         user=nobody.uid, group=nobody.gid, extra_groups=[], cwd=PROJECT)
    assert_one_line_error(result, "only a door started as root can switch users")
    assert not (shared_dir / "door").exists()


def test_files_the_user_cannot_use_are_one_line(shared_dir: Path, nobody: Account) -> None:
    data = shared_dir / "door"
    data.mkdir(mode=0o700)  # left by a door that ran as root
    result = run_cli(shared_dir, "--user", "nobody", data=data)
    assert_one_line_error(result, f"that user cannot write to {data}", "--data")

    os.chown(data, nobody.uid, nobody.gid)  # the directory is fixed, but not the key in it
    key = data / "ssh_host_ed25519_key"
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(key)
    key.chmod(0o600)
    result = run_cli(shared_dir, "--user", "nobody", data=data)
    assert_one_line_error(result, f"that user cannot read {key}",
                          f"`chown -R nobody: {key}`")


def test_root_creates_the_data_dir_only_where_the_user_cannot_redirect_it(
        shared_dir: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: it checks what root creates for the door's user")
    account = nobody_account()
    prepare_directory(shared_dir / "door", account)
    assert_owned(shared_dir / "door", account, 0o700)

    # Inside a directory the user owns, it could swap in a symlink: root leaves it to the user.
    prepare_directory(shared_dir / "door" / "deeper", account)
    assert not (shared_dir / "door" / "deeper").exists()

    existing = shared_dir / "existing"
    existing.mkdir(mode=0o755)
    prepare_directory(existing, account)  # what exists is never changed
    assert_owned(existing, Account("root", 0, 0), 0o755)
