"""search.suggest run as a real subprocess in the recipe's environment (Optuna 4.9)."""

from __future__ import annotations

import json
import statistics

import pytest

# contracts/searches/tabular-space.ts TABULAR_SPACE, as JSON (keep in step with that file).
FAMILIES = ["GBM", "CAT", "RF", "XT"]


def _only(family: str) -> dict:
    return {"param": "family", "in": [family]}


def _forest(family: str) -> list[dict]:
    return [
        {"kind": "int", "name": f"{family}.n_estimators", "low": 50, "high": 300, "log": False, "when": _only(family)},
        {"kind": "categorical", "name": f"{family}.max_features", "choices": ["sqrt", "log2", 0.5], "when": _only(family)},
        {"kind": "int", "name": f"{family}.min_samples_leaf", "low": 1, "high": 10, "log": False, "when": _only(family)},
    ]


TABULAR_SPACE = {"params": [
    {"kind": "categorical", "name": "family", "choices": FAMILIES},
    {"kind": "float", "name": "GBM.learning_rate", "low": 0.01, "high": 0.3, "log": True, "when": _only("GBM")},
    {"kind": "int", "name": "GBM.num_leaves", "low": 8, "high": 128, "log": True, "when": _only("GBM")},
    {"kind": "int", "name": "GBM.min_data_in_leaf", "low": 2, "high": 50, "log": True, "when": _only("GBM")},
    {"kind": "float", "name": "CAT.learning_rate", "low": 0.01, "high": 0.3, "log": True, "when": _only("CAT")},
    {"kind": "int", "name": "CAT.depth", "low": 4, "high": 8, "log": False, "when": _only("CAT")},
    {"kind": "float", "name": "CAT.l2_leaf_reg", "low": 1, "high": 10, "log": True, "when": _only("CAT")},
    *_forest("RF"),
    *_forest("XT"),
]}
OWN = {f: {p["name"] for p in TABULAR_SPACE["params"] if p["name"].startswith(f + ".")} for f in FAMILIES}

HISTORY = [  # six real-looking tabular trials: two complete GBMs, a CAT, an RF, a failed XT, an XT
    {"params": {"family": "GBM", "GBM.learning_rate": 0.05, "GBM.num_leaves": 31, "GBM.min_data_in_leaf": 20},
     "value": 0.93, "state": "complete"},
    {"params": {"family": "CAT", "CAT.learning_rate": 0.1, "CAT.depth": 6, "CAT.l2_leaf_reg": 3.0},
     "value": 0.95, "state": "complete"},
    {"params": {"family": "RF", "RF.n_estimators": 120, "RF.max_features": 0.5, "RF.min_samples_leaf": 2},
     "value": 0.9, "state": "complete"},
    {"params": {"family": "XT", "XT.n_estimators": 300, "XT.max_features": "sqrt", "XT.min_samples_leaf": 1},
     "value": None, "state": "failed"},
    {"params": {"family": "GBM", "GBM.learning_rate": 0.2, "GBM.num_leaves": 100, "GBM.min_data_in_leaf": 3},
     "value": 0.88, "state": "complete"},
    {"params": {"family": "XT", "XT.n_estimators": 80, "XT.max_features": "log2", "XT.min_samples_leaf": 5},
     "value": 0.91, "state": "complete"},
]


@pytest.fixture
def suggest(run_job, tmp_path):
    """suggest(input, extra_env=None) -> (suggestion dict, JobResult), asserting exit 0."""

    def call(job_input: dict, extra_env: dict | None = None):
        result = run_job("search", "suggest", job_input, tmp_path, extra_env=extra_env, timeout=120)
        assert result.returncode == 0, result.describe()
        return result.output_json("suggestion.json"), result

    return call


def _input(history, seed=11, startup=3, space=TABULAR_SPACE, direction="higher_is_better") -> dict:
    return {"space": space, "direction": direction, "seed": seed, "startupTrials": startup, "history": history}


def _check_tabular(params: dict) -> None:
    family = params["family"]
    assert family in FAMILIES
    assert set(params) == {"family"} | OWN[family], params
    for spec in TABULAR_SPACE["params"]:
        if spec["name"] in params and spec["kind"] != "categorical":
            value = params[spec["name"]]
            assert spec["low"] <= value <= spec["high"], (spec["name"], value)
            assert isinstance(value, int) if spec["kind"] == "int" else isinstance(value, float)


