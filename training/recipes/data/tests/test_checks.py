"""data.checks on real tables: task and metric with reasons, and the issues that matter."""

import pandas as pd
import pytest

from trainyard_recipe.errors import BadInput


def checks(data_job, path, target, csv_format, **extra):
    _, out, _ = data_job("checks", {"dataset": str(path), "datasetFormat": csv_format, "target": target, **extra})
    return out["checks.json"]


def codes(result):
    return [issue["code"] for issue in result["issues"]]


def issue(result, code):
    found = [i for i in result["issues"] if i["code"] == code]
    assert len(found) == 1, f"expected one {code} issue, got {codes(result)}"
    return found[0]


def test_penguins_species_is_multiclass_scored_by_accuracy(data_job, tabular_fixtures, csv_format):
    result = checks(data_job, tabular_fixtures / "penguins.csv", "species", csv_format)
    assert result["task"] == "multiclass" and result["metric"] == "accuracy"
    assert result["classCounts"] == {"Adelie": 152, "Gentoo": 124, "Chinstrap": 68}
    assert "3 categories" in result["taskReason"] and "accuracy" in result["metricReason"]
    assert result["positiveClass"] is None
    assert "leakage_suspect" not in codes(result) and "group_column" not in codes(result)  # island is no entity id


def test_seattle_weather_is_imbalanced_multiclass_with_a_time_column(data_job, tabular_fixtures, csv_format):
    result = checks(data_job, tabular_fixtures / "seattle_weather.csv", "weather", csv_format)
    assert result["task"] == "multiclass" and result["metric"] == "balanced_accuracy"
    assert "snow" in result["metricReason"] and "1.8%" in result["metricReason"]
    time_issue = issue(result, "time_column")
    assert time_issue["recommendedAction"] == {"kind": "time_split", "column": "date"}
    assert "2012-01-01" in time_issue["message"] and "2015-12-31" in time_issue["message"]
    assert "snow" in issue(result, "class_imbalance")["message"]
    few = issue(result, "too_few_rows")["message"]
    assert "snow" in few and "drizzle" in few and "rain" not in few
    assert "leakage_suspect" not in codes(result)


def test_diamonds_price_is_regression_with_duplicates_and_no_false_leak(data_job, tabular_fixtures, csv_format):
    result = checks(data_job, tabular_fixtures / "diamonds.csv", "price", csv_format)
    assert result["task"] == "regression" and result["metric"] == "rmse"
    assert result["metricDirection"] == "lower_is_better" and "11,602 distinct" in result["taskReason"]
    duplicates = issue(result, "duplicate_rows")
    assert duplicates["message"].startswith("146 rows") and duplicates["recommendedAction"]["kind"] == "drop_rows"
    assert "leakage_suspect" not in codes(result)


def test_a_copy_of_the_target_is_a_leakage_suspect(data_job, derived, csv_format):
    result = checks(data_job, derived / "diamonds_tax.csv", "price", csv_format)
    leak = issue(result, "leakage_suspect")
    assert leak["severity"] == "high" and leak["columns"] == ["price_with_tax"]
    assert leak["recommendedAction"] == {"kind": "exclude_columns", "columns": ["price_with_tax"]}
    assert result["issues"][0]["code"] == "leakage_suspect"  # high severity comes first


def test_a_total_that_contains_the_target_is_found_and_only_the_total_left_out(data_job, derived, csv_format):
    result = checks(data_job, derived / "diamonds_total.csv", "price", csv_format)
    leak = issue(result, "leakage_suspect")
    assert set(leak["columns"]) == {"total", "setting_cost"}
    assert leak["recommendedAction"]["columns"] == ["total"]
    assert "price ≈ total - setting_cost" in leak["message"]


def test_a_repeated_entity_column_recommends_a_group_split(data_job, derived, csv_format):
    result = checks(data_job, derived / "seattle_weeks.csv", "weather", csv_format)
    group = issue(result, "group_column")
    assert group["recommendedAction"] == {"kind": "group_split", "column": "week_id"}
    assert "209 values" in group["message"]


