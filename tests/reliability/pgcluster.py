"""PostgreSQL servers the database-fault suite can restart, stop, kill and fail over, from
Debian's package (as tools/pgserver.py): a primary and, made from it by `pg_basebackup -R`, a
standby that streams its WAL and, once `synchronous()`, must confirm every commit before the
primary acknowledges it (`synchronous_standby_names = '*'`).

Every call blocks (it runs the server's own programs): the tests run them in a thread.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tools import pgserver
from tools.ports import free_port


class Server:
    def __init__(self, root: Path, name: str):
        found = pgserver.bin_dir()
        assert found is not None, "PostgreSQL is not installed"  # (Cluster checks it first)
        self.bin = found
        self.root, self.name = root, name
        self.data, self.log = root / name, root / f"{name}.log"
        self.port = free_port()
        self.as_root = os.geteuid() == 0

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:  # (PostgreSQL refuses to run as root)
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=120)

    @property
    def options(self) -> str:
        # A test server: no fsync (a killed server's writes are still in the machine's memory),
        # but synchronous commits, so that a synchronous standby is waited for.
        return (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=100 "
            f"-c fsync=off -c full_page_writes=off"
        )

    def create(self) -> Server:
        pgserver.initdb(self.bin, self.run, self.data)  # (a copy of one initdb kept in the user's cache)
        return self.start()

    def start(self) -> Server:
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self.options, "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self.run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        """`pg_ctl restart -m fast`: connections cut, the server back a moment later."""
        self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self.options, "-m", "fast", "-w", "restart")

    def kill(self) -> None:
        """SIGKILL to the server and all its processes at once, as when its machine dies."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        doomed = [postmaster] + _children(postmaster)
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        until = time.monotonic() + 30
        while any(_alive(pid) for pid in doomed):
            assert time.monotonic() < until, "the killed server's processes did not die"
            time.sleep(0.02)

    def freeze(self) -> list[int]:
        """SIGSTOP the server and all its processes: it hangs (connections open, nothing answers)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        frozen = [postmaster] + _children(postmaster)
        for pid in frozen:
            # (a backend may end between the listing and its signal, or — already on its way
            # out — before the thaw: seen once in a shuffled run; it needs neither)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        return frozen

    @staticmethod
    def thaw(frozen: list[int]) -> None:
        for pid in frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def promote(self) -> None:
        self.run("pg_ctl", "-D", str(self.data), "-w", "promote")

    def sql(self, query: str, database: str = "postgres") -> str:
        return self.run(
            "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d", database, "-Atc", query
        ).stdout.strip()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> None:
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)

    def standby(self, name: str = "standby") -> Server:
        """A standby of this server, streaming from it (`pg_basebackup -R`), started."""
        standby = Server(self.root, name)
        self.run(
            "pg_basebackup",
            "-D",
            str(standby.data),
            "-R",
            "-X",
            "stream",
            "-c",
            "fast",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
        )
        return standby.start()

    def synchronous(self, timeout: float = 60.0) -> None:
        """From now on every commit waits for the standby to have it (and is acknowledged only then)."""
        self.sql("ALTER SYSTEM SET synchronous_standby_names = '*'")
        self.sql("SELECT pg_reload_conf()")
        until = time.monotonic() + timeout
        while self.sql("SELECT string_agg(sync_state, ',') FROM pg_stat_replication") != "sync":
            assert time.monotonic() < until, "the standby never became synchronous"
            time.sleep(0.1)


class Cluster:
    """A folder for the servers of one test, removed (every server stopped) at the end."""

    def __init__(self) -> None:
        if not pgserver.available():
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.root = Path(tempfile.mkdtemp(prefix="metrobot-pgfaults-"))
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
        self.servers: list[Server] = []

    def primary(self) -> Server:
        server = Server(self.root, "primary").create()
        self.servers.append(server)
        return server

    def standby_of(self, primary: Server) -> Server:
        server = primary.standby()
        self.servers.append(server)
        return server

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self.servers:
            if server.data.exists():
                server.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
