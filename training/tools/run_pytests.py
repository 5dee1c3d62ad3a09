#!/usr/bin/env python3
"""Run the Python test suite (pytest over training/) in a pinned test venv.

    python3 training/tools/run_pytests.py [pytest args...]
    python3 training/tools/run_pytests.py --build-only    (steps 1-3 only)

1. Builds/reuses the test venv <envs>/pytest-<sha256 of training/requirements-test.txt>.
2. Builds/reuses every recipe environment (training/recipes/*/recipe.json and
   training/evaluation*/recipe.json) with build_env.py into the same envs dir, so tests that
   run a recipe as a real subprocess (conftest.py `run_job`) find its interpreter.
3. A recipe whose tests import its own heavy stack (training/recipes/<name>/tests/
   requirements-test.txt: llm_lora's torch + transformers) gets its own test venv
   <envs>/pytest-<name>-<sha256 of that file>; its tests run there, the rest of the suite
   ignores them. The real model files those tests read are fetched first (test_models.py).
4. Runs pytest with each venv and exits with the first failing exit code (or 1 when pytest
   passed but a recipe environment failed to build).

envs dir: $TRAINYARD_TEST_ENVS_DIR, default <repo>/.tmp/envs. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
import xml.etree.ElementTree as ElementTree
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
TRAINING = TOOLS.parent
EVALUATORS = ("evaluation", "evaluation_lm")  # trusted recipes outside recipes/
REPO = TRAINING.parent
sys.path.insert(0, str(TOOLS))

import build_env  # noqa: E402  (sibling module, standard library only)
import test_models  # noqa: E402


def envs_dir() -> Path:
    return Path(os.environ.get("TRAINYARD_TEST_ENVS_DIR") or REPO / ".tmp" / "envs").absolute()


def recipe_dirs() -> list[Path]:
    found = sorted(p.parent for p in (TRAINING / "recipes").glob("*/recipe.json"))
    found += [TRAINING / name for name in EVALUATORS if (TRAINING / name / "recipe.json").is_file()]
    return found


def own_test_envs() -> dict[Path, Path]:
    """tests folder -> its requirements-test.txt, for recipes whose tests need their own venv.
    The LM evaluator's tests share llm_lora's (one torch venv, named after the file's recipe)."""
    own = {path.parent: path for path in sorted((TRAINING / "recipes").glob("*/tests/requirements-test.txt"))}
    lm_tests, lora_requirements = TRAINING / "evaluation_lm" / "tests", TRAINING / "recipes" / "llm_lora" / "tests" / "requirements-test.txt"
    if lm_tests.is_dir() and lora_requirements.is_file():
        own[lm_tests] = lora_requirements
    return own


def ensure_test_venv(envs: Path, requirements_path: Path = TRAINING / "requirements-test.txt", name: str = "") -> Path:
    requirements = requirements_path.read_bytes()
    build_env.check_pinned(requirements, requirements_path)
    env_id = "pytest-" + (f"{name}-" if name else "") + hashlib.sha256(requirements).hexdigest()
    info = build_env.probe_interpreter(sys.executable)
    result = build_env.build_environment(
        env_id=env_id, name="pytest", version="", requirements=requirements,
        requirements_path=requirements_path, envs_dir=envs, python=sys.executable, info=info)
    return Path(result["path"]) / "venv" / "bin" / "python"


def _build_one(recipe_dir: Path, envs: Path) -> str | None:
    """Builds (or finds) one recipe's environment; the recipe's path when it failed."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, str(TOOLS / "build_env.py"), "--recipe-dir", str(recipe_dir),
                           "--envs-dir", str(envs)], capture_output=True, text=True)
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    rel = recipe_dir.relative_to(REPO)
    if proc.returncode != 0:
        print(f"run_pytests: environment for {rel} FAILED to build:\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}",
              file=sys.stderr, flush=True)
        return str(rel)
    print(f"run_pytests: {rel}: {last} ({time.monotonic() - started:.1f} s)", flush=True)
    return None


def build_all(envs: Path, runs: list[tuple[Path | None, list[str]]], own: dict[Path, Path]) -> tuple[dict[Path | None, Path], list[str]]:
    """Every environment the runs need, built side by side: the test venvs, the test models
    and every recipe's environment (the tiers after pytest share them). Three at a time: a
    build is mostly pip unpacking wheels and waiting on the disk (measured from nothing on 2
    CPUs: 132 s, against 173 s when the test venvs were built one after another before the
    recipes' two at a time). Recipes that share an environment (evaluation_lm uses
    llm_lora's) are safe together: build_env locks per environment and builds it once.
    Returns each run's interpreter and the recipes whose environment failed to build; a test
    venv or model that cannot be had raises."""
    def test_venv(owner: Path | None) -> Path:
        return ensure_test_venv(envs) if owner is None else ensure_test_venv(envs, own[owner], own[owner].parents[1].name)

    with ThreadPoolExecutor(max_workers=3) as pool:
        venvs = {owner: pool.submit(test_venv, owner) for owner in dict.fromkeys(owner for owner, _args in runs)}
        models = [pool.submit(test_models.ensure, name, envs) for name in test_models.MODELS] \
            if any(owner is not None for owner, _ in runs) else []
        recipes = [pool.submit(_build_one, recipe_dir, envs) for recipe_dir in recipe_dirs()]
        for future in models:
            future.result()
        pythons = {owner: future.result() for owner, future in venvs.items()}
        return pythons, [failed for future in recipes if (failed := future.result())]


def _owner(arg: str, own: dict[Path, Path]) -> Path | None:
    """The tests folder with its own venv that a path argument lies in (None: the main venv).
    A recipe folder counts as its tests folder."""
    target = Path(arg.split("::")[0]).absolute()
    return next((tests for tests in own if target in (tests, tests.parent) or tests in target.parents), None)


def plan_runs(argv: list[str], own: dict[Path, Path]) -> list[tuple[Path | None, list[str]]]:
    """(tests folder with its own venv, or None for the main venv; pytest arguments) per run.
    Paths choose the venv; a path above such a tests folder (training/) runs it in its venv too."""
    options = [arg for arg in argv if arg.startswith("-") or not Path(arg.split("::")[0]).exists()]
    paths = [arg for arg in argv if arg not in options] or [str(TRAINING)]
    ignores = [f"--ignore={tests}" for tests in own]
    runs: dict[Path | None, list[str]] = {}
    for arg in paths:
        owner = _owner(arg, own)
        if owner is None:
            runs.setdefault(None, []).append(arg)
            runs.update({tests: [str(tests)] for tests in own if Path(arg).absolute() in tests.parents})
        else:
            runs.setdefault(owner, []).append(str(owner) if Path(arg).absolute() == owner.parent else arg)
    return [(owner, [*args, *(ignores if owner is None else []), *options]) for owner, args in runs.items()]


def _junit_runs(runs: list[tuple[Path | None, list[str]]]) -> tuple[Path | None, list[Path]]:
    """With several runs, each writes its own --junitxml file (merged afterwards into the one
    asked for), since a second pytest would overwrite the first's report."""
    target = next((Path(arg.split("=", 1)[1]) for _o, args in runs for arg in args if arg.startswith("--junitxml=")), None)
    if target is None or len(runs) < 2:
        return None, []
    parts = []
    for index, (owner, args) in enumerate(runs):
        part = target.with_name(f"{target.stem}.{owner.parent.name if owner else 'main'}{target.suffix}")
        args[:] = [f"--junitxml={part}" if arg.startswith("--junitxml=") else arg for arg in args]
        parts.append(part)
    return target, parts


def _merge_junit(target: Path, parts: list[Path]) -> None:
    merged = ElementTree.Element("testsuites", name="pytest tests")
    for part in parts:
        if part.is_file():
            root = ElementTree.parse(part).getroot()
            merged.extend(root.iter("testsuite"))
            part.unlink()
    ElementTree.ElementTree(merged).write(target, encoding="utf-8", xml_declaration=True)


def _run_one(args: list[str], python: Path, env: dict[str, str], together: bool) -> int:
    """One pytest run. Beside another, its output is kept and printed whole when it ends, so
    the two runs' progress lines do not interleave."""
    command = [str(python), "-m", "pytest", "-c", str(TRAINING / "pytest.ini"), "--rootdir", str(TRAINING), *args]
    label = f"pytest {' '.join(args)} ({python.parents[2].name})"
    if not together:
        print(f"run_pytests: {label}", flush=True)
        return subprocess.call(command, env=env, cwd=REPO)
    started = time.monotonic()
    proc = subprocess.run(command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with PRINTING:
        print(f"run_pytests: {label}, ended in {time.monotonic() - started:.0f} s:\n{proc.stdout}", end="", flush=True)
    return proc.returncode


PRINTING = threading.Lock()


def _run_all(runs: list[tuple[Path | None, list[str]]], pythons: dict[Path | None, Path], env: dict[str, str]) -> int:
    """The runs two at a time, longest first (measured: the main suite ~200 s, llm_lora's ~150 s,
    the LM evaluator's ~40 s). One run alone left 40 % of 2 CPUs idle: most tests wait on a
    recipe's subprocess or on the disk."""
    together = len(runs) > 1
    order = sorted(runs, key=lambda run: run[0] is not None)  # the main suite (the longest) first
    with ThreadPoolExecutor(max_workers=2) as pool:
        codes = list(pool.map(lambda run: _run_one(run[1], pythons[run[0]], env, together), order))
    return next((code for code in codes if code), 0)


def main(argv: list[str]) -> int:
    envs = envs_dir()
    envs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    own = own_test_envs()
    # --build-only: every environment and test model the whole suite needs, and no test
    # (npm test starts it beside the first tiers, which use no Python environment).
    build_only = "--build-only" in argv
    runs = plan_runs([arg for arg in argv if arg != "--build-only"], own)
    try:
        pythons, failures = build_all(envs, runs, own)
    except (build_env.BuildError, RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        print(f"run_pytests: test venv or test model: {exc}", file=sys.stderr)
        return 1
    print(f"run_pytests: environments ready in {time.monotonic() - started:.1f} s", flush=True)
    if build_only:
        if failures:
            print(f"run_pytests: these environments failed to build: {', '.join(failures)}", file=sys.stderr)
        return 1 if failures else 0
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHOME", "VIRTUAL_ENV")}
    env.update({"TRAINYARD_TEST_ENVS_DIR": str(envs), "PYTHONPATH": str(TRAINING), "PYTHONNOUSERSITE": "1"})
    junit_target, junit_parts = _junit_runs(runs)
    code = _run_all(runs, pythons, env)
    if junit_target is not None:
        _merge_junit(junit_target, junit_parts)
    if code == 0 and failures:
        print(f"run_pytests: pytest passed but these environments failed to build: {', '.join(failures)}",
              file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
