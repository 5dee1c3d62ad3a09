#!/usr/bin/env python3
"""Run the Python test suite (pytest over training/) in a pinned test venv.

    python3 training/tools/run_pytests.py [pytest args...]

1. Builds/reuses the test venv <envs>/pytest-<sha256 of training/requirements-test.txt>.
2. Builds/reuses every recipe environment (training/recipes/*/recipe.json and
   training/evaluation/recipe.json) with build_env.py into the same envs dir, so tests that
   run a recipe as a real subprocess (conftest.py `run_job`) find its interpreter.
3. Runs pytest with that venv and exits with pytest's exit code (or 1 when pytest passed
   but a recipe environment failed to build).

envs dir: $TRAINYARD_TEST_ENVS_DIR, default <repo>/.tmp/envs. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
TRAINING = TOOLS.parent
REPO = TRAINING.parent
sys.path.insert(0, str(TOOLS))

import build_env  # noqa: E402  (sibling module, standard library only)


def envs_dir() -> Path:
    return Path(os.environ.get("TRAINYARD_TEST_ENVS_DIR") or REPO / ".tmp" / "envs").absolute()


def recipe_dirs() -> list[Path]:
    found = sorted(p.parent for p in (TRAINING / "recipes").glob("*/recipe.json"))
    if (TRAINING / "evaluation" / "recipe.json").is_file():
        found.append(TRAINING / "evaluation")
    return found


def ensure_test_venv(envs: Path) -> Path:
    requirements_path = TRAINING / "requirements-test.txt"
    requirements = requirements_path.read_bytes()
    build_env.check_pinned(requirements, requirements_path)
    env_id = "pytest-" + hashlib.sha256(requirements).hexdigest()
    info = build_env.probe_interpreter(sys.executable)
    result = build_env.build_environment(
        env_id=env_id, name="pytest", version="", requirements=requirements,
        requirements_path=requirements_path, envs_dir=envs, python=sys.executable, info=info)
    return Path(result["path"]) / "venv" / "bin" / "python"


def build_recipe_envs(envs: Path) -> list[str]:
    failures = []
    for recipe_dir in recipe_dirs():
        started = time.monotonic()
        proc = subprocess.run([sys.executable, str(TOOLS / "build_env.py"), "--recipe-dir", str(recipe_dir),
                               "--envs-dir", str(envs)], capture_output=True, text=True)
        last = (proc.stdout.strip().splitlines() or [""])[-1]
        rel = recipe_dir.relative_to(REPO)
        if proc.returncode != 0:
            failures.append(str(rel))
            print(f"run_pytests: environment for {rel} FAILED to build:\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}",
                  file=sys.stderr)
        else:
            print(f"run_pytests: {rel}: {last} ({time.monotonic() - started:.1f} s)", flush=True)
    return failures


def main(argv: list[str]) -> int:
    envs = envs_dir()
    envs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        python = ensure_test_venv(envs)
    except build_env.BuildError as exc:
        print(f"run_pytests: test venv: {exc}", file=sys.stderr)
        return 1
    failures = build_recipe_envs(envs)
    print(f"run_pytests: environments ready in {time.monotonic() - started:.1f} s", flush=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "VIRTUAL_ENV")}
    env.update({"TRAINYARD_TEST_ENVS_DIR": str(envs), "PYTHONPATH": str(TRAINING), "PYTHONNOUSERSITE": "1"})
    names_paths = any(Path(arg.split("::")[0]).exists() for arg in argv if not arg.startswith("-"))
    targets = argv if names_paths else [str(TRAINING), *argv]
    code = subprocess.call([str(python), "-m", "pytest", "-c", str(TRAINING / "pytest.ini"),
                            "--rootdir", str(TRAINING), *targets], env=env, cwd=REPO)
    if code == 0 and failures:
        print(f"run_pytests: pytest passed but these environments failed to build: {', '.join(failures)}",
              file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
