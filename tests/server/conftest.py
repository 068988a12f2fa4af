from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from server.host import Host
from server.store import Store, open_store


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_backends: the test runs on a SQLite store and on a PostgreSQL one "
        "(a throwaway cluster, see tests/pgcluster.py; skipped where PostgreSQL is missing)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("backend", ["sqlite", "postgresql"])


@pytest.fixture
def backend() -> str:
    """The store's backend: SQLite, unless the test is marked `both_backends`."""
    return "sqlite"


@pytest.fixture
def store_spec(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """What `bang host --store` would be given: a SQLite file, or a new PostgreSQL database."""
    if backend == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "host.sqlite3")


@pytest.fixture
def reopen(store_spec: str) -> Callable[[], Store]:
    """Open the test's store again, as a restarted host does."""
    return lambda: open_store(store_spec)


@pytest.fixture
def store(store_spec: str) -> Iterator[Store]:
    db = open_store(store_spec)
    yield db
    db.close()


@pytest.fixture
async def host(store: Store) -> Host:
    """A host core in the test's event loop; bots move at once."""
    return Host(store, bot_delay=0.0)
