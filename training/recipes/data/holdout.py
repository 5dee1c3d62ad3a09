"""data.holdout_rows: a reserved holdout as a model's prediction job and the evaluator read it —
features.parquet (row_id + every column but the target and the left-out columns) and, apart,
labels.parquet (row_id, label), like data.features for a partition. Rows without a target
are left out (there is nothing to score them against); row_id is the row's index in the
holdout file as trainyard_recipe's read_table reads it, which the evaluator's own reading
of the file agrees with.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.runner import requires

from recipes.data.inputs import load_frame, require_column


@requires("dataset", "datasetFormat", "target")
def holdout_rows_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    frame, _fmt = load_frame(job_input)
    target = require_column(frame, job_input["target"], "target")
    exclude = job_input.get("excludeColumns") or []
    if not isinstance(exclude, list) or not all(isinstance(c, str) for c in exclude):
        raise BadInput("excludeColumns must be a list of column names", code="invalid_input")
    if "row_id" in frame.columns:
        raise BadInput("the holdout has a column named row_id, which the feature files reserve", code="invalid_input")
    emit(ctx, "phase", phase="preparing_data", step="holdout_rows")
    rows = frame.loc[frame[target].notna()]
    if rows.empty:
        raise BadInput(f"no row of the holdout has a value in {target}", code="empty_input")
    feature_columns = [c for c in frame.columns if c != target and c not in exclude]
    features = pd.concat([pd.Series(rows.index, name="row_id", dtype="int64", index=rows.index), rows[feature_columns]], axis=1)
    pd.DataFrame({"row_id": rows.index.astype("int64"), "label": rows[target].to_numpy()}).to_parquet(
        ctx.output_dir / "labels.parquet", index=False)
    features.to_parquet(ctx.output_dir / "features.parquet", index=False)
    emit(ctx, "log", message=f"holdout: {len(rows):,} rows with a target, of {len(frame):,}")
    return {"rows": int(len(rows)), "withoutTarget": int(len(frame) - len(rows))}
