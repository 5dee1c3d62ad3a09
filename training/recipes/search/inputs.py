"""The `suggest` job's input, checked in full before Optuna loads: the space (each
parameter's kind, range or choices, and `when`), the seed, startup trials and the history
(every trial's values inside the space, its state and value). A mistake is BadInput
(exit 2) naming the parameter or the trial; the worker checks only the contract's shape
and applies no defaults, so the defaults are applied here.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from trainyard_recipe import BadInput

NAME_RE = re.compile(r"^[A-Za-z][\w.]{0,99}$", re.ASCII)
DIRECTIONS = {"higher_is_better": "maximize", "lower_is_better": "minimize"}
# running: a trial of the same search still training (a search runs several at once); it
# has no value yet, and TPE's constant liar keeps the next suggestion away from it.
STATES = ("complete", "failed", "running")
MAX_PARAMS, MAX_CHOICES, MAX_HISTORY, MAX_STARTUP = 100, 100, 1000, 100
MAX_SEED = 2**31 - 1
DEFAULT_STARTUP_TRIALS = 3


def value_key(value: Any) -> tuple:
    """A categorical value as JSON sees it: Python's 1 == True and 1 == 1.0 must not make a
    yes/no choice match a number, while 1 and 1.0 are one JSON number."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", float(value))
    return ("str", value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_choice(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 200 or _is_number(value) or isinstance(value, bool)


@dataclass(frozen=True)
class Param:
    kind: str  # float | int | categorical
    name: str
    low: float | int | None = None
    high: float | int | None = None
    log: bool = False
    choices: tuple = ()
    when_param: str | None = None
    when_in: frozenset = frozenset()  # value_key()s

    def applies(self, chosen: dict[str, Any]) -> bool:
        """Whether this parameter has a value in a trial whose earlier values are `chosen`."""
        if self.when_param is None:
            return True
        return self.when_param in chosen and value_key(chosen[self.when_param]) in self.when_in

    def check(self, value: Any) -> str | None:
        """Why `value` is not a value of this parameter (None when it is)."""
        if self.kind == "categorical":
            if not _is_choice(value) or value_key(value) not in {value_key(c) for c in self.choices}:
                return f"{json.dumps(value)} is not one of its choices {json.dumps(list(self.choices))}"
            return None
        if self.kind == "int" and not (_is_number(value) and float(value).is_integer()):
            return f"{json.dumps(value)} is not an integer"
        if self.kind == "float" and not _is_number(value):
            return f"{json.dumps(value)} is not a finite number"
        if not self.low <= value <= self.high:
            return f"{json.dumps(value)} is outside its range [{self.low}, {self.high}]"
        return None


@dataclass(frozen=True)
class Trial:
    params: dict[str, Any]
    value: float | None
    complete: bool
    running: bool = False


@dataclass(frozen=True)
class SuggestInput:
    space: list[Param]
    direction: str
    seed: int
    startup_trials: int
    history: list[Trial]


def _int_field(inputs: dict, field: str, low: int, high: int, default: int | None = None) -> int:
    value = inputs.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadInput(f"input field '{field}' must be an integer in {low}..{high}, got {json.dumps(value)}",
                       code="invalid_input")
    return value


def _parse_param(raw: Any, index: int, seen: dict[str, Param]) -> Param:
    where = f"space.params[{index}]"
    if not isinstance(raw, dict):
        raise BadInput(f"{where} must be an object", code="invalid_input")
    name, kind = raw.get("name"), raw.get("kind")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise BadInput(f"{where}.name {json.dumps(name)} is not a parameter name (letters, digits, _ and ., "
                       "starting with a letter)", code="invalid_input")
    where = f"space parameter {name}"
    if name in seen:
        raise BadInput(f"{where} is declared twice", code="invalid_input")
    allowed = {"kind", "name", "when", *({"choices"} if kind == "categorical" else {"low", "high", "log"})}
    extra = sorted(set(raw) - allowed)
    if kind not in ("float", "int", "categorical"):
        raise BadInput(f"{where}: kind must be float, int or categorical, got {json.dumps(kind)}", code="invalid_input")
    if extra:
        raise BadInput(f"{where}: unknown field(s) {', '.join(extra)} for a {kind} parameter", code="invalid_input")
    when_param, when_in = None, frozenset()
    if raw.get("when") is not None:
        when = raw["when"]
        if not isinstance(when, dict) or set(when) != {"param", "in"}:
            raise BadInput(f"{where}: when must be {{param, in}}", code="invalid_input")
        when_param, listed = when["param"], when["in"]
        if when_param not in seen:
            raise BadInput(f"{where} depends on {json.dumps(when_param)}, which is not declared before it",
                           code="invalid_input")
        if not isinstance(listed, list) or not 1 <= len(listed) <= MAX_CHOICES or not all(map(_is_choice, listed)):
            raise BadInput(f"{where}: when.in must list 1..{MAX_CHOICES} strings, numbers or booleans",
                           code="invalid_input")
        when_in = frozenset(map(value_key, listed))
    if kind == "categorical":
        choices = raw.get("choices")
        if not isinstance(choices, list) or not 1 <= len(choices) <= MAX_CHOICES or not all(map(_is_choice, choices)):
            raise BadInput(f"{where}: choices must list 1..{MAX_CHOICES} strings (200 characters at most), "
                           "numbers or booleans", code="invalid_input")
        if len({value_key(c) for c in choices}) != len(choices):
            raise BadInput(f"{where}: a choice is listed twice", code="invalid_input")
        return Param("categorical", name, choices=tuple(choices), when_param=when_param, when_in=when_in)
    low, high, log = raw.get("low"), raw.get("high"), raw.get("log", False)
    integral = kind == "int"
    for label, bound in (("low", low), ("high", high)):
        if not _is_number(bound) or integral and not float(bound).is_integer():
            raise BadInput(f"{where}: {label} must be {'an integer' if integral else 'a finite number'}, "
                           f"got {json.dumps(bound)}", code="invalid_input")
    if not isinstance(log, bool):
        raise BadInput(f"{where}: log must be true or false", code="invalid_input")
    if not low < high:
        raise BadInput(f"{where}: low must be below high", code="invalid_input")
    if log and low <= 0:
        raise BadInput(f"{where}: a log range starts above 0", code="invalid_input")
    cast = int if integral else float
    return Param(kind, name, low=cast(low), high=cast(high), log=log, when_param=when_param, when_in=when_in)


def _parse_trial(raw: Any, number: int, space: list[Param]) -> Trial:
    where = f"history[{number}]"
    if not isinstance(raw, dict) or not isinstance(raw.get("params"), dict):
        raise BadInput(f"{where} must be an object with params, value and state", code="invalid_history")
    extra = sorted(set(raw) - {"params", "value", "state"})
    if extra:
        raise BadInput(f"{where}: unknown field(s) {', '.join(extra)}", code="invalid_history")
    state, value, given = raw.get("state"), raw.get("value"), raw["params"]
    if state not in STATES:
        raise BadInput(f"{where}: state must be complete, failed or running, got {json.dumps(state)}",
                       code="invalid_history")
    if value is not None and not _is_number(value):
        raise BadInput(f"{where}: value must be a finite number or null, got {json.dumps(value)}",
                       code="invalid_history")
    if state == "complete" and value is None:
        raise BadInput(f"{where} is complete but has no value", code="invalid_history")
    if state == "running" and value is not None:
        raise BadInput(f"{where} is running but has a value", code="invalid_history")
    declared = {p.name for p in space}
    unknown = sorted(set(given) - declared)
    if unknown:
        raise BadInput(f"{where} sets {', '.join(unknown)}, which the space does not declare", code="invalid_history")
    chosen: dict[str, Any] = {}
    for param in space:
        applies = param.applies(chosen)
        if param.name not in given:
            if applies:
                raise BadInput(f"{where} has no value for {param.name}, which applies to it", code="invalid_history")
            continue
        if not applies:
            raise BadInput(f"{where} sets {param.name}, but {param.when_param} is not one of the values it applies "
                           "to", code="invalid_history")
        problem = param.check(given[param.name])
        if problem:
            raise BadInput(f"{where}: {param.name}: {problem}", code="invalid_history")
        chosen[param.name] = given[param.name]
    # A failed trial's value (if any) is not an observation TPE may model.
    return Trial(params=chosen, value=float(value) if state == "complete" else None, complete=state == "complete",
                 running=state == "running")


def parse_input(inputs: dict) -> SuggestInput:
    extra = sorted(set(inputs) - {"space", "direction", "seed", "startupTrials", "history"})
    if extra:
        raise BadInput(f"unknown input field(s): {', '.join(extra)}", code="invalid_input")
    space_raw = inputs.get("space")
    if not isinstance(space_raw, dict) or set(space_raw) != {"params"} or not isinstance(space_raw["params"], list):
        raise BadInput("input field 'space' must be {params: [...]}", code="invalid_input")
    if not 1 <= len(space_raw["params"]) <= MAX_PARAMS:
        raise BadInput(f"the space declares 1..{MAX_PARAMS} parameters", code="invalid_input")
    seen: dict[str, Param] = {}
    for index, raw in enumerate(space_raw["params"]):
        param = _parse_param(raw, index, seen)
        seen[param.name] = param
    space = list(seen.values())
    direction = inputs.get("direction")
    if direction not in DIRECTIONS:
        raise BadInput(f"input field 'direction' must be one of {', '.join(DIRECTIONS)}, got {json.dumps(direction)}",
                       code="invalid_input")
    seed = _int_field(inputs, "seed", 0, MAX_SEED)
    startup = _int_field(inputs, "startupTrials", 0, MAX_STARTUP, DEFAULT_STARTUP_TRIALS)
    history = inputs.get("history")
    if not isinstance(history, list) or len(history) > MAX_HISTORY:
        raise BadInput(f"input field 'history' must be a list of at most {MAX_HISTORY} trials", code="invalid_input")
    trials = [_parse_trial(raw, number, space) for number, raw in enumerate(history)]
    return SuggestInput(space=space, direction=direction, seed=seed, startup_trials=startup, history=trials)
