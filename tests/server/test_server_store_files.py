"""The host's data file holds its private keys: nobody else on the machine may read it."""

from __future__ import annotations

import logging
import stat
from pathlib import Path

import pytest

from client.net.identity import IDENTITY_FILE, load_or_create_key
from server.store import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_file_and_its_directory_are_private(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "host.sqlite3"
    store = Store(path)
    store.host_keys()  # written: the WAL exists now
    try:
        assert mode(path.parent) == 0o700
        assert mode(path) == 0o600
        assert mode(path.with_name("host.sqlite3-wal")) == 0o600
        assert mode(path.with_name("host.sqlite3-shm")) == 0o600
    finally:
        store.close()


def test_a_data_file_others_can_read_is_named_with_the_fix(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "host.sqlite3"
    Store(path).close()
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="bang.store"):
        Store(path).close()
    assert f"run `chmod 600 {path}`" in caplog.text
    caplog.clear()
    path.chmod(0o600)
    with caplog.at_level(logging.WARNING, logger="bang.store"):
        Store(path).close()
    assert caplog.text == ""


def test_the_client_key_and_its_directory_are_private(tmp_path: Path) -> None:
    config = tmp_path / "config"
    key = load_or_create_key(config)
    assert mode(config) == 0o700 and mode(config / IDENTITY_FILE) == 0o600
    (config / IDENTITY_FILE).chmod(0o644)
    assert load_or_create_key(config).public == key.public
    assert mode(config / IDENTITY_FILE) == 0o600  # our own file: made private again
