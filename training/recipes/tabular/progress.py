"""An AutoGluon callback that reports every fitted model as a `metric` event.

AutoGluon 1.6 calls after_model_fit(trainer, model_names, ...) once per model (or per
tuning batch). The trainer pickles its callbacks while fitting, so this class lives at
module level and holds only picklable state; AutoGluon drops callbacks when fit ends.
Reporting must never break training, so failures become `warning` events.
"""

from __future__ import annotations

import time

from autogluon.core.callbacks import AbstractCallback
from trainyard_recipe import emit


class EventCallback(AbstractCallback):
    def __init__(self, ctx, metric_name: str, scorer, fit_time_limit: float) -> None:
        super().__init__()
        self.ctx = ctx
        self.metric_name = metric_name
        self.scorer = scorer
        self.fit_time_limit = fit_time_limit
        self.started = time.time()
        self.models_fit = 0

    def _after_model_fit(self, trainer, model_names=None, stack_name="core", level=1, **kwargs):
        for name in model_names or []:
            try:
                score = trainer.get_model_attribute(name, "val_score")
                fit_seconds = trainer.get_model_attribute(name, "fit_time")
                value = None if score is None else float(self.scorer.convert_score_to_original(score))
                self.models_fit += 1
                emit(self.ctx, "metric", name=self.metric_name, value=value, model=name, partition="validation",
                     fitSeconds=None if fit_seconds is None else round(float(fit_seconds), 3))
            except Exception as error:  # noqa: BLE001 - reporting must not fail the fit
                emit(self.ctx, "warning", message=f"could not read the score of model {name}: {error}")
        elapsed = time.time() - self.started
        emit(self.ctx, "progress", done=round(min(elapsed, self.fit_time_limit), 1),
             total=round(self.fit_time_limit, 1), unit="seconds", modelsFit=self.models_fit)
        return False  # never ask AutoGluon to stop early
