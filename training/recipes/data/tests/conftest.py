"""Fixtures for the data recipe's tests: in-process job calls and real-data-derived tables.

Derived tables are written to tmp_path at test time (never committed):
  - seattle_weeks.csv: seattle_weather plus `week_id` ("w0001"…), the week each day falls in
    — a real entity grouping (days of one week share weather), used as the group column;
  - diamonds_tax.csv: diamonds plus `price_with_tax` = price × 1.08 (a copy of the target);
  - diamonds_total.csv: diamonds plus `setting_cost` = (table − 43) × 1000 and
    `total` = price + setting_cost (a total that contains the target, like taxis' total).
"""

import json

import pandas as pd
import pytest

from recipes.data.checks import checks_job
from recipes.data.features import features_job
from recipes.data.newest import newest_rows_job
from recipes.data.profile import profile_job
from recipes.data.split import split_job

JOBS = {"profile": profile_job, "checks": checks_job, "split": split_job, "features": features_job, "newest_rows": newest_rows_job}
CSV = {"format": "csv", "delimiter": ",", "encoding": "utf-8", "header": True, "quotechar": '"'}


@pytest.fixture
def data_job(job_context):
    """data_job(job, input) -> (ctx, outputs dict of parsed JSON outputs, metrics)."""

    def run(job: str, job_input: dict):
        ctx = job_context()
        metrics = JOBS[job](ctx, job_input)
        outputs = {p.name: json.loads(p.read_text()) for p in ctx.output_dir.glob("*.json")}
        return ctx, outputs, metrics

    return run


@pytest.fixture
def csv_format():
    return dict(CSV)


@pytest.fixture(scope="session")
def derived(tabular_fixtures, tmp_path_factory):
    root = tmp_path_factory.mktemp("derived")
    seattle = pd.read_csv(tabular_fixtures / "seattle_weather.csv")
    week = (pd.to_datetime(seattle["date"]) - pd.Timestamp("2012-01-01")).dt.days // 7
    seattle["week_id"] = "w" + (week + 1).astype(str).str.zfill(4)
    seattle.to_csv(root / "seattle_weeks.csv", index=False)
    diamonds = pd.read_csv(tabular_fixtures / "diamonds.csv")
    taxed = diamonds.assign(price_with_tax=(diamonds["price"] * 1.08).round(2))
    taxed.to_csv(root / "diamonds_tax.csv", index=False)
    setting = (diamonds["table"] - 43) * 1000
    diamonds.assign(setting_cost=setting, total=diamonds["price"] + setting).to_csv(root / "diamonds_total.csv",
                                                                                   index=False)
    return root
