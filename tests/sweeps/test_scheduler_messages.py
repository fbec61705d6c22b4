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


def _listener(answer: bytes | None):
    """A port that accepts every connection and then sends ``answer`` (None: nothing, ever; b"": closes)."""
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if answer is None:
                held.append(conn)  # open and silent
            else:
                if answer:
                    conn.sendall(answer)
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return server


def test_a_port_that_accepts_and_stays_silent_is_refused_within_twice_the_connect_timeout(monkeypatch):
    """It used to hang Dask's Client without bound (a raw TCP server, not a scheduler).  Entered in a thread, so
    that a hang fails this test instead of stalling the suite."""
    import threading

    monkeypatch.setattr(ex, "CONNECT_SECONDS", 1.0)
    server = _listener(None)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    raised = []

    def enter():
        try:
            with ex.executor(address):
                pass
        except InputError as exc:
            raised.append(str(exc))

    start = time.perf_counter()
    worker = threading.Thread(target=enter, daemon=True)
    worker.start()
    worker.join(2 * ex.CONNECT_SECONDS + 10)
    server.close()
    assert not worker.is_alive(), "the executor still waits on a silent port"
    assert time.perf_counter() - start < 2 * ex.CONNECT_SECONDS + 1
    assert len(raised) == 1 and ("(the port accepted a connection but sent no Dask handshake within 1 s); is a "
                                 "scheduler running there?") in raised[0], raised


def test_a_port_that_accepts_and_closes_is_refused_at_once():
    server = _listener(b"")
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    try:
        with pytest.raises(InputError, match=r"closed the connection without a Dask handshake"), ex.executor(address):
            pass
    finally:
        server.close()
