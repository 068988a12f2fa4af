"""The parts of `bang bench relay` that run around the host it measures: the host process
(`hostproc`), the load workers and the bench's side of them (`worker`, `pool`), and the host
pipeline alone, in process (`pipeline`)."""

from __future__ import annotations

from pathlib import Path

#: The directory that holds the `client` package: child processes run from it, so that they
#: run the same code as the bench.
ROOT = Path(__file__).resolve().parents[2]


class BenchError(Exception):
    """The bench cannot go on; the message is one line for the user."""
