"""data.newest_rows: a dataset's newest rows by its time column, as a file to reserve as the
project's holdout (issue 32: for a time-ordered task the default holdout is the newest rows).

The cut keeps every time on one side: the newest `fraction` of the rows with a time, moved
earlier past rows that share the first held-out time, so no training row is as new as any
holdout row (a time split then keeps every row at or after the holdout's first time out).
Rows whose time is missing stay with the data. A text table is written back cell for cell as
the file has it (CSV, UTF-8), a Parquet table as Parquet, so the holdout's rows hash like the
dataset's (normalised row hashes compare values, not formatting); newest.json says which file,
how many rows of how many, and the first held-out time.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.runner import requires
from trainyard_recipe.tables import read_table

from recipes.data.inputs import dataset_path, load_frame, require_column
from recipes.data.split import time_text, times_of


def newest_cut(times: pd.Series, fraction: float) -> Any:
    """The first held-out time: the newest `fraction` of the timed rows, ties kept together."""
    known = np.sort(times.dropna().to_numpy())
    if len(known) == 0:
        raise BadInput(f"{times.name} has no time in any row", code="too_few_times")
    position = len(known) - max(1, math.ceil(fraction * len(known)))
    start = known[position]
    if start == known[0]:
        raise BadInput(f"{times.name} has too few distinct times to hold the newest rows out and train on the older ones",
                       code="too_few_times")
    return start


def _fraction(raw: Any) -> float:
    if raw is None:
        return 0.1
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 0 < raw <= 0.5:
        raise BadInput("fraction must be a number above 0 and at most 0.5", code="invalid_input")
    return float(raw)


@requires("dataset", "datasetFormat", "timeColumn")
def newest_rows_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    fraction = _fraction(job_input.get("fraction"))
    emit(ctx, "phase", phase="preparing_data", step="newest_rows")
    frame, fmt = load_frame(job_input)
    column = require_column(frame, job_input["timeColumn"], "timeColumn")
    times = times_of(frame, column)
    start = newest_cut(times, fraction)
    held = (times >= start).fillna(False).to_numpy(dtype=bool)
    if fmt["format"] == "parquet":
        frame.loc[held].to_parquet(ctx.output_dir / "holdout.parquet", index=False)
        name = "holdout.parquet"
    else:
        text = read_table(dataset_path(job_input), fmt, as_text=True)
        text.loc[held].to_csv(ctx.output_dir / "holdout.csv", index=False, encoding="utf-8")
        name = "holdout.csv"
    made = {"version": 1, "file": name, "rows": int(held.sum()), "of": int(len(frame)), "from": time_text(start)}
    write_json_atomic(ctx.output_dir / "newest.json", made)
    emit(ctx, "log", message=f"the newest {made['rows']:,} of {made['of']:,} rows, from {column} = {made['from']}")
    return made
