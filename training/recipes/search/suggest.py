"""Job `suggest`: the next trial's settings from a search space and the trials so far.

Input (contracts/recipes/search.ts ZSuggestInput): {space: {params: [...]}, direction,
seed, startupTrials (default 3), history: [{params, value, state: complete|failed|running}]}.
Output suggestion.json: {params, sampler, seed, historyTrials, optunaVersion}.

Stateless: an in-memory Optuna study is rebuilt from the history on every call, so the
same input always gives the same bytes (Trainyard's database is the ledger, and a job rerun
after a crash must propose what the first run would have).

Optuna is imported inside the job only: it is most of this recipe's start-up time, and
the input checks (which refuse most mistakes) do not need it.
"""

from __future__ import annotations

import json
import time
import warnings
from typing import Any

from trainyard_recipe import emit
from trainyard_recipe.atomic import write_bytes_atomic

from recipes.search import RECIPE_VERSION
from recipes.search.inputs import DIRECTIONS, Param, SuggestInput, parse_input, value_key

def _distribution(optuna: Any, param: Param):
    # A categorical is given to Optuna as its choice indices: TPE treats either as unordered
    # labels, and the index maps back to the choice with its JSON type (0.5 stays a number,
    # true never collides with 1).
    if param.kind == "categorical":
        return optuna.distributions.CategoricalDistribution(list(range(len(param.choices))))
    if param.kind == "int":
        return optuna.distributions.IntDistribution(param.low, param.high, log=param.log)
    return optuna.distributions.FloatDistribution(param.low, param.high, log=param.log)


def _internal(param: Param, value: Any) -> Any:
    if param.kind == "categorical":
        return next(i for i, c in enumerate(param.choices) if value_key(c) == value_key(value))
    return int(value) if param.kind == "int" else float(value)


def suggest(job: SuggestInput) -> dict[str, Any]:
    """The suggestion.json object for one parsed input."""
    import optuna

    # Optuna's INFO lines (study created, trial added) and its note that a one-choice
    # categorical is sampled on its own are noise in a job's log.
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    # group=True is marked experimental; it is what handles a conditional space: each
    # family's own parameters form their own group, modelled jointly on the trials that
    # have them, instead of falling back to independent sampling for all of them.
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    # constant_liar: trials still running count as the worst value seen, so trials run at
    # once are not suggested next to each other. Only when some are running: a search that
    # runs one trial at a time gets the same suggestions as before.
    running = any(t.running for t in job.history)
    sampler = optuna.samplers.TPESampler(seed=job.seed, n_startup_trials=job.startup_trials, multivariate=True,
                                         group=True, constant_liar=running)
    study = optuna.create_study(direction=DIRECTIONS[job.direction], sampler=sampler)  # in memory: no storage
    distributions = {p.name: _distribution(optuna, p) for p in job.space}
    by_name = {p.name: p for p in job.space}
    study.add_trials([
        optuna.trial.create_trial(
            params={name: _internal(by_name[name], value) for name, value in trial.params.items()},
            distributions={name: distributions[name] for name in trial.params},
            value=trial.value,
            state=(optuna.trial.TrialState.COMPLETE if trial.complete
                   else optuna.trial.TrialState.RUNNING if trial.running else optuna.trial.TrialState.FAIL),
        )
        for trial in job.history
    ])
    asked = study.ask()
    params: dict[str, Any] = {}
    for param in job.space:
        if not param.applies(params):
            continue
        if param.kind == "categorical":
            params[param.name] = param.choices[asked.suggest_categorical(param.name, list(range(len(param.choices))))]
        elif param.kind == "int":
            params[param.name] = int(asked.suggest_int(param.name, param.low, param.high, log=param.log))
        else:
            params[param.name] = float(asked.suggest_float(param.name, param.low, param.high, log=param.log))
    complete = sum(t.complete for t in job.history)
    # Optuna's own rule (TPESampler counts complete trials against n_startup_trials).
    sampler_name = "random" if complete < job.startup_trials else "tpe"
    return {"params": params, "sampler": sampler_name, "seed": job.seed, "historyTrials": len(job.history),
            "optunaVersion": optuna.__version__}


def run_suggest(ctx, inputs: dict) -> dict:
    started = time.monotonic()
    job = parse_input(inputs)
    suggestion = suggest(job)
    text = json.dumps(suggestion, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    write_bytes_atomic(ctx.output_dir / "suggestion.json", text.encode("utf-8"))
    emit(ctx, "log", message=f"suggested trial {len(job.history) + 1} ({suggestion['sampler']}): "
                             + json.dumps(suggestion["params"]))
    complete = sum(t.complete for t in job.history)
    return {"sampler": suggestion["sampler"], "historyTrials": len(job.history), "completeTrials": complete,
            "failedTrials": sum(not t.complete and not t.running for t in job.history),
            "runningTrials": sum(t.running for t in job.history), "params": len(suggestion["params"]),
            "recipeVersion": RECIPE_VERSION, "seconds": round(time.monotonic() - started, 3)}
