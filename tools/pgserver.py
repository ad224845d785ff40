"""A throwaway PostgreSQL server for tests and benchmarks, from Debian's package.

`with PostgresServer() as pg: pg.url("dbname")` starts a private cluster (initdb in a
temporary folder, a free port on 127.0.0.1, a socket in the folder), creates databases on
demand and removes everything at the end. As root it runs the server as the `postgres`
user (PostgreSQL refuses to run as root). A new cluster is a copy of one `initdb` made once
for the installed PostgreSQL and kept in the user's cache (`initdb`). `python tools/pgserver.py` starts one and waits,
printing its URL — handy for trying the bot on PostgreSQL by hand.

`available()` says whether the server programs are installed (`apt-get install
postgresql`; `.ci/run` does it when they are missing).
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tools.ports import free_port


def bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).resolve().parent if pg_ctl else None


def available() -> bool:
    return bin_dir() is not None


INITDB = ("-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")


def _template_dir(bin: Path) -> Path:
    """Named by what `initdb` makes the cluster from: the program (its path and when it was
    installed), its options and the environment's locale."""
    made_from = [str(bin), str((bin / "initdb").stat().st_mtime_ns), *INITDB]
    made_from += [f"{k}={os.environ.get(k, '')}" for k in ("LANG", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "TZ")]
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(home) / "metrobot" / "postgresql" / hashlib.sha256("\n".join(made_from).encode()).hexdigest()[:16]


def initdb(bin: Path, run: Any, data: Path) -> None:
    """A new cluster in `data` (which must not exist; its parent is the server user's), as
    `initdb` makes it with `INITDB`'s options: a copy of one made once for this PostgreSQL and
    kept in the user's cache (`$XDG_CACHE_HOME/metrobot/postgresql`), half a second of CPU less
    a server (the suite makes several); `run` runs one of PostgreSQL's programs as the server's
    user. Where the cache cannot be written, `initdb` itself, as before."""
    try:
        template = _template_dir(bin)
        template.parent.mkdir(parents=True, exist_ok=True)
        with open(template.parent / f"{template.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (released when closed, or when the process dies)
            if not (template / "PG_VERSION").exists():
                made = data.with_name(data.name + ".template")  # (made where the server's user may write)
                run("initdb", "-D", str(made), *INITDB)
                part = template.with_name(f"{template.name}.{os.getpid()}.part")
                subprocess.run(["cp", "-a", str(made), str(part)], check=True, capture_output=True)
                shutil.rmtree(made)
                with contextlib.suppress(FileNotFoundError):
                    shutil.rmtree(template)
                os.replace(part, template)
        # (-a: as root the copy stays the server user's, with its modes: PostgreSQL wants 0700)
        subprocess.run(["cp", "-a", str(template), str(data)], check=True, capture_output=True)
    except (OSError, RuntimeError, subprocess.CalledProcessError):
        shutil.rmtree(data, ignore_errors=True)
        run("initdb", "-D", str(data), *INITDB)


class PostgresServer:
    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync and synchronous commits, as a real server (benchmarks)
        found = bin_dir()
        if found is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bin = found
        self.root = Path(tempfile.mkdtemp(prefix="metrobot-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
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
        initdb(self.bin, self._run, self.data)
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