def test_binary_positive_class_is_the_minority_unless_given(data_job, tabular_fixtures, tmp_path, csv_format):
    penguins = pd.read_csv(tabular_fixtures / "penguins.csv")
    path = tmp_path / "two_species.csv"
    penguins[penguins["species"] != "Gentoo"].to_csv(path, index=False)
    result = checks(data_job, path, "species", csv_format)
    assert result["task"] == "binary" and result["positiveClass"] == "Chinstrap"
    assert result["metric"] == "balanced_accuracy" and "always says Adelie" in result["metricReason"]
    chosen = checks(data_job, path, "species", csv_format, positiveClass="Adelie")
    assert chosen["positiveClass"] == "Adelie"
    with pytest.raises(BadInput) as caught:
        checks(data_job, path, "species", csv_format, positiveClass="Gentoo")
    assert caught.value.code == "unknown_class"


def test_missing_target_values_and_id_and_constant_columns(data_job, tabular_fixtures, tmp_path, csv_format):
    penguins = pd.read_csv(tabular_fixtures / "penguins.csv")
    penguins.insert(0, "penguin_id", [f"P{i:04d}-{i * 7919 % 10007}" for i in range(len(penguins))])
    penguins["study"] = "palmer"
    path = tmp_path / "penguins_extra.csv"
    penguins.to_csv(path, index=False)
    result = checks(data_job, path, "sex", csv_format)
    assert issue(result, "missing_target")["message"].startswith("11 rows")
    assert issue(result, "id_like_column")["recommendedAction"] == {"kind": "exclude_columns", "columns": ["penguin_id"]}
    assert issue(result, "constant_column")["columns"] == ["study"]


def test_target_with_one_value_is_refused(data_job, tabular_fixtures, tmp_path, csv_format):
    penguins = pd.read_csv(tabular_fixtures / "penguins.csv")
    path = tmp_path / "adelie.csv"
    penguins[penguins["species"] == "Adelie"].to_csv(path, index=False)
    with pytest.raises(BadInput) as caught:
        checks(data_job, path, "species", csv_format)
    assert caught.value.code == "target_single_value" and "Adelie" in caught.value.message


def test_unknown_target_column_is_refused_with_the_columns_listed(data_job, tabular_fixtures, csv_format):
    with pytest.raises(BadInput) as caught:
        checks(data_job, tabular_fixtures / "penguins.csv", "Species", csv_format)
    assert caught.value.code == "unknown_column" and "species" in caught.value.message


def test_missing_values_are_a_data_issue_with_column_count_and_what_the_model_does(data_job, tabular_fixtures,
                                                                                   csv_format):
    result = checks(data_job, tabular_fixtures / "penguins.csv", "species", csv_format)
    gaps = issue(result, "missing_values")
    # penguins: sex is missing in 11 rows, the four measurements in 2 each; species (the target) in none
    assert gaps["missingCounts"] == {"sex": 11, "bill_length_mm": 2, "bill_depth_mm": 2, "flipper_length_mm": 2,
                                     "body_mass_g": 2}
    assert gaps["columns"][0] == "sex" and gaps["severity"] == "info"
    assert "sex 11 (3.2%)" in gaps["message"] and "bill_length_mm 2 (0.6%)" in gaps["message"]
    assert "kept" in gaps["message"] and "LightGBM" in gaps["message"]
    assert gaps["recommendedAction"] == {"kind": "none"}
    assert "missing_target" not in codes(result)


def test_a_missing_target_is_reported_apart_and_its_rows_are_left_out(data_job, tabular_fixtures, csv_format):
    result = checks(data_job, tabular_fixtures / "penguins.csv", "sex", csv_format)
    target_gaps = issue(result, "missing_target")
    assert target_gaps["message"].startswith("11 rows") and "left out" in target_gaps["message"]
    assert "sex" not in issue(result, "missing_values")["missingCounts"]
    assert result["labelledRows"] == 333
