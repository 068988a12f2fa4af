"""Host key persistence and player identity: key fingerprints, profiles that survive reconnects,
guests that leave nothing behind."""

from __future__ import annotations

import stat
import subprocess

import pytest
from door_harness import APP_SHOWN, Ssh, Tmux, wait_until

from server.ssh_door.config import AuthMode
from server.ssh_door.hostkey import HostKeyError, load_or_create_host_key


def ssh_keygen_fingerprint(path) -> str:
    out = subprocess.run(["ssh-keygen", "-l", "-E", "sha256", "-f", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return out.split()[1]


def play_once(tmux: Tmux, name: str, argv: list[str]) -> str:
    tmux.open(name, argv)
    screen = tmux.wait_for(name, APP_SHOWN)
    tmux.send(name, "q")
    tmux.wait_for(name, "SSH-EXIT=0")
    return screen


def test_host_key_survives_a_restart(start, ssh: Ssh, base_config) -> None:
    first = start(auth=AuthMode.GUEST)
    key_file = base_config.host_key_file
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert first.server.fingerprint == ssh_keygen_fingerprint(key_file)
    alias = ("-o", "HostKeyAlias=door-under-test")  # the port changes between the two runs
    learn = ssh.run(first.port, *alias, command=["true"])  # accept-new records the key
    assert "exec request failed" in learn.stderr
    first.close()

    second = start(auth=AuthMode.GUEST)
    assert second.server.fingerprint == first.server.fingerprint
    again = ssh.run(second.port, *alias, strict=True, command=["true"])
    assert "exec request failed" in again.stderr  # got past the strict host key check
    assert "IDENTIFICATION HAS CHANGED" not in again.stderr


def test_unprotected_or_foreign_host_keys_are_refused(tmp_path) -> None:
    path = tmp_path / "key"
    load_or_create_host_key(path)
    path.chmod(0o644)
    with pytest.raises(HostKeyError, match="chmod 600"):
        load_or_create_host_key(path)
    rsa = tmp_path / "rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(rsa)],
                   check=True)
    with pytest.raises(HostKeyError, match="expected ssh-ed25519"):
        load_or_create_host_key(rsa)


def test_pubkey_identifies_the_player_across_reconnects(start, ssh: Ssh, tmux: Tmux,
                                                        base_config) -> None:
    door = start(auth=AuthMode.PUBKEY)
    key = ssh.keygen()
    fingerprint = ssh_keygen_fingerprint(key)

    screen = play_once(tmux, "first", ssh.argv(door.port, "dora", key=key))
    assert f"key={fingerprint}" in screen and "visits=1" in screen
    screen = play_once(tmux, "again", ssh.argv(door.port, "dora", key=key))
    assert "visits=2" in screen  # same profile: the client finds its seat credentials again

    profiles = list(base_config.players_dir.iterdir())
    assert len(profiles) == 1 and stat.S_IMODE(profiles[0].stat().st_mode) == 0o700

    other = ssh.keygen("other")
    screen = play_once(tmux, "other", ssh.argv(door.port, "dora", key=other))
    assert f"key={ssh_keygen_fingerprint(other)}" in screen and "visits=1" in screen

    keyless = ssh.run(door.port, "-tt")
    assert keyless.returncode == 255 and "Permission denied" in keyless.stderr


def test_hybrid_takes_keys_and_guests(start, ssh: Ssh, tmux: Tmux) -> None:
    door = start(auth=AuthMode.HYBRID)
    key = ssh.keygen()
    screen = play_once(tmux, "keyed", ssh.argv(door.port, "kim", key=key))
    assert f"key={ssh_keygen_fingerprint(key)}" in screen

    for attempt in ("guest1", "guest2"):
        screen = play_once(tmux, attempt, ssh.argv(door.port, "gus"))
        assert "key=none" in screen and "visits=1" in screen  # nothing kept for guests
    wait_until(lambda: door.active() == 0, "all slots released")
