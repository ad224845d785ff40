"""The ports servers started by the tests listen on (`tools/ports.py`)."""

from __future__ import annotations

import socket

from tools import ports


def test_a_port_comes_from_below_the_range_outgoing_connections_take_and_is_free():
    start = ports._ephemeral_start()
    seen = set()
    for _ in range(5):
        port = ports.free_port()
        assert port not in seen  # each asked once: a server restarted later keeps its own
        seen.add(port)
        if start - ports.FIRST >= ports.BAND:
            assert ports.FIRST <= port < start
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # nothing is bound there


def test_a_port_something_is_bound_to_is_passed_over(monkeypatch):
    monkeypatch.setattr(ports, "_taken", iter(range(10**6)))  # from the band's start
    first = ports.free_port()
    monkeypatch.setattr(ports, "_taken", iter(range(10**6)))
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", first))
        holder.listen()
        assert ports.free_port() != first
