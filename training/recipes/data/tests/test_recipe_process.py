"""The data recipe as the worker runs it: a real subprocess with the data environment's
Python, the contract's variables, report, events and manifest."""

import json

from trainyard_recipe.hashing import sha256_file


def test_profile_runs_in_the_data_environment(run_job, tabular_fixtures, tmp_path):
    result = run_job("data", "profile", {"dataset": str(tabular_fixtures / "penguins.csv"), "fileName": "penguins.csv"},
                     tmp_path)
    assert result.returncode == 0, result.describe()
    assert result.report["status"] == "completed" and result.report["error"] is None
    assert result.report["metrics"] == {"rows": 344, "columns": 8, "duplicateRows": 0}
    types = [event["type"] for event in result.events]
    assert "phase" in types and all("t" in event for event in result.events)
    assert any(e.get("phase") == "preparing_data" for e in result.events)
    assert [f["path"] for f in result.manifest["files"]] == ["profile.json"]
    entry = result.manifest["files"][0]
    assert entry["sha256"] == sha256_file(result.output("profile.json"))
    assert entry["bytes"] == result.output("profile.json").stat().st_size
    assert result.output_json("profile.json")["tableFormat"]["format"] == "csv"


def test_bad_file_exits_2_with_code_and_message_in_the_report(run_job, tabular_fixtures, tmp_path):
    path = tmp_path / "header_only.csv"
    path.write_text((tabular_fixtures / "penguins.csv").read_text().splitlines()[0] + "\n")
    result = run_job("data", "profile", {"dataset": str(path)}, tmp_path)
    assert result.returncode == 2, result.describe()
    assert result.report["status"] == "failed"
    assert result.report["error"]["code"] == "header_only" and "no data rows" in result.report["error"]["message"]
    assert result.manifest is None


def test_whole_chain_profile_checks_split_features(run_job, tabular_fixtures, tmp_path):
    dataset = str(tabular_fixtures / "seattle_weather.csv")
    profile = run_job("data", "profile", {"dataset": dataset}, tmp_path)
    fmt = profile.output_json("profile.json")["tableFormat"]
    checks = run_job("data", "checks", {"dataset": dataset, "datasetFormat": fmt, "target": "weather"}, tmp_path)
    assert checks.returncode == 0, checks.describe()
    time_issue = next(i for i in checks.output_json("checks.json")["issues"] if i["code"] == "time_column")
    split = run_job("data", "split", {"dataset": dataset, "datasetFormat": fmt, "snapshotSha256": sha256_file(dataset),
                                      "target": "weather", "task": "multiclass", "strategy": "time", "seed": 0,
                                      "timeColumn": time_issue["recommendedAction"]["column"]}, tmp_path)
    assert split.returncode == 0, split.describe()
    assert {f["path"] for f in split.manifest["files"]} == {"split.json", "partition.csv", "trained_rows.txt"}
    features = run_job("data", "features", {"dataset": dataset, "datasetFormat": fmt, "split": str(split.output_dir),
                                            "partition": "validation"}, tmp_path)
    assert features.returncode == 0, features.describe()
    assert features.report["metrics"]["rows"] == json.loads(split.output("split.json").read_text())["counts"]["validation"]
