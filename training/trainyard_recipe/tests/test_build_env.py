"""tools/build_env.py: environment id, ready.json, reuse, one build under concurrency, failure cleanup.

Builds a recipe with no requirements (a bare venv) so no package is downloaded."""

import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

BUILD_ENV = Path(__file__).resolve().parents[2] / "tools" / "build_env.py"


def make_recipe(root: Path, requirements: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "recipe.json").write_text(json.dumps({"name": "tiny", "version": "0.1.0", "module": "tiny",
                                                  "requirements": "requirements.txt"}))
    (root / "requirements.txt").write_text(requirements)
    return root


def build(recipe: Path, envs: Path, *extra: str, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(BUILD_ENV), "--recipe-dir", str(recipe), "--envs-dir", str(envs),
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})


def finish(proc: subprocess.Popen):
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def test_print_id_is_sha256_of_python_version_and_requirements(tmp_path):
    recipe = make_recipe(tmp_path / "r", "# nothing to install\n")
    code, out, _ = finish(build(recipe, tmp_path / "envs", "--print-id"))
    expected = hashlib.sha256(f"{platform.python_version()}\n".encode() + b"# nothing to install\n").hexdigest()
    assert code == 0 and out.strip() == expected
    assert not (tmp_path / "envs").exists() or not any((tmp_path / "envs").iterdir())


def test_concurrent_builds_build_once_and_the_result_is_reused(tmp_path):
    recipe = make_recipe(tmp_path / "r", "")
    envs = tmp_path / "envs"
    results = [finish(p) for p in [build(recipe, envs), build(recipe, envs)]]
    lines = [json.loads(out.strip().splitlines()[-1]) for code, out, err in results]
    assert [code for code, _, _ in results] == [0, 0], results
    assert sorted(line["reused"] for line in lines) == [False, True]
    env_dir = Path(lines[0]["path"])
    ready = json.loads((env_dir / "ready.json").read_text())
    assert ready["environmentId"] == env_dir.name == lines[0]["environmentId"]
    assert ready["recipe"] == "tiny" and ready["pythonVersion"] == platform.python_version()
    assert ready["requirementsSha256"] == hashlib.sha256(b"").hexdigest() and os.path.isabs(ready["python"])
    venv_python = env_dir / "venv" / "bin" / "python"
    probe = subprocess.run([str(venv_python), "-c", "import sys; print(sys.prefix)"], capture_output=True, text=True)
    assert Path(probe.stdout.strip()) == env_dir / "venv"  # works from its final place after the rename
    assert list((envs / ".building").iterdir()) == []
    code, out, _ = finish(build(recipe, envs))
    assert code == 0 and json.loads(out.strip().splitlines()[-1])["reused"] is True


def test_unpinned_requirement_is_refused(tmp_path):
    recipe = make_recipe(tmp_path / "r", "pandas>=2\n")
    code, _, err = finish(build(recipe, tmp_path / "envs"))
    assert code == 1 and "not pinned" in err


def test_failed_install_leaves_no_environment_and_no_temp_folder(tmp_path):
    recipe = make_recipe(tmp_path / "r", "trainyard-no-such-package==1.0.0\n")
    envs = tmp_path / "envs"
    # no index and no local wheels: pip fails at once, without the network
    code, out, err = finish(build(recipe, envs, env={"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)}))
    assert code == 1
    assert "error" in json.loads(out.strip().splitlines()[-1])
    assert [p.name for p in envs.iterdir() if not p.name.startswith(".")] == []
    assert list((envs / ".building").iterdir()) == []
