"""JobContext, events, report and manifest: the files the worker reads."""

import json
import os

import pytest

from trainyard_recipe.context import JobContext
from trainyard_recipe.events import emit
from trainyard_recipe.manifest import ManifestError, write_manifest
from trainyard_recipe.report import write_report
from trainyard_recipe.hashing import sha256_file

ENV = {"TRAINYARD_JOB_ID": "job-7", "TRAINYARD_WORK_DIR": "/w", "TRAINYARD_OUTPUT_DIR": "/o",
       "TRAINYARD_CHECKPOINT_DIR": "/c", "TRAINYARD_EVENTS_FILE": "/e.jsonl", "TRAINYARD_REPORT_FILE": "/r.json",
       "TRAINYARD_CPUS": "3"}


def test_context_reads_every_contract_variable():
    ctx = JobContext.from_env(ENV)
    assert (ctx.job_id, str(ctx.output_dir), str(ctx.events_file), ctx.cpus) == ("job-7", "/o", "/e.jsonl", 3)


@pytest.mark.parametrize("missing", sorted(ENV))
def test_context_names_the_missing_variable(missing):
    env = {k: v for k, v in ENV.items() if k != missing}
    with pytest.raises(ValueError, match=missing):
        JobContext.from_env(env)


def test_context_refuses_a_cpu_count_that_is_not_a_positive_integer():
    with pytest.raises(ValueError, match="TRAINYARD_CPUS"):
        JobContext.from_env({**ENV, "TRAINYARD_CPUS": "two"})
    with pytest.raises(ValueError, match="TRAINYARD_CPUS"):
        JobContext.from_env({**ENV, "TRAINYARD_CPUS": "0"})


def test_emit_appends_one_json_line_per_event(job_context):
    ctx = job_context()
    emit(ctx, "phase", phase="training")
    emit(ctx, "progress", done=3, total=10)
    lines = ctx.events_file.read_text().splitlines()
    assert [json.loads(line)["type"] for line in lines] == ["phase", "progress"]
    first = json.loads(lines[0])
    assert first["phase"] == "training" and first["t"].endswith("Z")


def test_report_is_replaced_whole_and_leaves_no_temp_files(job_context):
    ctx = job_context()
    write_report(ctx, "running")
    write_report(ctx, "completed", metrics={"rows": 5}, extra_field=1)
    report = json.loads(ctx.report_file.read_text())
    assert report["status"] == "completed" and report["metrics"] == {"rows": 5} and report["error"] is None
    assert report["extra_field"] == 1
    assert sorted(p.name for p in ctx.report_file.parent.iterdir() if p.name.startswith(".")) == []
    with pytest.raises(ValueError):
        write_report(ctx, "succeeded")


def test_manifest_lists_every_file_sorted_relative_with_hash(tmp_path):
    (tmp_path / "b.txt").write_text("bee")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "deeper" / "a.bin").write_bytes(b"\x00\x01")
    (tmp_path / "manifest.json").write_text("{}")  # a previous manifest is never listed
    manifest = write_manifest(tmp_path)
    assert [f["path"] for f in manifest["files"]] == ["b.txt", "sub/deeper/a.bin"]
    assert manifest["files"][0] == {"path": "b.txt", "bytes": 3, "sha256": sha256_file(tmp_path / "b.txt")}
    assert json.loads((tmp_path / "manifest.json").read_text()) == manifest


def test_manifest_refuses_symlinks(tmp_path):
    (tmp_path / "real.txt").write_text("x")
    os.symlink("/etc/passwd", tmp_path / "escape.txt")
    with pytest.raises(ManifestError, match="escape.txt"):
        write_manifest(tmp_path)
    assert not (tmp_path / "manifest.json").exists()
