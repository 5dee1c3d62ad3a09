"""Write a deterministic .tar.gz in one streaming pass: files go from where they lie straight
into the compressor, nothing is staged or held in memory.

Same entries, same bytes: entries sorted by path (each folder before what it holds), mtimes
0, uid/gid 0, no owner names, modes 0644/0755, gzip header without a name and with mtime 0.
gzip level 1: the archive is a predictor of pickles and tree dumps, where level 9 took
1.5-3 minutes for 650 MB and saved little over level 1 (docs/benchmarks.md).

The gzip stream is one member compressed in 1 MiB blocks on several threads, as pigz
does: each block is raw deflate ended by a sync flush (the last by a finish), so the
blocks join into one valid deflate stream that any gunzip reads. The bytes depend only
on the input and the block size, never on the number of threads.
"""

from __future__ import annotations

import io
import struct
import tarfile
import zlib
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

COMPRESS_LEVEL = 1
COPY_BUFFER = 1 << 20
BLOCK = 1 << 20
# gzip header: magic, deflate, no flags (no name), mtime 0, XFL 4 ("fastest"), OS unknown
GZIP_HEADER = b"\x1f\x8b\x08\x00" + b"\0\0\0\0" + b"\x04\xff"


def _deflate_block(data: bytes, final: bool) -> bytes:
    compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)  # raw deflate, no dictionary carried over
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH)


class ParallelGzip(io.RawIOBase):
    """A write-only file object: what is written goes out gzip-compressed into `raw`."""

    def __init__(self, raw, threads: int) -> None:
        super().__init__()
        self._raw = raw
        self._pool = ThreadPoolExecutor(max_workers=max(1, threads))
        self._threads = max(1, threads)
        self._pending: deque = deque()
        self._buffer = bytearray()
        self._crc = 0
        self._size = 0
        raw.write(GZIP_HEADER)

    def writable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._size  # tarfile asks where it is in the uncompressed stream

    def write(self, data) -> int:
        data = bytes(data)
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        self._buffer += data
        while len(self._buffer) >= BLOCK:
            self._submit(bytes(self._buffer[:BLOCK]), final=False)
            del self._buffer[:BLOCK]
        return len(data)

    def _submit(self, block: bytes, final: bool) -> None:
        self._pending.append(self._pool.submit(_deflate_block, block, final))
        while len(self._pending) > 2 * self._threads:  # bounded memory: a few blocks in flight
            self._raw.write(self._pending.popleft().result())

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._submit(bytes(self._buffer), final=True)
            while self._pending:
                self._raw.write(self._pending.popleft().result())
            self._raw.write(struct.pack("<II", self._crc & 0xFFFFFFFF, self._size & 0xFFFFFFFF))
        finally:
            self._pool.shutdown(wait=True)
            super().close()


@dataclass(frozen=True)
class Entry:
    """One file of the archive: its path inside the top folder, from a file or from bytes."""

    path: str
    source: Path | None = None
    data: bytes | None = None


def _info(name: str, kind: bytes, size: int = 0) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    info.mode = 0o755 if kind == tarfile.DIRTYPE else 0o644
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def _folders(paths) -> list[str]:
    out = set()
    for path in paths:
        parts = path.split("/")[:-1]
        out.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return sorted(out)


def write_tar_gz(archive: Path, top: str, entries: list[Entry], threads: int = 1) -> None:
    """archive: `top/` holding every entry (paths relative to it, "/"-separated)."""
    by_path = {e.path: e for e in entries}
    if len(by_path) != len(entries):
        raise ValueError("an archive entry is listed twice")
    names = [(p, None) for p in _folders(by_path)] + [(p, by_path[p]) for p in by_path]
    names.sort(key=lambda item: item[0])
    with open(archive, "wb") as raw, \
            ParallelGzip(raw, threads) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT, bufsize=COPY_BUFFER) as tar:
        tar.addfile(_info(top, tarfile.DIRTYPE))
        for rel, entry in names:
            name = f"{top}/{rel}"
            if entry is None:
                tar.addfile(_info(name, tarfile.DIRTYPE))
            elif entry.data is not None:
                tar.addfile(_info(name, tarfile.REGTYPE, len(entry.data)), io.BytesIO(entry.data))
            else:
                with open(entry.source, "rb") as handle:
                    size = handle.seek(0, io.SEEK_END)
                    handle.seek(0)
                    tar.addfile(_info(name, tarfile.REGTYPE, size), handle)
