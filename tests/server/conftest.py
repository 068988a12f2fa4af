from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from server.host import Host
from server.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    db = Store(tmp_path / "host.sqlite3")
    yield db
    db.close()


@pytest.fixture
async def host(store: Store) -> Host:
    """A host core in the test's event loop; bots move at once."""
    return Host(store, bot_delay=0.0)
