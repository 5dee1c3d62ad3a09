"""SHA-256 of files, read as a stream (snapshots can be larger than memory)."""

from __future__ import annotations

import hashlib
import os

CHUNK_BYTES = 1 << 20


def sha256_file(path: str | os.PathLike) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()
