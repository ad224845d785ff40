"""Files a process keeps in the user's cache between runs (`$XDG_CACHE_HOME/metrobot`, else
`~/.cache/metrobot`): work that is the same at every start, named by the digest of everything it
was made from, so that a change to any of it makes a new name rather than a stale file.

Nothing depends on them: where the cache cannot be read or written (a read-only home, no home),
the work is done again, as before. A file is written whole or not at all (processes starting
together may race to write the same one)."""

from __future__ import annotations

import os
from pathlib import Path

LIMIT = 256  # files of a kind: keeping one more removes the oldest (each upgrade makes new names)


def _path(kind: str, name: str) -> Path:
    home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(home) / "metrobot" / kind / name


def kept(kind: str, name: str) -> bytes | None:
    """The file `name` kept under `kind`, or None."""
    try:
        return _path(kind, name).read_bytes()
    except (OSError, RuntimeError):  # (RuntimeError: no home directory to find)
        return None


def keep(kind: str, name: str, data: bytes, limit: int | None = None) -> None:
    """Keep `data` as `name` under `kind` (silently not, where it cannot be written), and at most
    `limit` files of that kind (LIMIT when None)."""
    try:
        where = _path(kind, name)
        where.parent.mkdir(parents=True, exist_ok=True)
        part = where.with_name(f"{where.name}.{os.getpid()}.part")
        part.write_bytes(data)
        os.replace(part, where)
        _prune(where.parent, LIMIT if limit is None else limit)
    except (OSError, RuntimeError):
        pass


def _prune(folder: Path, limit: int) -> None:
    files = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime)
    for old in files[: max(0, len(files) - limit)]:
        old.unlink(missing_ok=True)
