"""Verify an export archive (packed .tar.gz or unpacked folder) against its manifest.json.

A packed archive holds one top folder with manifest.json and the files it lists (archives
of exportVersion 1 held them at the root; both verify). Refuses: a file whose size or SHA-256 differs from the manifest, a file the manifest does
not list, a listed file that is missing, absolute paths, `..`, links, devices and other
non-regular entries. Standard library only: this file ships inside every archive.

    python verify.py ARCHIVE_OR_FOLDER            # exit 0 verified, 1 refused
    python verify.py --extract ARCHIVE DEST       # verify, then unpack the top folder's files into the new folder DEST
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tarfile

MANIFEST = "manifest.json"
CHUNK = 1 << 20


class VerificationError(Exception):
    pass


def _safe_rel(name: str) -> str:
    rel = name[2:] if name.startswith("./") else name
    parts = rel.split("/")
    if not rel or rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in parts):
        raise VerificationError(f"unsafe path in archive: {name!r}")
    return rel


def _digest(handle) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    while chunk := handle.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
    return digest.hexdigest(), size


def _top_folder(names: list) -> str:
    """"" when the files sit at the root (exportVersion 1), else the one top folder."""
    if MANIFEST in names:
        return ""
    tops = sorted({name.split("/")[0] for name in names})
    if len(tops) != 1:
        raise VerificationError(f"archive should hold one top folder with {MANIFEST}; its top level holds "
                                + ", ".join(repr(t) for t in tops[:5]))
    return tops[0]


def _read_tar(path: str) -> tuple[dict, bytes | None, str]:
    """{rel path inside the top folder: (sha256, bytes)} of every file, the manifest's bytes
    and the top folder ("" for a root-level archive)."""
    found: dict = {}
    manifests: dict = {}
    names = []
    with tarfile.open(path, "r:gz") as archive:
        for member in archive:
            rel = _safe_rel(member.name)
            names.append(rel)
            if member.isdir():
                continue
            if not member.isfile():
                raise VerificationError(f"archive entry {rel!r} is not a regular file (link or device)")
            if rel in found:
                raise VerificationError(f"archive lists {rel!r} twice")
            handle = archive.extractfile(member)
            if rel.split("/")[-1] == MANIFEST and rel.count("/") <= 1:
                manifests[rel] = handle.read()
                found[rel] = (hashlib.sha256(manifests[rel]).hexdigest(), len(manifests[rel]))
            else:
                found[rel] = _digest(handle)
    top = _top_folder(names) if names else ""
    if not top:
        return found, manifests.get(MANIFEST), ""
    if top in found:
        raise VerificationError(f"archive's top level holds the file {top!r}, not a folder")
    prefix = top + "/"
    inside = {rel[len(prefix):]: value for rel, value in found.items() if rel.startswith(prefix)}
    return inside, manifests.get(prefix + MANIFEST), top


def _read_dir(root: str) -> tuple[dict, bytes | None, str]:
    found: dict = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            mode = os.lstat(full).st_mode
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise VerificationError(f"{rel!r} is not a regular file (link or device)")
            with open(full, "rb") as handle:
                found[rel] = _digest(handle)
    manifest_path = os.path.join(root, MANIFEST)
    manifest = open(manifest_path, "rb").read() if os.path.isfile(manifest_path) else None
    return found, manifest, ""


def verify(path: str) -> dict:
    """Return the manifest when every file matches it; raise VerificationError otherwise."""
    return _verify(path)[0]


def _verify(path: str) -> tuple[dict, str]:
    found, manifest_bytes, top = (_read_dir if os.path.isdir(path) else _read_tar)(path)
    if manifest_bytes is None:
        raise VerificationError(f"{path} has no {MANIFEST}")
    manifest = json.loads(manifest_bytes.decode("utf-8"))
    listed = {}
    for entry in manifest.get("files", []):
        rel = _safe_rel(entry["path"])
        if rel == MANIFEST or rel in listed:
            raise VerificationError(f"manifest lists {rel!r} more than once or lists itself")
        listed[rel] = entry
    problems = []
    for rel in sorted(set(found) - set(listed) - {MANIFEST}):
        problems.append(f"{rel}: not listed in the manifest")
    for rel, entry in sorted(listed.items()):
        if rel not in found:
            problems.append(f"{rel}: listed in the manifest but missing")
        elif found[rel] != (entry["sha256"], entry["bytes"]):
            problems.append(f"{rel}: content does not match the manifest (sha256 or size differs)")
    if problems:
        raise VerificationError("export failed verification: " + "; ".join(problems))
    return manifest, top


def extract(archive_path: str, dest: str) -> dict:
    """Verify the packed archive, then unpack its top folder's files into DEST (which must
    not exist yet)."""
    manifest, top = _verify(archive_path)
    prefix = top + "/" if top else ""
    os.makedirs(dest)
    # every entry was checked above (regular file or folder, safe relative path), so
    # writing them by hand needs no tarfile extraction filter (absent before 3.10.12)
    with tarfile.open(archive_path, "r:gz") as archive:
        for member in archive:
            rel = _safe_rel(member.name)
            if prefix and rel == top:
                continue
            target = os.path.join(dest, *rel[len(prefix):].split("/"))
            if member.isdir():
                os.makedirs(target, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with archive.extractfile(member) as source, open(target, "xb") as out:
                while chunk := source.read(CHUNK):
                    out.write(chunk)
    verify(dest)  # what landed on disk is what was verified
    return manifest


def main(argv: list) -> int:
    try:
        if len(argv) == 3 and argv[0] == "--extract":
            manifest = extract(argv[1], argv[2])
        elif len(argv) == 1:
            manifest = verify(argv[0])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (VerificationError, OSError, tarfile.TarError, ValueError, KeyError) as error:
        print(json.dumps({"verified": False, "error": str(error)}))
        return 1
    print(json.dumps({"verified": True, "files": len(manifest.get("files", []))}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
