"""An unreachable, well-formed Dask address (issue 48.5): one line asking whether a scheduler runs there
(``dask scheduler``), within the connect timeout ``CONNECT_SECONDS``, not a hint about the address format."""

from __future__ import annotations

import socket
import time

import pytest

from verify.errors import InputError
from verify.sweeps import executor as ex

pytest.importorskip("distributed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_port_asks_whether_a_scheduler_runs_there_at_once():
    address = f"tcp://127.0.0.1:{_free_port()}"
    start = time.perf_counter()
    with pytest.raises(InputError) as caught, ex.executor(address):
        pass
    assert time.perf_counter() - start < ex.CONNECT_SECONDS
    message = str(caught.value)
    assert message.startswith(f"no Dask scheduler answers at '{address}' (connection refused); is a scheduler "
                              "running there? Start one with `dask scheduler`")
    assert "tcp://HOST:PORT" not in message and "\n" not in message


def test_a_silent_address_is_refused_within_the_connect_timeout(monkeypatch):
    """A host that never answers (the connection attempt times out): refused after ``CONNECT_SECONDS``,
    the time it waited named, before Dask's own retries start."""
    waited = []

    def silent(address, timeout=None):
        waited.append(timeout)
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", silent)
    monkeypatch.setattr(ex, "CONNECT_SECONDS", 0.5)
    with pytest.raises(InputError, match=r"\(no answer within 0\.5 s\); is a scheduler running there\?"), \
            ex.executor("tcp://192.0.2.7:8786"):
        pass
    assert waited == [0.5]
