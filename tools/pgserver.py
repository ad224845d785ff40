"""A throwaway PostgreSQL server for tests and benchmarks, from Debian's package.

`with PostgresServer() as pg: pg.url("dbname")` starts a private cluster (initdb in a
temporary folder, a free port on 127.0.0.1, a socket in the folder), creates databases on
demand and removes everything at the end. As root it runs the server as the `postgres`
user (PostgreSQL refuses to run as root). `python tools/pgserver.py` starts one and waits,
printing its URL — handy for trying the bot on PostgreSQL by hand.

`available()` says whether the server programs are installed (`apt-get install
postgresql`; `.ci/run` does it when they are missing).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).resolve().parent if pg_ctl else None


def available() -> bool:
    return bin_dir() is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync and synchronous commits, as a real server (benchmarks)
        found = bin_dir()
        if found is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bin = found
        self.root = Path(tempfile.mkdtemp(prefix="metrobot-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self._databases: set[str] = set()

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=120)

    def start(self) -> PostgresServer:
        if self.as_root:
            shutil.chown(self.root, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not self.durable:  # a test server: speed of set-up matters, not surviving power cuts
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", options, "-w", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        if database not in self._databases and database != "postgres":
            self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", database)
            self._databases.add(database)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


if __name__ == "__main__":
    with PostgresServer() as server:
        print(server.url("metrobot"), flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            sys.exit(0)
