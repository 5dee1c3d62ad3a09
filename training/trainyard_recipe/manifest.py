"""manifest.json of a job's output folder: every file with its size and SHA-256.

Paths are relative with "/" separators and sorted; the manifest does not list itself.
Symlinks and special files are refused: the worker serves these files to other jobs and
to the controller, and a link could point anywhere on the machine.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.hashing import sha256_file

MANIFEST_NAME = "manifest.json"


class ManifestError(Exception):
    pass


def _walk_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            mode = os.lstat(path).st_mode
            rel = path.relative_to(root).as_posix()
            if stat.S_ISLNK(mode):
                raise ManifestError(f"output {rel!r} is a symbolic link; outputs must be plain files")
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise ManifestError(f"output {rel!r} is not a regular file")
            files.append(path)
    return files


def build_manifest(output_dir: str | os.PathLike) -> dict[str, Any]:
    root = Path(output_dir)
    entries = []
    for path in _walk_files(root):
        rel = path.relative_to(root).as_posix()
        if rel == MANIFEST_NAME:
            continue
        entries.append({"path": rel, "bytes": path.stat().st_size, "sha256": sha256_file(path)})
    entries.sort(key=lambda entry: entry["path"])
    return {"files": entries}


def write_manifest(output_dir: str | os.PathLike) -> dict[str, Any]:
    """Hash every file under output_dir, write output_dir/manifest.json, return it."""
    manifest = build_manifest(output_dir)
    write_json_atomic(Path(output_dir) / MANIFEST_NAME, manifest)
    return manifest