def test_same_input_gives_the_same_bytes(suggest):
    # Different hash seeds: nothing may depend on the order Python iterates a set of names.
    first, one = suggest(_input(HISTORY), extra_env={"PYTHONHASHSEED": "1"})
    second, two = suggest(_input(HISTORY), extra_env={"PYTHONHASHSEED": "2"})
    assert one.output("suggestion.json").read_bytes() == two.output("suggestion.json").read_bytes()
    assert one.manifest["files"] == two.manifest["files"]
    assert first["sampler"] == "tpe" and first["seed"] == 11 and first["historyTrials"] == 6
    assert first["optunaVersion"] == "4.9.0"
    assert set(first) == {"params", "sampler", "seed", "historyTrials", "optunaVersion"}
    _check_tabular(first["params"])
    assert one.report["status"] == "completed" and one.report["metrics"]["failedTrials"] == 1
    # the seed is part of the answer: another seed proposes another point
    other, _ = suggest(_input(HISTORY, seed=12))
    assert other["params"] != first["params"]


def test_a_family_gets_only_its_own_parameters(suggest):
    """Across seeds, random and TPE: each suggestion has its family and exactly that family's
    parameters (a GBM suggestion only family + GBM.*)."""
    seen: dict[str, dict] = {}
    for seed in range(12):
        history = HISTORY if seed % 2 else HISTORY[:2]
        suggestion, _ = suggest(_input(history, seed=seed))
        assert suggestion["sampler"] == ("tpe" if seed % 2 else "random")
        _check_tabular(suggestion["params"])
        seen.setdefault(suggestion["params"]["family"], suggestion["params"])
        if "GBM" in seen and len(seen) >= 3:
            break
    assert "GBM" in seen, f"no GBM suggestion in 12 seeds: {seen}"
    assert set(seen["GBM"]) == {"family", "GBM.learning_rate", "GBM.num_leaves", "GBM.min_data_in_leaf"}


def test_startup_trials_are_random_then_tpe(suggest):
    # Failed trials are not observations: two complete + one failed is still the startup phase.
    random_phase, _ = suggest(_input(HISTORY[2:5], seed=5, startup=3))
    assert random_phase["sampler"] == "random" and random_phase["historyTrials"] == 3
    # During startup the suggestion is the random sampler's: the same as with no TPE at all.
    no_tpe, _ = suggest(_input(HISTORY[2:5], seed=5, startup=100))
    assert no_tpe["sampler"] == "random" and no_tpe["params"] == random_phase["params"]
    # Three complete trials: TPE models them, and proposes something else than random would.
    tpe, _ = suggest(_input(HISTORY[:3], seed=5, startup=3))
    random_same, _ = suggest(_input(HISTORY[:3], seed=5, startup=100))
    assert tpe["sampler"] == "tpe" and random_same["sampler"] == "random"
    assert tpe["params"] != random_same["params"]
    # startupTrials defaults to 3
    default = _input(HISTORY[:3], seed=5)
    del default["startupTrials"]
    assert suggest(default)[0] == tpe


def test_trials_still_running_are_no_observations_and_the_next_suggestion_keeps_away_from_them(suggest):
    """A search running trials at once asks for the next one while others train: those are
    `running` in the history, with no value. They do not end the random startup phase; in the
    TPE phase (constant liar) they count as the worst seen, so trials running on the best
    choice so far move the next suggestion off it. The same input gives the same bytes."""
    space = {"params": [{"kind": "categorical", "name": "family", "choices": ["a", "b", "c"]}]}
    done = [{"params": {"family": family}, "value": value, "state": "complete"}
            for family, value in (("a", 0.9), ("a", 0.92), ("b", 0.5), ("c", 0.4), ("b", 0.55), ("c", 0.45),
                                  ("a", 0.91), ("b", 0.5))]
    running = [{"params": {"family": "a"}, "value": None, "state": "running"}] * 4

    startup, result = suggest(_input(done[:2] + running, space=space, seed=3, startup=3))
    assert startup["sampler"] == "random" and startup["historyTrials"] == 6
    metrics = result.report["metrics"]
    assert (metrics["completeTrials"], metrics["failedTrials"], metrics["runningTrials"]) == (2, 0, 4)

    for seed in (3, 4):
        alone, _ = suggest(_input(done, space=space, seed=seed, startup=3))
        beside, one = suggest(_input(done + running, space=space, seed=seed, startup=3))
        assert alone["sampler"] == beside["sampler"] == "tpe"
        assert alone["params"] == {"family": "a"} and beside["params"] != {"family": "a"}, (alone, beside)
    again, two = suggest(_input(done + running, space=space, seed=4, startup=3))
    assert one.output("suggestion.json").read_bytes() == two.output("suggestion.json").read_bytes()
    assert again == beside


