"""Every table a rule test deals is replayed from its record afterwards: the rule tests double
as determinism tests for the scenarios they play."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from table import Table

from shared.record import load_record, replay
from shared.serialize import encode_state


@pytest.fixture(autouse=True)
def tables_replay() -> Iterator[None]:
    Table.dealt.clear()
    yield
    for table in Table.dealt:
        again = replay(load_record(table.record_json()))
        assert encode_state(again) == table.encoded(), "the record does not replay identically"
