"""A tabular release: the AutoGluon predictor of an export, loaded once, predicting rows with
the same casting and probability columns as the predict job and the export's predict.py."""

from __future__ import annotations

import json
from pathlib import Path

from serving.errors import ServingError
from serving.rows import check_rows


class TabularModel:
    kind = "tabular"

    def __init__(self, folder: Path) -> None:
        import pandas as pd
        from autogluon.tabular import TabularPredictor

        self._pd = pd
        self.schema = json.loads((folder / "feature_schema.json").read_text(encoding="utf-8"))
        self.training = json.loads((folder / "training.json").read_text(encoding="utf-8"))
        self.predictor = TabularPredictor.load(str(folder / "predictor"), require_version_match=True, verbosity=0)
        self.name = self.training.get("bestModel") or "autogluon"

    def predict(self, rows: list) -> list[dict]:
        from recipes.tabular.feature_schema import conform
        from recipes.tabular.predict import PROBA_PREFIX, predict_frame
        from trainyard_recipe import BadInput

        problems = check_rows(rows, self.schema)
        if problems:
            raise ServingError("bad_input", f"{len(problems)} value(s) do not match the model's feature schema",
                               fields=problems)
        try:
            frame = conform(self._pd.DataFrame(rows, columns=[f["name"] for f in self.schema["features"]]), self.schema)
        except BadInput as error:
            raise ServingError("bad_input", str(error)) from None
        out = predict_frame(self.predictor, frame, self.training["task"])
        classes = [c for c in out.columns if c.startswith(PROBA_PREFIX)]
        predictions = []
        for record in out.to_dict(orient="records"):
            item = {"prediction": _plain(record["prediction"])}
            if classes:
                item["probabilities"] = {c[len(PROBA_PREFIX):]: float(record[c]) for c in classes}
            predictions.append(item)
        return predictions


def _plain(value):
    if hasattr(value, "item"):
        value = value.item()
    return value if isinstance(value, (str, int, float, bool)) else str(value)
