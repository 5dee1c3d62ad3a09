#!/usr/bin/env python3
"""Build (or reuse) a recipe's private Python environment. Standard library only.

    python3 training/tools/build_env.py --recipe-dir training/recipes/data --envs-dir ~/.trainyard/worker/envs
    python3 training/tools/build_env.py --recipe-dir training/recipes/data --envs-dir DIR --print-id

Environment id = sha256("<python major.minor.micro>\\n" + raw bytes of requirements.txt)
(docs/dev/contracts.md, "Environments"). Layout: <envs>/<id>/venv/ and <envs>/<id>/ready.json,
ready.json written last; a folder without it is not an environment.

Concurrency: an exclusive flock on <envs>/.locks/<id>.lock, so two builds of one id build
once and the second reuses. The build happens in <envs>/.building/<id>-<pid>/ and is renamed
into place only when complete; a failure (or SIGTERM) removes that folder and exits 1.
pip's output is this program's log; the last stdout line is JSON:
{"environmentId", "path", "reused"} (or {"environmentId", "error"} on failure).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

PIN_LINE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9_,.-]+\])?==[A-Za-z0-9.+!_-]+$")
INTERPRETER_PROBE = (
    "import json, platform, sys; "
    "print(json.dumps({'version': platform.python_version(), "
    "'base': getattr(sys, '_base_executable', sys.executable) or sys.executable}))"
)


class BuildError(Exception):
    pass


def probe_interpreter(python: str) -> dict:
    """Version and base executable of the interpreter that will own the venv."""
    try:
        out = subprocess.run([python, "-c", INTERPRETER_PROBE], check=True, capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise BuildError(f"cannot run Python interpreter {python!r}: {exc}") from None
    info = json.loads(out.strip().splitlines()[-1])
    info["base"] = os.path.realpath(info["base"])
    return info


def environment_id(python_version: str, requirements: bytes) -> str:
    return hashlib.sha256(f"{python_version}\n".encode("utf-8") + requirements).hexdigest()


def check_pinned(requirements: bytes, source: Path) -> None:
    """Every requirement must be `pkg==version`: an environment is named by its lock file."""
    for number, raw in enumerate(requirements.decode("utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line and not PIN_LINE.match(line):
            raise BuildError(f"{source}:{number}: {raw.strip()!r} is not pinned as pkg==version")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _remove_stale_builds(building: Path, env_id: str) -> None:
    """Temp folders of builds whose process died (killed -9) are garbage; we hold the lock."""
    for path in building.glob(f"{env_id}-*"):
        pid = path.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or int(pid) == os.getpid() or not _pid_alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _relocate_scripts(bin_dir: Path, old: Path, new: Path) -> None:
    """Console scripts and activate files name the temp path; point them at the final one."""
    old_b, new_b = str(old).encode(), str(new).encode()
    for script in bin_dir.iterdir():
        if script.is_symlink() or not script.is_file():
            continue
        data = script.read_bytes()
        if old_b in data and b"\0" not in data[:4096]:
            script.write_bytes(data.replace(old_b, new_b))


def _write_json_atomic(path: Path, value: dict) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(value, handle, indent=2)
        handle.write("\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _clean_env() -> dict:
    """pip must install into the venv only: no user site, no inherited PYTHONPATH/PIP_USER."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PIP_USER", "PIP_TARGET", "PIP_PREFIX", "VIRTUAL_ENV")}
    env.update({"PYTHONNOUSERSITE": "1", "PIP_NO_INPUT": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    return env


def build_environment(*, env_id: str, name: str, version: str, requirements: bytes,
                      requirements_path: Path, envs_dir: Path, python: str, info: dict) -> dict:
    """Build <envs_dir>/<env_id> under the lock unless it is ready; return the result line."""
    final = envs_dir / env_id
    locks, building = envs_dir / ".locks", envs_dir / ".building"
    locks.mkdir(parents=True, exist_ok=True)
    building.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{env_id}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (final / "ready.json").is_file():
            return {"environmentId": env_id, "path": str(final), "reused": True}
        if final.exists():  # not an environment (no ready.json): a leftover, we hold the lock
            shutil.rmtree(final)
        _remove_stale_builds(building, env_id)
        temp = building / f"{env_id}-{os.getpid()}"
        try:
            started = time.monotonic()
            print(f"building environment {env_id} for {name} {version} with Python {info['version']}", flush=True)
            subprocess.run([python, "-m", "venv", str(temp / "venv")], check=True, env=_clean_env())
            venv_python = temp / "venv" / "bin" / "python"
            if requirements.strip():
                subprocess.run([str(venv_python), "-m", "pip", "install", "--no-input",
                                "--disable-pip-version-check", "-r", str(requirements_path)],
                               check=True, env=_clean_env(), stdout=sys.stdout, stderr=sys.stderr)
            _relocate_scripts(temp / "venv" / "bin", temp / "venv", final / "venv")
            ready = {
                "environmentId": env_id, "recipe": name, "recipeVersion": version,
                "python": info["base"], "pythonVersion": info["version"],
                "requirementsSha256": hashlib.sha256(requirements).hexdigest(),
                "createdAt": datetime.now(timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z"),
            }
            _write_json_atomic(temp / "ready.json", ready)
            os.rename(temp, final)
            dir_fd = os.open(envs_dir, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
            print(f"built {env_id} in {time.monotonic() - started:.1f} s", flush=True)
        except subprocess.CalledProcessError as exc:
            raise BuildError(f"building the environment for {name} failed: {' '.join(map(str, exc.cmd[:4]))} "
                             f"exited with {exc.returncode}") from None
        finally:
            if temp.exists():
                shutil.rmtree(temp, ignore_errors=True)
        return {"environmentId": env_id, "path": str(final), "reused": False}


def load_recipe(recipe_dir: Path) -> tuple[dict, Path, bytes]:
    manifest_path = recipe_dir / "recipe.json"
    try:
        recipe = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BuildError(f"cannot read {manifest_path}: {exc}") from None
    requirements_path = recipe_dir / recipe.get("requirements", "requirements.txt")
    try:
        requirements = requirements_path.read_bytes()
    except OSError as exc:
        raise BuildError(f"cannot read requirements of recipe {recipe.get('name')}: {exc}") from None
    check_pinned(requirements, requirements_path)
    return recipe, requirements_path, requirements


def _on_sigterm(signum, _frame):
    raise SystemExit(f"build_env: stopped by signal {signum}")  # finally-blocks remove the temp folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--recipe-dir", required=True, type=Path, help="folder holding recipe.json")
    parser.add_argument("--envs-dir", required=True, type=Path, help="folder of environments")
    parser.add_argument("--python", default=sys.executable, help="base interpreter (default: this one)")
    parser.add_argument("--print-id", action="store_true", help="print the environment id only")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _on_sigterm)
    env_id = None
    try:
        recipe, requirements_path, requirements = load_recipe(args.recipe_dir)
        info = probe_interpreter(args.python)
        env_id = environment_id(info["version"], requirements)
        if args.print_id:
            print(env_id)
            return 0
        result = build_environment(env_id=env_id, name=recipe.get("name", args.recipe_dir.name),
                                   version=recipe.get("version", ""), requirements=requirements,
                                   requirements_path=requirements_path.absolute(),
                                   envs_dir=args.envs_dir.absolute(), python=args.python, info=info)
    except BuildError as exc:
        print(f"build_env: {exc}", file=sys.stderr)
        print(json.dumps({"environmentId": env_id, "error": str(exc)}), flush=True)
        return 1
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
