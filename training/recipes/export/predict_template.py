"""Predict with this exported model: python predict.py rows.csv > predictions.csv

Run it with the Python environment described by requirements.txt / environment.lock
(AutoGluon only loads predictors saved by the same version). It first verifies every file
of this folder against manifest.json (verify.py) and refuses to load anything that does
not match: the predictor is a pickle, and loading a pickle runs code.
class_key, which names the proba::<class> columns, is the recipe's own (pasted in when the
export was packaged), so classes are named here exactly as in training.json.

Input: a CSV with a header and the columns listed in feature_schema.json (extra columns
are ignored). Output (stdout): CSV with `row` (0-based data row of the input),
`prediction` and, for classification, one `proba::<class>` column per class.
"""

import json
import math  # class_key, pasted below, needs it
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


# <class_key from trainyard_recipe/classes.py>


def conform(frame, schema):
    """The schema's columns in order, with the training dtypes; exits on a mismatch."""
    import pandas as pd

    missing = [f["name"] for f in schema["features"] if f["name"] not in frame.columns]
    if missing:
        sys.exit("rows.csv lacks the model's columns: " + ", ".join(missing))
    out = {}
    for spec in schema["features"]:
        column, kind, dtype = frame[spec["name"]], spec["kind"], spec["dtype"]
        try:
            if kind == "numeric":
                if pd.api.types.is_bool_dtype(column):
                    raise TypeError("boolean")
                column = pd.to_numeric(column, errors="raise")
                column = column.astype("float64" if dtype.startswith("float") or column.isna().any() else dtype)
            elif kind == "boolean" and dtype == "bool" and not pd.api.types.is_bool_dtype(column):
                mapped = column.map(lambda v: {"true": True, "false": False}.get(str(v).strip().lower()))
                if mapped.isna().any():
                    raise ValueError("not true/false")
                column = mapped.astype(bool)
            elif dtype == "object" and not pd.api.types.is_object_dtype(column):
                if pd.api.types.is_numeric_dtype(column) and kind != "categorical":
                    raise TypeError("number for text")
                column = column.astype(object).where(column.notna(), None).map(lambda v: v if v is None else str(v))
        except (TypeError, ValueError):
            sys.exit(f"column {spec['name']} of rows.csv is not {kind} ({dtype})")
        out[spec["name"]] = column
    return pd.DataFrame(out, index=frame.index)


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    sys.dont_write_bytecode = True  # a __pycache__ here would be an unlisted file
    sys.path.insert(0, HERE)
    import verify

    try:
        verify.verify(HERE)
    except verify.VerificationError as error:
        sys.exit(f"refusing to load: {error}")
    import pandas as pd
    from autogluon.tabular import TabularPredictor

    with open(os.path.join(HERE, "feature_schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    with open(os.path.join(HERE, "training.json"), encoding="utf-8") as handle:
        training = json.load(handle)
    rows = conform(pd.read_csv(argv[0], low_memory=False), schema)
    predictor = TabularPredictor.load(os.path.join(HERE, "predictor"), require_version_match=True, verbosity=0)
    out = pd.DataFrame({"row": range(len(rows))})
    if training["task"] == "regression":
        out["prediction"] = predictor.predict(rows).to_numpy()
    else:
        proba = predictor.predict_proba(rows, as_multiclass=True)
        out["prediction"] = predictor.predict_from_proba(proba).to_numpy()
        for label in predictor.class_labels:
            out["proba::" + class_key(label)] = proba[label].to_numpy(dtype="float64")
    out.to_csv(sys.stdout, index=False)  # floats print with repr: they round-trip exactly


if __name__ == "__main__":
    main(sys.argv[1:])
