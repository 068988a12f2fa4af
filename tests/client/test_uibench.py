"""`python -m client.uibench --json` prints one JSON object of figures (it measures; this
only checks that it runs and says what it measured)."""

from __future__ import annotations

import json

import pytest

from client import uibench


def test_json_names_each_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert uibench.main(["--updates", "12", "--starts", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for size in ("80x24", "160x50"):
        for frame in ("first", "last"):
            prefix = f"table_{size}_{frame}"
            assert figures[f"{prefix}_n"] >= 1
            assert 0 < figures[f"{prefix}_p50_ms"] <= figures[f"{prefix}_p95_ms"] \
                <= figures[f"{prefix}_max_ms"]
    assert figures["startup_play_median_ms"] > 0 and figures["startup_offline_median_ms"] > 0


def test_a_count_below_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        uibench.main(["--updates", "0"])
    assert exit_.value.code == 2
    assert "--updates: must be a whole number of at least 1" in capsys.readouterr().err
