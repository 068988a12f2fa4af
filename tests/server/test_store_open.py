"""`bang host --store`: a path opens SQLite, a postgresql:// URL opens PostgreSQL, and
anything that cannot be opened is one line and exit code 2, never a traceback."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest
from pgcluster import Cluster

from client.cli import main
from server.store import StoreUnavailable, open_store
from server.store_postgres import PostgresTables
from server.store_sqlite import SqliteTables


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens there once it is closed


def test_a_path_opens_sqlite(tmp_path: Path) -> None:
    store = open_store(tmp_path / "h.sqlite3")
    assert isinstance(store.tables, SqliteTables)
    assert store.where == str(tmp_path / "h.sqlite3")
    store.close()


def test_a_url_opens_postgresql_and_logs_no_password(pg_url: str) -> None:
    store = open_store(pg_url)
    assert isinstance(store.tables, PostgresTables)
    assert "test-only" not in store.where and "PostgreSQL database t_" in store.where
    store.close()


@pytest.mark.parametrize(("spec", "says"), [
    ("mysql://db/bang", "cannot store in mysql://…: give a postgresql:// URL or the path"),
    ("postgresql://u:secret@[::1/bang", "malformed PostgreSQL URL: end of string reached"),
    ("postgresql://db.example/bang?nosuch=1", 'malformed PostgreSQL URL: invalid URI query'),
    ("postgresql://db.example:99999/bang", "malformed PostgreSQL URL: the port must be 1-65535"),
])
def test_a_bad_spec_is_one_line(spec: str, says: str) -> None:
    with pytest.raises(StoreUnavailable) as caught:
        open_store(spec)
    assert str(caught.value).startswith(says)
    assert "secret" not in str(caught.value) and "\n" not in str(caught.value)


def test_an_unreachable_server_is_named() -> None:
    port = closed_port()
    with pytest.raises(StoreUnavailable,
                       match=f"^cannot reach PostgreSQL at 127.0.0.1:{port}: Connection refused$"):
        open_store(f"postgresql://bang:pw@127.0.0.1:{port}/bang")


def test_bad_credentials_and_a_missing_database_are_named(postgres: Cluster) -> None:
    where = f"cannot reach PostgreSQL at 127.0.0.1:{postgres.port}: "
    with pytest.raises(StoreUnavailable) as caught:
        open_store(postgres.url(password="wrong"))
    assert str(caught.value) == \
        where + 'password authentication failed for user "postgres"'
    with pytest.raises(StoreUnavailable) as caught:
        open_store(postgres.url("nosuchdb"))
    assert str(caught.value) == where + 'database "nosuchdb" does not exist'


def test_without_psycopg_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails
    monkeypatch.delitem(sys.modules, "server.store_postgres")
    with pytest.raises(StoreUnavailable,
                       match=r"install with: pip install 'bang-terminal\[postgresql\]'"):
        open_store("postgresql://db.example/bang")


@pytest.mark.parametrize("export", [False, True])
def test_bang_host_says_it_in_one_line_and_exits_2(
        export: bool, capsys: pytest.CaptureFixture[str]) -> None:
    port = closed_port()
    args = ["host", "--store", f"postgresql://bang:pw@127.0.0.1:{port}/bang"]
    assert main(args + (["--export", "k3v9x2ab"] if export else [])) == 2
    err = capsys.readouterr().err
    assert err == f"bang host: cannot reach PostgreSQL at 127.0.0.1:{port}: " \
                  "Connection refused\n"


def test_bang_host_exports_a_game_from_postgresql(
        pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    open_store(pg_url).close()  # the tables, and no room
    assert main(["host", "--store", pg_url, "--export", "nosuchroom"]) == 1
    assert capsys.readouterr().err == "bang host: no room 'nosuchroom' in this store\n"
