"""Fixtures for every test directory: a throwaway PostgreSQL cluster (see pgcluster.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from pgcluster import Cluster, bindir, unavailable

# The suite tests the sources, here and in every process it starts, even where `bang compile`
# built the compiled engine; tests/engine/test_compiled.py holds the compiled one to them.
os.environ["BANG_ENGINE"] = "interpreted"


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One cluster for the session, started on first use; skips where it cannot run."""
    reason = unavailable()
    if reason is not None:
        pytest.skip(reason)
    bin_dir = bindir()
    assert bin_dir is not None
    cluster = Cluster(bin_dir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(postgres: Cluster) -> Iterator[str]:
    """The URL of a new, empty database, dropped after the test."""
    name = postgres.create_database()
    yield postgres.url(name)
    postgres.drop_database(name)
