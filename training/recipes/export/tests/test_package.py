"""export.package: the archive reloads in a fresh process and reproduces the test predictions
exactly; verify.py refuses tampered, unlisted and escaping files."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path

import pandas as pd
import pytest

from conftest import recipe_python
from recipes.export import verify
from recipes.tabular.tests import pipeline
from recipes.tabular.tests.split_fixture import sha256_file


@pytest.fixture(scope="session")
def penguins(tmp_path_factory):
    return pipeline.get("penguins", tmp_path_factory)


@pytest.fixture(scope="module")
def packaged(penguins, tmp_path_factory):
    root = tmp_path_factory.mktemp("export")
    payload = {"model": str(penguins.model_dir), "receipt": str(penguins.score.output_dir),
               "baselineReceipt": str(penguins.baseline_score.output_dir / "receipt.json"),
               "card": {"project": "Penguins", "experiment": "quick #1", "datasetName": "penguins.csv",
                        "trainingSeconds": 12.5, "resources": {"cpus": 2, "host": "test box"}}}
    return pipeline.run("export", "package", payload, root), payload


def test_archive_hash_is_reported_and_the_archive_is_deterministic(packaged, tmp_path):
    result, payload = packaged
    archive = result.output("export.tar.gz")
    summary = result.output_json("export.json")
    assert summary["sha256"] == sha256_file(archive) == result.report["metrics"]["archiveSha256"]
    assert summary["comparison"]["comparable"] and summary["comparison"]["better"]
    again = pipeline.run("export", "package", payload, tmp_path)
    assert sha256_file(again.output("export.tar.gz")) == summary["sha256"]


def test_archive_is_written_fast_with_gzip_level_1(packaged):
    # gzip's XFL header byte says how hard the compressor worked: 4 = fastest, 2 = level 9
    # (which took 50-90 s on 50-100 MB exports; level 1 takes seconds, docs/benchmarks.md).
    header = packaged[0].output("export.tar.gz").read_bytes()[:10]
    assert header[:2] == b"\x1f\x8b" and header[8] == 4, header
    assert header[4:8] == b"\0\0\0\0"  # gzip mtime 0: same inputs, same bytes


def test_archive_holds_one_folder_named_like_its_file(packaged):
    result, _ = packaged
    summary = result.output_json("export.json")
    folder = summary["folder"]
    assert summary["fileName"] == f"{folder}.tar.gz"
    assert re.fullmatch(r"quick-1-[0-9a-f]{12}", folder), folder
    assert folder.endswith(summary["modelSha256"][:12])
    with tarfile.open(result.output("export.tar.gz")) as archive:
        members = archive.getmembers()
    assert members[0].name == folder and members[0].isdir()
    assert all(m.name == folder or m.name.startswith(folder + "/") for m in members)
    assert all(m.mtime == 0 and m.uid == m.gid == 0 and m.uname == m.gname == "" for m in members)
    assert [m.name for m in members] == sorted(m.name for m in members)


def test_the_model_cards_loading_commands_work_as_written(packaged, tmp_path):
    """sha256sum FILE, tar xzf FILE, cd FOLDER, python verify.py . — word for word from the card."""
    result, _ = packaged
    summary = result.output_json("export.json")
    download = tmp_path / summary["fileName"]
    shutil.copyfile(result.output("export.tar.gz"), download)
    with tarfile.open(download) as archive:
        card = archive.extractfile(f"{summary['folder']}/MODEL_CARD.md").read().decode()
    block = card.split("## Loading", 1)[1].split("```")[1].strip().splitlines()
    assert block[:4] == [f"sha256sum {download.name}", f"tar xzf {download.name}", f"cd {summary['folder']}",
                         "python verify.py ."], block
    checksum = subprocess.run(block[0].split(), cwd=tmp_path, capture_output=True, text=True, check=True)
    assert checksum.stdout.split()[0] == summary["sha256"]
    subprocess.run(block[1].split(), cwd=tmp_path, check=True)
    folder = tmp_path / block[2].split()[1]
    python = str(recipe_python("export"))
    checked = subprocess.run([python, *block[3].split()[1:]], cwd=folder, capture_output=True, text=True)
    assert checked.returncode == 0 and json.loads(checked.stdout)["verified"], checked.stdout + checked.stderr


def test_archive_holds_what_a_user_needs(packaged, penguins):
    result, _ = packaged
    top = result.output_json("export.json")["folder"]
    with tarfile.open(result.output("export.tar.gz")) as archive:
        names = {name.removeprefix(top + "/") for name in archive.getnames()}
        card = archive.extractfile(f"{top}/MODEL_CARD.md").read().decode()
        requirements = archive.extractfile(f"{top}/requirements.txt").read().decode()
    for name in ("predictor/predictor.pkl", "manifest.json", "environment.lock", "requirements.txt",
                 "feature_schema.json", "MODEL_CARD.md", "predict.py", "verify.py", "receipt.json"):
        assert name in names, name
    receipt, base = penguins.receipt(), penguins.baseline_receipt()
    assert f"{receipt['metrics']['accuracy']:.4f}" in card and f"{base['metrics']['accuracy']:.4f}" in card
    assert receipt["hashes"]["snapshotSha256"] in card and "test box" in card and "beats the baseline" in card
    assert "autogluon.tabular==1.6." in requirements
    # The card says what training saw of each input, and that other values are accepted unevaluated.
    bill = penguins_bill_range(penguins)
    assert "## Inputs" in card and "never evaluated" in card
    assert f"| bill_length_mm | numeric | {bill[0]} to {bill[1]}" in card


def penguins_bill_range(penguins):
    schema = json.loads(Path(penguins.model_dir, "feature_schema.json").read_text())
    entry = next(f for f in schema["features"] if f["name"] == "bill_length_mm")
    return entry["min"], entry["max"]


def unpack(result, dest):
    proc = subprocess.run([str(recipe_python("export")), str(verify.__file__), "--extract",
                           str(result.output("export.tar.gz")), str(dest)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return dest


def run_predict_py(folder, rows_csv):
    """python predict.py rows.csv in a fresh process: tabular env python, no PYTHONPATH, cwd elsewhere."""
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "OMP_NUM_THREADS": "1"}
    return subprocess.run([str(recipe_python("tabular")), str(folder / "predict.py"), str(rows_csv)],
                          capture_output=True, text=True, env=env, cwd=rows_csv.parent)


def test_unpacked_export_reproduces_the_test_predictions_exactly(packaged, penguins, tmp_path):
    result, _ = packaged
    folder = unpack(result, tmp_path / "unpacked")
    partition = pd.read_csv(penguins.split_dir / "partition.csv")
    raw = pd.read_csv(penguins.dataset)
    test_rows = raw[partition["partition"].to_numpy() == "test"]
    test_rows.drop(columns=["species"]).to_csv(tmp_path / "rows.csv", index=False)
    proc = run_predict_py(folder, tmp_path / "rows.csv")
    assert proc.returncode == 0, proc.stderr[-3000:]
    exported = pd.read_csv(io.StringIO(proc.stdout), float_precision="round_trip")
    original = pd.read_parquet(penguins.predict.output_dir / "predictions.parquet")
    assert len(exported) == len(original) == len(test_rows)
    assert exported["prediction"].tolist() == original["prediction"].tolist()
    for column in [c for c in original.columns if c.startswith("proba::")]:
        assert exported[column].tolist() == original[column].tolist(), column  # bit-for-bit
    # running it did not leave anything behind that would fail the next verification
    assert verify.verify(str(folder))


def test_the_export_holds_only_the_models_the_chosen_one_needs(packaged, tmp_path):
    folder = unpack(packaged[0], tmp_path / "slim")
    script = ("import json, sys\nfrom autogluon.tabular import TabularPredictor\n"
              "p = TabularPredictor.load(sys.argv[1], require_version_match=True, verbosity=0)\n"
              "needed = p._trainer.get_minimum_model_set(p.model_best)\n"
              "print(json.dumps({'best': p.model_best, 'needed': sorted(needed), 'loaded': sorted(p.model_names())}))")
    proc = subprocess.run([str(recipe_python("tabular")), "-c", script, str(folder / "predictor")],
                          capture_output=True, text=True, env={"PATH": os.environ["PATH"], "OMP_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    models = json.loads(proc.stdout.strip().splitlines()[-1])
    assert models["loaded"] == models["needed"] and models["best"] in models["needed"], models
    on_disk = sorted(p.name for p in (folder / "predictor" / "models").iterdir() if p.is_dir())
    assert on_disk == models["needed"], (on_disk, models)
    assert not (folder / "predictor" / "utils").exists()  # no cached training data (save_space)


def test_predict_py_refuses_a_tampered_folder(packaged, tmp_path):
    result, _ = packaged
    folder = unpack(result, tmp_path / "tampered")
    schema = folder / "feature_schema.json"
    schema.write_text(schema.read_text().replace("Biscoe", "Bisc0e"))
    (tmp_path / "rows.csv").write_text("island\nDream\n")
    proc = run_predict_py(folder, tmp_path / "rows.csv")
    assert proc.returncode != 0 and "refusing to load" in proc.stderr
    assert "feature_schema.json" in proc.stderr


def repack(source_archive, target, edit):
    """Copy an archive entry by entry, letting `edit(info, data)` change or add entries."""
    with tarfile.open(source_archive) as src, tarfile.open(target, "w:gz") as dst:
        for member in src:
            data = src.extractfile(member).read() if member.isfile() else None
            for info, payload in edit(member, data):
                dst.addfile(info, io.BytesIO(payload) if payload is not None else None)
    return target


def file_entry(name, payload):
    info = tarfile.TarInfo(name)
    info.size = len(payload)
    return info, payload


def test_verifier_refuses_changed_unlisted_and_escaping_files(packaged, tmp_path):
    source = packaged[0].output("export.tar.gz")
    assert verify.verify(str(source))["files"]

    top = packaged[0].output_json("export.json")["folder"]

    def flip_byte(member, data):
        if member.name == f"{top}/predictor/predictor.pkl":
            data = data[:-1] + bytes([data[-1] ^ 1])
            member.size = len(data)
        yield member, data

    def add(name, payload=b"x"):
        def edit(member, data):
            yield member, data
            if member.name == f"{top}/manifest.json":
                yield file_entry(name if name.startswith("/") else f"{top}/{name}", payload)
        return edit

    def add_symlink(member, data):
        yield member, data
        if member.name == f"{top}/manifest.json":
            link = tarfile.TarInfo(f"{top}/predictor/link")
            link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
            yield link, None

    cases = {"changed": (flip_byte, "predictor/predictor.pkl: content does not match"),
             "unlisted": (add("extra.py"), "extra.py: not listed"),
             "escape": (add("../evil.sh"), "unsafe path"),
             "absolute": (add("/tmp/evil.sh"), "unsafe path"),
             "second top folder": (lambda m, d: iter([(m, d)] + ([file_entry("other/x", b"x")] if
                                                                   m.name == f"{top}/manifest.json" else [])),
                                   "one top folder"),
             "symlink": (add_symlink, "not a regular file")}
    for name, (edit, message) in cases.items():
        bad = repack(source, tmp_path / f"{name}.tar.gz", edit)
        with pytest.raises(verify.VerificationError) as refused:
            verify.verify(str(bad))
        assert message in str(refused.value), (name, str(refused.value))
        proc = subprocess.run([str(recipe_python("export")), str(verify.__file__), "--extract", str(bad),
                               str(tmp_path / f"{name}-out")], capture_output=True, text=True)
        assert proc.returncode == 1 and not (tmp_path / f"{name}-out").exists(), name


def test_package_refuses_a_receipt_for_another_model(packaged, penguins, tmp_path, run_job):
    _, payload = packaged
    receipt = penguins.receipt()
    receipt["hashes"]["exportSha256"] = "f" * 64
    (tmp_path / "receipt.json").write_text(json.dumps(receipt))
    result = run_job("export", "package", {**payload, "receipt": str(tmp_path / "receipt.json")}, tmp_path)
    assert result.returncode == 2 and result.report["error"]["code"] == "receipt_mismatch", result.describe()
    assert not result.output("export.tar.gz").exists()
