"""A local TCP port for a server started in another process (a throwaway PostgreSQL, the pages'
own process): chosen here, bound there a moment later, and bound again there after a restart.

Asking the system for a free port (`bind` to port 0) gives one from its ephemeral range
(`/proc/sys/net/ipv4/ip_local_port_range`, 32768-60999 by default), the very range every
outgoing connection on the machine takes its local port from. Between the asking and the
server's bind, any connection (a test's HTTP client, a bot's database connection) may take it:
a `make test-repeat` run saw the pages' process refused with "address already in use". So the
ports come from below that range, where nothing takes a port unasked, each process (each
pytest-xdist worker) from its own band, and one still bound by anything is passed over.
"""

from __future__ import annotations

import itertools
import os
import socket

FIRST = 10_000  # below it: the ports of well-known services
BAND = 1_500  # ports a process goes through before it starts its band again

_taken = itertools.count()


def _ephemeral_start() -> int:
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default; other systems: the same order of ports


def _band() -> int:
    """This process's band: a pytest-xdist worker's by its number (gw0, gw1, ...), any other
    process's by its id, so that two processes of one run do not go through the same ports."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 8 + os.getpid() % 4


def free_port() -> int:
    """A port of 127.0.0.1 nothing is bound to now, outside the ephemeral range (see above);
    when the system leaves no room below that range, one from it, as before."""
    limit = _ephemeral_start()
    bands = (limit - FIRST) // BAND
    if bands < 1:
        return _asked()
    start = FIRST + (_band() % bands) * BAND
    for _ in range(BAND):
        port = start + next(_taken) % BAND
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # bound by something, or still in TIME_WAIT: the next one
            return port
    return _asked()


def _asked() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
