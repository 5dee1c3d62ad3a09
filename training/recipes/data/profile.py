"""data.profile: detect the table format and describe every column (profile.json)."""

from __future__ import annotations

from typing import Any

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.hashing import sha256_file
from trainyard_recipe.runner import requires
from trainyard_recipe.tables import ENCODINGS, read_table

from recipes.data.inputs import dataset_path
from recipes.data.sniff import limits_from_input, scan_table


@requires("dataset")
def profile_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    from recipes.data.columns import profile_columns  # pandas: only once the input is valid

    path = dataset_path(job_input)
    file_name = job_input.get("fileName") or path.name
    encoding = (job_input.get("encoding") or "utf-8").lower()
    if encoding not in ENCODINGS:
        raise BadInput(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}", code="invalid_input")
    limits = limits_from_input(job_input.get("limits"))
    emit(ctx, "phase", phase="preparing_data", step="scanning", file=file_name)
    scan = scan_table(path, file_name, encoding, limits)
    emit(ctx, "progress", step="scanned", rows=scan.rows, columns=len(scan.columns))
    try:
        frame = read_table(path, scan.table_format)
    except (ValueError, OSError) as exc:
        raise BadInput(f"{file_name} passed the structure checks but pandas cannot read it: {exc}",
                       code="unreadable") from None
    if len(frame) != scan.rows:  # both readers must agree, or row ids would differ between jobs
        raise BadInput(f"{file_name}: the CSV scan found {scan.rows:,} rows but pandas read {len(frame):,}; "
                       "check quoting and blank lines", code="unreadable")
    frame.columns = [str(name) for name in frame.columns]
    columns = profile_columns(frame)
    profile = {
        "version": 1,
        "fileName": file_name,
        "bytes": path.stat().st_size,
        "sha256": sha256_file(path),
        "decompressedBytes": scan.decompressed_bytes,
        "tableFormat": scan.table_format,
        "rows": int(len(frame)),
        "columnCount": len(columns),
        "duplicateRows": int(frame.duplicated(keep="first").sum()),
        "columns": columns,
    }
    write_json_atomic(ctx.output_dir / "profile.json", profile)
    emit(ctx, "log", message=f"profiled {file_name}: {profile['rows']:,} rows, {len(columns)} columns")
    return {"rows": profile["rows"], "columns": len(columns), "duplicateRows": profile["duplicateRows"]}
