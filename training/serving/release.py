"""A release's export archive, verified against its manifest and unpacked once into the job's
work folder before anything in it is loaded (the predictor is a pickle: loading runs code)."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

from trainyard_recipe import BadInput

from recipes.export import verify


def archive_path(value) -> Path:
    """The archive itself, or a folder holding export.tar.gz (an export job's output)."""
    if not isinstance(value, str) or not value:
        raise BadInput("input field 'export' (the release's export archive) is required", code="missing_field")
    path = Path(value)
    if path.is_dir():
        path = path / "export.tar.gz"
    if not path.is_file():
        raise BadInput(f"no export archive at {path}", code="missing_input")
    return path


def unpack(archive: Path, work_dir: Path) -> Path:
    """Verify, then unpack into <work>/release (fresh); the folder is re-verified on disk."""
    dest = work_dir / "release"
    if dest.exists():
        raise BadInput(f"{dest} already exists; a serving job unpacks its release once", code="invalid_input")
    try:
        verify.extract(str(archive), str(dest))
    except (verify.VerificationError, tarfile.TarError, EOFError) as error:
        raise BadInput(f"the export archive failed verification: {error}", code="export_invalid") from None
    for root, dirs, files in os.walk(dest):  # read-only: nothing may change what was verified
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
    return dest
