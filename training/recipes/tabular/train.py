"""Job `train`: fit AutoGluon on the train partition, select on validation, write the predictor.

Input (recipe.json "train"): dataset, datasetFormat, split, target, task, metric,
positiveClass, excludeColumns, preset, timeLimitSeconds, numTrials, seed, hyperparameters.
Outputs: predictor/, feature_schema.json, leaderboard.json, feature_importance.json (or its
absence recorded in training.json), environment.lock, requirements.txt, training.json.
"""

from __future__ import annotations

import os
import shutil
import time

from trainyard_recipe import BadInput, class_key, emit
from trainyard_recipe.atomic import write_json_atomic

from recipes.tabular import RECIPE_VERSION
from recipes.tabular.data_prep import prepare
from recipes.tabular.feature_schema import build_schema
from recipes.tabular.options import parse_train_input
from recipes.tabular.outputs import (feature_importance, leaderboard_rows, write_environment_lock,
                                     write_requirements)
from recipes.tabular.presets import fit_kwargs


def resolve_positive_class(options, train):
    """The class object AutoGluon knows (labels may be ints): the user's pick, else the
    training minority class (DESIGN.md, "Data"); ties go to the class sorting last."""
    if options.task != "binary":
        return None
    counts = train[options.target].value_counts()
    if options.positive_class is not None:
        return next(c for c in counts.index if class_key(c) == class_key(options.positive_class))
    ordered = sorted(counts.index, key=class_key)
    return min(ordered, key=lambda c: (int(counts[c]), -ordered.index(c)))


def run_train(ctx, inputs: dict) -> dict:
    started = time.monotonic()
    emit(ctx, "phase", phase="preparing_data")
    options = parse_train_input(inputs)
    data = prepare(options)
    positive = resolve_positive_class(options, data.train)
    emit(ctx, "log", message=f"{len(data.train)} train rows, {len(data.validation)} validation rows, "
                             f"{len(data.features)} features")

    emit(ctx, "phase", phase="training")
    os.environ.setdefault("AUTOGLUON_TEXT_TRAIN_WITHOUT_GPU", "1")
    from autogluon.core.metrics import get_metric
    from autogluon.tabular import TabularPredictor, __version__ as ag_version

    predictor_kwargs = {"label": options.target, "problem_type": options.task, "eval_metric": options.ag_metric,
                        "path": str(ctx.work_dir / "autogluon"), "verbosity": 1}
    if positive is not None:
        predictor_kwargs["positive_class"] = positive
    shutil.rmtree(predictor_kwargs["path"], ignore_errors=True)
    predictor = TabularPredictor(**predictor_kwargs)
    scorer = get_metric(options.ag_metric, options.task)
    from recipes.tabular.progress import EventCallback

    callback = EventCallback(ctx, options.metric, scorer, options.fit_time_limit)
    fit_started = time.monotonic()
    import numpy as np
    np.random.seed(options.seed)  # models get the seed through presets.with_seed; this covers the rest
    predictor.fit(train_data=data.train, tuning_data=data.validation,
                  **fit_kwargs(options, ctx.cpus, [callback]))
    fit_seconds = time.monotonic() - fit_started
    if not predictor.model_names():
        raise RuntimeError("AutoGluon fitted no model within the time limit; raise timeLimitSeconds")

    emit(ctx, "log", message=f"fit took {fit_seconds:.1f} s of a {options.fit_time_limit:.1f} s limit")
    leaderboard = leaderboard_rows(predictor, data.validation, scorer)
    write_json_atomic(ctx.output_dir / "leaderboard.json", {"metric": options.metric, "partition": "validation",
                                                            "models": leaderboard})
    remaining = options.time_limit_seconds - (time.monotonic() - started)
    step = time.monotonic()
    importance, importance_note = feature_importance(predictor, data.validation, remaining)
    emit(ctx, "log", message=f"feature importance: {time.monotonic() - step:.1f} s ({importance_note or 'written'})")
    if importance is not None:
        write_json_atomic(ctx.output_dir / "feature_importance.json", importance)

    emit(ctx, "phase", phase="exporting")
    best = predictor.model_best
    step = time.monotonic()
    predictor.clone_for_deployment(path=str(ctx.output_dir / "predictor"), model="best")
    emit(ctx, "log", message=f"saving the best model took {time.monotonic() - step:.1f} s")
    shutil.rmtree(predictor_kwargs["path"], ignore_errors=True)
    schema = build_schema(data.train, data.features, predictor.feature_metadata_in)
    write_json_atomic(ctx.output_dir / "feature_schema.json", schema)
    write_environment_lock(ctx.output_dir / "environment.lock")
    write_requirements(ctx.output_dir / "requirements.txt")
    classes = [class_key(c) for c in predictor.class_labels] if options.task != "regression" else None
    best_row = next((row for row in leaderboard if row["model"] == best), None)
    wall = time.monotonic() - started
    training = {
        "recipe": "tabular", "recipeVersion": RECIPE_VERSION, "autogluonVersion": ag_version,
        "task": options.task, "target": options.target, "metric": options.metric,
        "autogluonMetric": options.ag_metric,
        "positiveClass": None if positive is None else class_key(positive), "classLabels": classes,
        "features": data.features, "excludeColumns": options.exclude_columns,
        "preset": options.preset, "numTrials": options.num_trials if options.preset == "improve" else None,
        "seed": options.seed, "timeLimitSeconds": options.time_limit_seconds,
        "fitTimeLimitSeconds": options.fit_time_limit, "fitSeconds": round(fit_seconds, 3),
        "wallSeconds": round(wall, 3), "cpus": ctx.cpus, "bestModel": best,
        "validationScore": best_row["validationScore"] if best_row else None,
        "modelsFit": len(leaderboard), "trainRows": len(data.train), "validationRows": len(data.validation),
        "snapshotSha256": data.snapshot_sha256, "splitSha256": data.split_sha256,
        "featureImportance": "feature_importance.json" if importance is not None else None,
        "featureImportanceNote": importance_note,
    }
    write_json_atomic(ctx.output_dir / "training.json", training)
    emit(ctx, "metric", name=options.metric, value=training["validationScore"], model=best,
         partition="validation", best=True)
    return {"bestModel": best, "metric": options.metric, "validationScore": training["validationScore"],
            "modelsFit": len(leaderboard), "wallSeconds": training["wallSeconds"],
            "fitSeconds": training["fitSeconds"], "timeLimitSeconds": options.time_limit_seconds}