def test_history_with_failed_trials_and_choices_keep_their_json_type(suggest):
    space = {"params": [
        {"kind": "categorical", "name": "ratio", "choices": [0.5]},
        {"kind": "categorical", "name": "flag", "choices": [True]},
        {"kind": "categorical", "name": "mixed", "choices": [1, True, "1"]},
        {"kind": "float", "name": "lr", "low": 1, "high": 10, "log": True},
    ]}
    history = [
        {"params": {"ratio": 0.5, "flag": True, "mixed": True, "lr": 2}, "value": 0.2, "state": "complete"},
        {"params": {"ratio": 0.5, "flag": True, "mixed": "1", "lr": 9.5}, "value": None, "state": "failed"},
        {"params": {"ratio": 0.5, "flag": True, "mixed": 1, "lr": 1.5}, "value": 0.4, "state": "failed"},
        {"params": {"ratio": 0.5, "flag": True, "mixed": 1, "lr": 3.0}, "value": 0.1, "state": "complete"},
    ]
    suggestion, result = suggest(_input(history, space=space, startup=1, direction="lower_is_better"))
    text = result.output("suggestion.json").read_text()
    assert '"ratio": 0.5' in text and '"flag": true' in text
    params = suggestion["params"]
    assert params["ratio"] == 0.5 and isinstance(params["ratio"], float)
    assert params["flag"] is True
    assert any(params["mixed"] == c and type(params["mixed"]) is type(c) for c in (1, True, "1")), params
    assert 1 <= params["lr"] <= 10 and suggestion["sampler"] == "tpe"
    assert result.report["metrics"]["completeTrials"] == 2 and result.report["metrics"]["failedTrials"] == 2


@pytest.mark.parametrize(("trial", "message"), [
    ({"params": {"family": "GBM", "GBM.learning_rate": 0.5, "GBM.num_leaves": 31, "GBM.min_data_in_leaf": 20},
      "value": 0.9, "state": "complete"}, "history[1]: GBM.learning_rate: 0.5 is outside its range [0.01, 0.3]"),
    ({"params": {"family": "RF", "RF.n_estimators": 120, "RF.max_features": "0.5", "RF.min_samples_leaf": 2},
      "value": 0.9, "state": "complete"}, "history[1]: RF.max_features: \"0.5\" is not one of its choices"),
    ({"params": {"family": "RF", "RF.n_estimators": 120, "RF.max_features": 0.5, "RF.min_samples_leaf": 2,
                 "GBM.num_leaves": 31}, "value": 0.9, "state": "complete"},
     "history[1] sets GBM.num_leaves, but family is not one of the values it applies to"),
    ({"params": {"family": "CAT", "CAT.learning_rate": 0.1, "CAT.depth": 6}, "value": 0.9, "state": "complete"},
     "history[1] has no value for CAT.l2_leaf_reg"),
    ({"params": {"family": "CAT", "CAT.learning_rate": 0.1, "CAT.depth": 6.5, "CAT.l2_leaf_reg": 2},
      "value": 0.9, "state": "complete"}, "history[1]: CAT.depth: 6.5 is not an integer"),
    ({"params": {"family": "LR"}, "value": 0.9, "state": "complete"}, "history[1]: family: \"LR\" is not one of"),
    ({"params": {"family": "XT", "XT.n_estimators": 80, "XT.max_features": "log2", "XT.min_samples_leaf": 5},
      "value": None, "state": "complete"}, "history[1] is complete but has no value"),
    ({"params": {"family": "XT", "XT.n_estimators": 80, "XT.max_features": "log2", "XT.min_samples_leaf": 5},
      "value": 0.9, "state": "running"}, "history[1] is running but has a value"),
    ({"params": {"family": "XT", "XT.n_estimators": 80, "XT.max_features": "log2", "XT.min_samples_leaf": 5},
      "value": None, "state": "queued"}, "history[1]: state must be complete, failed or running"),
])
def test_a_history_outside_the_space_is_refused(run_job, tmp_path, trial, message):
    result = run_job("search", "suggest", _input([HISTORY[0], trial]), tmp_path, timeout=120)
    assert result.returncode == 2, result.describe()
    assert result.report["status"] == "failed" and result.report["error"]["code"] == "invalid_history"
    assert message in result.report["error"]["message"], result.report["error"]["message"]
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not result.output("suggestion.json").exists()


def test_a_space_whose_when_names_a_later_param_is_refused(run_job, tmp_path):
    space = {"params": [{"kind": "int", "name": "a", "low": 1, "high": 3, "when": {"param": "b", "in": [1]}},
                        {"kind": "int", "name": "b", "low": 1, "high": 3}]}
    result = run_job("search", "suggest", _input([], space=space), tmp_path, timeout=120)
    assert result.returncode == 2 and result.report["error"]["code"] == "invalid_input"
    assert "a depends on \"b\", which is not declared before it" in result.report["error"]["message"]


def _objective(params: dict) -> float:
    """A real objective with a known optimum: 0 at x = 1.3, y = -2.1; the search maximises
    its negative (validation metrics are mostly higher-is-better)."""
    return -((params["x"] - 1.3) ** 2 + (params["y"] + 2.1) ** 2)


def _search(suggest, startup: int, direction: str = "higher_is_better", trials: int = 15,
            base_seed: int = 7) -> list[dict]:
    """A search as Trainyard's planner runs it: one suggest job per trial, seed = search seed +
    trial number, each result fed back before the next suggestion. Returns the suggestions
    with their objective values."""
    space = {"params": [{"kind": "float", "name": "x", "low": -5, "high": 5},
                        {"kind": "float", "name": "y", "low": -5, "high": 5}]}
    history: list[dict] = []
    suggestions: list[dict] = []
    for number in range(trials):
        job_input = _input(history, seed=base_seed + number, startup=startup, space=space, direction=direction)
        suggestion, _ = suggest(job_input)
        value = _objective(suggestion["params"])
        history.append({"params": suggestion["params"], "value": value, "state": "complete"})
        suggestions.append({**suggestion, "value": value})
    return suggestions


def test_tpe_searches_better_than_random_search(suggest):
    """15 trials on a 2-parameter quadratic over [-5, 5]^2 (optimum 0), maximising its negative:
    TPE after 3 random trials, against random search with the same seeds and TPE told the
    wrong direction. Measured on 60 search seeds with this job (Optuna 4.9): TPE's best came
    within 1.5 of the optimum in 59; the median of its 12 TPE trials beat random search's in
    54 and the wrong direction's by more than 10 in 60 (all three: 53). Its best alone is a
    weak signal (random and even wrong-direction TPE sometimes land close). Seed 7, used here,
    is the first of those seeds: best 0.90, median 8.5 from the optimum (random 23.3, wrong
    direction 43.0). A sampler that ignored the history would tie random search exactly."""
    tpe = _search(suggest, startup=3)
    random = _search(suggest, startup=100)
    wrong = _search(suggest, startup=3, direction="lower_is_better")
    assert [t["sampler"] for t in tpe] == ["random"] * 3 + ["tpe"] * 12
    assert {t["sampler"] for t in random} == {"random"}
    assert [t["params"] for t in tpe[:3]] == [t["params"] for t in random[:3]]  # the same startup points
    best = max(t["value"] for t in tpe)
    median = {name: statistics.median(t["value"] for t in run[3:])
              for name, run in (("tpe", tpe), ("random", random), ("wrong", wrong))}
    assert best > -1.5, f"TPE's best is {-best:.3f} from the optimum"
    assert median["tpe"] > median["random"], median
    assert median["tpe"] > median["wrong"] + 10, median


def test_history_and_output_are_json_round_trips(suggest):
    """The suggestion can be fed back as a history trial unchanged (what the planner stores)."""
    first, _ = suggest(_input(HISTORY, seed=21))
    history = [*HISTORY, {"params": first["params"], "value": 0.9, "state": "complete"}]
    second, result = suggest(_input(json.loads(json.dumps(history)), seed=22))
    assert second["historyTrials"] == 7 and result.returncode == 0
    _check_tabular(second["params"])
