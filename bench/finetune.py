#!/usr/bin/env python3
"""Fine-tuning benchmark: the llm-lora recipe's jobs against a plain training loop, on GSM8K.

    python3 bench/finetune.py [--model smollm2|tiny] [--steps 20] [--batch-size 4] [--max-length 256]
                              [--rank 16] [--cpus 2] [--device cpu|cuda] [--eval-examples 20]
                              [--eval-every N] [--rounds N] [--loop-checkpointed] [--json] [--keep]
    python3 bench/finetune.py --show RESULT.json     (the text of a saved --json result)

One real subprocess per job, as the worker runs them, in the recipe's environment (.tmp/envs,
built by training/tools/build_env.py like bench/tabular.py): import_base (SmolLM2-135M-Instruct
from its Q4_1 GGUF, fetched by training/tools/test_models.py, or the tiny random GPT-2),
check_data, preflight, train (through bench/finetune_probe.py: the recipe's runner with a step
timer and a padding counter), the evaluation-lm recipe's score (the trusted evaluator, in the same
environment); then bench/finetune_loop.py, a hand-written
transformers + PEFT loop with the same model, LoRA, length, batch, examples, steps and threads.
The training set is steps x batch examples, so both sides see every example exactly once.
Data: the first of /work/shared/data/llm/instructions-2k.jsonl (GSM8K, MIT; TRAINYARD_LLM_DATA
names another folder holding it) for training, its last --eval-examples held out; without it,
the recipe tests' 48 GSM8K lines (training/recipes/llm_lora/tests/fixtures), enough for
e.g. --steps 6 --batch-size 4 --eval-examples 8. With --rounds N the train job and the loop
take turns N times and the throughput sums over all rounds.

Prints, without pass/fail thresholds:
1. tokens/s (non-padding tokens over the optimizer steps' time, and over the whole train call)
   of the recipe and of the loop, their ratio, and each side's padding share;
2. the wall time from import_base's start to evaluate's receipt, and base vs adapter NLL per
   answer token on the held-out examples (how much lower, and for how many examples);
3. preflight's time and memory estimates against the train job's wall time and peak memory
   (the process's max RSS on cpu; torch.cuda.max_memory_allocated on cuda).
The load average is printed: timings scale with it. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tabular  # noqa: E402  (bench/tabular.py: the recipe environments)

REPO = tabular.REPO
BENCH = Path(__file__).resolve().parent
RECIPE = "llm_lora"
tabular.RECIPES[RECIPE] = tabular.TRAINING / "recipes" / RECIPE
SHARED_GSM8K = Path(os.environ.get("TRAINYARD_LLM_DATA") or REPO.parent / "shared" / "data" / "llm") / "instructions-2k.jsonl"
# A clone without the shared data: the recipe tests' 48 GSM8K lines (the same file's first 48).
FIXTURE_GSM8K = tabular.TRAINING / "recipes" / RECIPE / "tests" / "fixtures" / "gsm8k-prompt-completion.jsonl"
TINY_GPT2 = REPO / "tests" / "fixtures" / "models" / "lm-buddy-fake-gpt2"


def model_source(name: str) -> Path:
    if name == "tiny":
        return TINY_GPT2
    sys.path.insert(0, str(tabular.TRAINING / "tools"))
    import test_models  # the same cached GGUF the recipe's tests import (no download when cached)

    return test_models.ensure("smollm2-135m-instruct-q4_1", tabular.ENVS)


def run_process(argv: list[str], job_dir: Path, cpus: int, extra_env: dict | None = None) -> dict:
    """Run one job process; its wall time and peak RSS (os.wait4: this child only)."""
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "PYTHONPATH": str(tabular.TRAINING),
           "PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1", "TRAINYARD_JOB_ID": job_dir.name,
           "TRAINYARD_WORK_DIR": str(job_dir / "work"), "TRAINYARD_OUTPUT_DIR": str(job_dir / "output"),
           "TRAINYARD_CHECKPOINT_DIR": str(job_dir / "checkpoint"),
           "TRAINYARD_EVENTS_FILE": str(job_dir / "events.jsonl"), "TRAINYARD_REPORT_FILE": str(job_dir / "report.json"),
           "TRAINYARD_CPUS": str(cpus), "OMP_NUM_THREADS": str(cpus), "OPENBLAS_NUM_THREADS": str(cpus),
           "MKL_NUM_THREADS": str(cpus), **(extra_env or {})}
    started, load = time.monotonic(), os.getloadavg()[0]
    with open(job_dir / "stderr.log", "w") as stderr:
        proc = subprocess.Popen(argv, cwd=job_dir / "work", env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - started
    if proc.returncode != 0:
        report = (job_dir / "report.json").read_text() if (job_dir / "report.json").exists() else "{}"
        raise RuntimeError(f"{' '.join(argv[1:3])} exited {proc.returncode}: {report}\n"
                           f"{(job_dir / 'stderr.log').read_text()[-2000:]}")
    return {"wall": wall, "peakRssBytes": usage.ru_maxrss * 1024, "output": job_dir / "output",  # Linux: KiB
            "load": (load, os.getloadavg()[0])}


def run_job(job: str, payload: dict, scratch: Path, cpus: int, probe: Path | None = None,
            module: str = "recipes.llm_lora") -> dict:
    job_dir = Path(tempfile.mkdtemp(prefix=f"{job}-", dir=scratch))
    for sub in ("work", "output", "checkpoint"):
        (job_dir / sub).mkdir()
    (job_dir / "input.json").write_text(json.dumps(payload))
    python = tabular.python_of(RECIPE)
    entry = [str(BENCH / "finetune_probe.py")] if probe else ["-m", module]
    result = run_process([python, *entry, job, "--input", str(job_dir / "input.json")], job_dir, cpus,
                         {"BENCH_PROBE_FILE": str(probe)} if probe else None)
    return {**result, "report": json.loads((job_dir / "report.json").read_text())}


def gsm8k() -> Path:
    return SHARED_GSM8K if SHARED_GSM8K.is_file() else FIXTURE_GSM8K


def write_data(scratch: Path, n_train: int, n_eval: int) -> tuple[Path, Path]:
    source = gsm8k()
    lines = [line for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    if n_train + n_eval > len(lines):
        raise SystemExit(f"{source} has {len(lines)} examples; steps x batch + eval-examples needs {n_train + n_eval}"
                         + ("" if source == SHARED_GSM8K else f" (the 2,000-line {SHARED_GSM8K} is not here;"
                            " TRAINYARD_LLM_DATA names its folder)"))
    # The held-out set is the file's tail, so changing --steps or --batch-size never moves it.
    train, held = scratch / "train-input.jsonl", scratch / "eval-input.jsonl"
    train.write_text("\n".join(lines[:n_train]) + "\n", encoding="utf-8")
    held.write_text("\n".join(lines[-n_eval:]) + "\n", encoding="utf-8")
    return train, held


def import_floor(scratch: Path, cpus: int) -> int:
    """Peak RSS of a process that only imports the training stack: what no estimate of the model covers."""
    job_dir = Path(tempfile.mkdtemp(prefix="import-floor-", dir=scratch))
    (job_dir / "work").mkdir()
    code = "import torch, transformers, peft, trl, datasets"
    return run_process([tabular.python_of(RECIPE), "-c", code], job_dir, cpus)["peakRssBytes"]


def run_loop(settings: dict, scratch: Path, cpus: int) -> dict:
    """bench/finetune_loop.py in its own process; its result.json."""
    loop_dir = Path(tempfile.mkdtemp(prefix="plain-loop-", dir=scratch))
    (loop_dir / "work").mkdir()
    (loop_dir / "settings.json").write_text(json.dumps(settings))
    run = run_process([tabular.python_of(RECIPE), str(BENCH / "finetune_loop.py"), str(loop_dir / "settings.json"),
                       str(loop_dir / "result.json")], loop_dir, cpus)
    return {**json.loads((loop_dir / "result.json").read_text()), "load": run["load"]}


def per_second(tokens: int, seconds: float) -> float:
    return tokens / seconds if seconds > 0 else float("nan")


def share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def measure(args: argparse.Namespace, scratch: Path) -> dict:
    cpus, device = args.cpus, args.device
    train_file, eval_file = write_data(scratch, args.steps * args.batch_size, args.eval_examples)
    shape = {"device": device, "maxLength": args.max_length, "rank": args.rank, "batchSize": args.batch_size,
             "maxSteps": args.steps}
    started = time.monotonic()
    imported = run_job("import_base", {"source": str(model_source(args.model))}, scratch, cpus)
    model = str(imported["output"])
    checked = run_job("check_data", {"model": model, "data": str(train_file), "eval": str(eval_file),
                                     "maxLength": args.max_length}, scratch, cpus)
    data = str(checked["output"])
    pre = run_job("preflight", {"model": model, "data": data, **shape}, scratch, cpus)
    evals = {"evalEverySteps": args.eval_every} if args.eval_every else {}
    settings = {"model": model, "data": data, "device": device, "cpus": cpus, "seed": 0, "steps": args.steps,
                "batchSize": args.batch_size, "maxLength": args.max_length, "rank": args.rank,
                "learningRate": args.learning_rate}
    # The recipe's train job and the plain loop take turns, so other processes on the machine
    # weigh on both sides alike; the first round's adapter is the one evaluated.
    rounds, to_receipt, evaluated = [], None, None
    for n in range(args.rounds):
        probe_file = scratch / f"probe-{n}.json"
        trained = run_job("train", {"model": model, "data": data, **shape, "learningRate": args.learning_rate,
                                    "seed": 0, **evals}, scratch, cpus, probe=probe_file)
        if evaluated is None:
            evaluated = run_job("score", {"model": model, "adapter": str(trained["output"]), "data": data,
                                          "device": device, "maxLength": args.max_length, "generations": 0},
                                scratch, cpus, module="evaluation_lm")  # the trusted evaluator, in the same env
            to_receipt = time.monotonic() - started
        rounds.append({"trained": trained, "probe": json.loads(probe_file.read_text()),
                       "training": json.loads((trained["output"] / "training.json").read_text()),
                       "loop": run_loop(settings, scratch, cpus)})
    checkpointed = run_loop({**settings, "gradientCheckpointing": True}, scratch, cpus) if args.loop_checkpointed else None

    first = rounds[0]
    trained, training = first["trained"], first["training"]
    probe = {"tokens": sum(r["probe"]["tokens"] for r in rounds),
             "paddedPositions": sum(r["probe"]["paddedPositions"] for r in rounds),
             "stepSeconds": [x for r in rounds for x in r["probe"]["stepSeconds"]],
             "stepCpuSeconds": [x for r in rounds for x in r["probe"]["stepCpuSeconds"]],
             "cudaPeakBytes": max((r["probe"].get("cudaPeakBytes") or 0) for r in rounds) or None}
    loop = {"tokens": sum(r["loop"]["tokens"] for r in rounds),
            "paddedPositions": sum(r["loop"]["paddedPositions"] for r in rounds),
            "stepSeconds": [x for r in rounds for x in r["loop"]["stepSeconds"]],
            "stepCpuSeconds": [x for r in rounds for x in r["loop"]["stepCpuSeconds"]],
            "wallSeconds": sum(r["loop"]["wallSeconds"] for r in rounds), "finalLoss": first["loop"]["finalLoss"],
            "load": (rounds[0]["loop"]["load"][0], rounds[-1]["loop"]["load"][1])}
    train_call_s = sum(r["training"]["trainRuntimeSeconds"] or r["training"]["seconds"] for r in rounds)
    receipt = json.loads((evaluated["output"] / "receipt.json").read_text())
    per_example = json.loads((evaluated["output"] / "per_example.json").read_text())
    preflight = json.loads((pre["output"] / "preflight.json").read_text())
    checks = json.loads((checked["output"] / "checks.json").read_text())

    recipe_steps_s, loop_steps_s = sum(probe["stepSeconds"]), sum(loop["stepSeconds"])
    recipe_cpu_s, loop_cpu_s = sum(probe["stepCpuSeconds"]), sum(loop["stepCpuSeconds"])
    recipe_tps = per_second(probe["tokens"], recipe_steps_s)
    loop_tps = per_second(loop["tokens"], loop_steps_s)
    recipe_call_tps = per_second(probe["tokens"], train_call_s)
    loop_wall_tps = per_second(loop["tokens"], loop["wallSeconds"])
    base, adapter = receipt["base"]["meanNll"], receipt["adapter"]["meanNll"]
    improved = sum(1 for b, a in zip(per_example["base"], per_example["adapter"])
                   if a["nll"] / max(a["tokens"], 1) < b["nll"] / max(b["tokens"], 1))
    if device == "cuda":
        measured_peak, peak_kind = probe.get("cudaPeakBytes"), "torch.cuda.max_memory_allocated"
    else:
        measured_peak, peak_kind = max(r["trained"]["peakRssBytes"] for r in rounds), "max RSS of the train process"
    estimate = preflight["memory"]["estimate"]
    return {
        "settings": {"model": args.model, **shape, "cpus": cpus, "learningRate": args.learning_rate,
                     "evalEverySteps": args.eval_every, "rounds": args.rounds, "data": str(gsm8k()),
                     "trainExamples": training["trainExamples"], "evalExamples": receipt["examples"]},
        "machine": {"cpuCount": os.cpu_count(), "platform": platform.platform(),
                    "gpu": preflight["device"].get("name")},
        "tokenLengths": checks["tokens"],
        "throughput": {
            "recipe": {"tokens": probe["tokens"], "stepSeconds": recipe_steps_s, "tokensPerSecond": recipe_tps,
                       "trainCallSeconds": train_call_s, "trainCallTokensPerSecond": recipe_call_tps,
                       "paddingShare": share(probe["paddedPositions"], probe["tokens"] + probe["paddedPositions"]),
                       "stepCpuSeconds": recipe_cpu_s,
                       "load": (rounds[0]["trained"]["load"][0], rounds[-1]["trained"]["load"][1]),
                       "reportedTokensPerSecond": training["tokensPerSecond"], "tokensSeen": training["tokensSeen"]},
            "loop": {"tokens": loop["tokens"], "stepSeconds": loop_steps_s, "tokensPerSecond": loop_tps,
                     "wallSeconds": loop["wallSeconds"], "wallTokensPerSecond": loop_wall_tps,
                     "paddingShare": share(loop["paddedPositions"], loop["tokens"] + loop["paddedPositions"]),
                     "stepCpuSeconds": loop_cpu_s, "load": loop["load"],
                     "finalLoss": loop["finalLoss"]},
            "ratioSteps": recipe_tps / loop_tps, "ratioWhole": recipe_call_tps / loop_wall_tps,
            "perRound": [{"ratioCpu": per_second(r["probe"]["tokens"], sum(r["probe"]["stepCpuSeconds"]))
                          / per_second(r["loop"]["tokens"], sum(r["loop"]["stepCpuSeconds"])),
                          "ratioSteps": per_second(r["probe"]["tokens"], sum(r["probe"]["stepSeconds"]))
                          / per_second(r["loop"]["tokens"], sum(r["loop"]["stepSeconds"])),
                          "recipeLoad": r["trained"]["load"], "loopLoad": r["loop"]["load"]} for r in rounds],
            # Less sensitive to other processes than wall time: the CPU time each side's steps used.
            "ratioCpu": per_second(probe["tokens"], recipe_cpu_s) / per_second(loop["tokens"], loop_cpu_s),
            "loopCheckpointed": checkpointed and {
                "tokensPerSecond": per_second(checkpointed["tokens"], sum(checkpointed["stepSeconds"])),
                "tokensPerCpuSecond": per_second(checkpointed["tokens"], sum(checkpointed["stepCpuSeconds"])),
                "ratioSteps": recipe_tps / per_second(checkpointed["tokens"], sum(checkpointed["stepSeconds"])),
                "ratioCpu": per_second(probe["tokens"], recipe_cpu_s)
                / per_second(checkpointed["tokens"], sum(checkpointed["stepCpuSeconds"])),
                "load": checkpointed["load"]},
        },
        "betterAdapter": {
            "secondsToReceipt": to_receipt, "betterThanBase": receipt["betterThanBase"],
            "jobSeconds": {name: r["wall"] for name, r in (("import_base", imported), ("check_data", checked),
                                                          ("preflight", pre), ("train", trained),
                                                          ("evaluate", evaluated))},
            "baseNll": base, "adapterNll": adapter, "nllDrop": base - adapter, "nllDropShare": (base - adapter) / base,
            "examplesImproved": improved, "examples": len(per_example["base"]),
            "finalTrainLoss": training["finalTrainLoss"],
        },
        "preflight": {
            "estimatedSeconds": preflight["time"]["estimatedSeconds"], "trainJobSeconds": trained["wall"],
            "trainCallSeconds": training["trainRuntimeSeconds"],
            "preflightPeakRssBytes": pre["peakRssBytes"],
            "timeRatioJob": preflight["time"]["estimatedSeconds"] / trained["wall"],
            "timeRatioTrainCall": preflight["time"]["estimatedSeconds"] / training["trainRuntimeSeconds"],
            "memoryEstimate": estimate, "measuredPeakBytes": measured_peak, "measuredPeakKind": peak_kind,
            "memoryRatio": estimate["total"] / measured_peak if measured_peak else None,
            "importFloorRssBytes": import_floor(scratch, cpus) if device == "cpu" else None,
            "trainPeakRssBytes": [r["trained"]["peakRssBytes"] for r in rounds],
            "smokeStepTokensPerSecond": preflight["smokeStep"]["tokensPerSecond"],
        },
    }


def mib(n: float | None) -> str:
    return "-" if n is None else f"{n / 2**20:,.0f} MiB"


def print_human(r: dict) -> None:
    s, t, b, p, m = r["settings"], r["throughput"], r["betterAdapter"], r["preflight"], r["machine"]
    print(f"# {s['model']} on {s['device']}{' (' + r['machine']['gpu'] + ')' if r['machine']['gpu'] else ''}, "
          f"{s['cpus']} threads, {s['trainExamples']} training examples ({s['maxSteps']} steps x batch "
          f"{s['batchSize']}), max length {s['maxLength']}, LoRA rank {s['rank']} all-linear, lr {s['learningRate']:g}, "
          f"evaluation in train every {s.get('evalEverySteps') or 'steps/4'} steps on {s['evalExamples']} examples")
    print(f"# load average: {m['loadBefore']:.2f} before, {m['loadAfter']:.2f} after, on {m['cpuCount']} CPUs")
    lengths = r["tokenLengths"]["train"]
    print(f"# training example tokens: mean {lengths['mean']}, p50 {lengths['p50']}, p95 {lengths['p95']}, "
          f"max {lengths['max']}; {lengths['overMaxLength']} over max length")
    print("1. throughput (non-padding tokens)")
    for name, side, whole, whole_s in (("recipe train", t["recipe"], "trainCallTokensPerSecond", "trainCallSeconds"),
                                       ("plain loop", t["loop"], "wallTokensPerSecond", "wallSeconds")):
        print(f"   {name:12} {side['tokensPerSecond']:8.1f} tok/s over its steps ({side['tokens']} tokens in "
              f"{side['stepSeconds']:.1f} s), {side[whole]:8.1f} tok/s over {side[whole_s]:.1f} s in all, "
              f"padding {100 * side['paddingShare']:.1f} % of positions, {side['stepCpuSeconds']:.1f} CPU-s in its steps, "
              f"load average {side['load'][0]:.1f} -> {side['load'][1]:.1f}")
    print(f"   ratio recipe / loop: {t['ratioSteps']:.3f} (steps), {t['ratioCpu']:.3f} (tokens per CPU-second in the "
          f"steps), {t['ratioWhole']:.3f} (whole train call vs whole loop, the recipe's evaluations and checkpoints "
          f"included)")
    for n, r in enumerate(t["perRound"], 1):
        print(f"   round {n}: per CPU-second {r['ratioCpu']:.3f}, per wall-second {r['ratioSteps']:.3f}; load average "
              f"recipe {r['recipeLoad'][0]:.1f} -> {r['recipeLoad'][1]:.1f}, loop {r['loopLoad'][0]:.1f} -> "
              f"{r['loopLoad'][1]:.1f}")
    if t["loopCheckpointed"]:
        c = t["loopCheckpointed"]
        print(f"   plain loop with gradient checkpointing: {c['tokensPerSecond']:.1f} tok/s over its steps, "
              f"{c.get('tokensPerCpuSecond', float('nan')):.1f} per CPU-second; recipe / it: {c['ratioSteps']:.3f} "
              f"(steps), {c.get('ratioCpu', float('nan')):.3f} (per CPU-second)")
    jobs = ", ".join(f"{k} {v:.1f}" for k, v in b["jobSeconds"].items())
    print(f"2. import_base start -> evaluate receipt: {b['secondsToReceipt']:.1f} s ({jobs} s)")
    print(f"   held-out NLL per answer token: base {b['baseNll']:.4f} -> adapter {b['adapterNll']:.4f} "
          f"({'lower' if b['betterThanBase'] else 'NOT lower'} by {b['nllDrop']:.4f}, {100 * b['nllDropShare']:.1f} %); "
          f"{b['examplesImproved']} of {b['examples']} examples lower")
    print(f"3. preflight estimate {p['estimatedSeconds']:.1f} s vs train job {p['trainJobSeconds']:.1f} s "
          f"(ratio {p['timeRatioJob']:.2f}) and its train call {p['trainCallSeconds']:.1f} s "
          f"(ratio {p['timeRatioTrainCall']:.2f})")
    e = p["memoryEstimate"]
    parts = ", ".join(f"{k} {mib(e[k])}" for k in ("runtime", "weights", "lora", "optimizer", "activations"))
    print(f"   memory estimate {mib(e['total'])} ({parts}) vs {p['measuredPeakKind']} {mib(p['measuredPeakBytes'])} "
          f"(ratio {p['memoryRatio']:.2f}); preflight's smoke steps peaked at {mib(e.get('measuredPeak'))}, its "
          f"process at {mib(p['preflightPeakRssBytes'])}"
          + (f"; importing the stack alone: {mib(p['importFloorRssBytes'])}" if p["importFloorRssBytes"] else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("smollm2", "tiny"), default="smollm2")
    parser.add_argument("--steps", type=int, default=20, help="optimizer steps (training examples = steps x batch)")
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--rank", type=int, default=16)
    parser.add_argument("--learning-rate", type=float, default=2e-4)
    parser.add_argument("--eval-examples", type=int, default=20, help="held-out GSM8K examples (the file's tail)")
    parser.add_argument("--eval-every", type=int, default=None,
                        help="train's evalEverySteps (default: the recipe's, 4 evaluations per run)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="train job and plain loop take turns this many times (throughput sums over rounds)")
    parser.add_argument("--cpus", type=int, default=2, help="threads for every job and the loop")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--loop-checkpointed", action="store_true",
                        help="run the plain loop a second time with gradient checkpointing (TRL's default)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--show", type=Path, help="print the text of a saved --json result instead of running")
    args = parser.parse_args(argv)
    if args.show:
        print_human(json.loads(args.show.read_text()))
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="bench-finetune-"))
    load_before = os.getloadavg()[0]
    try:
        result = measure(args, scratch)
        result["machine"].update(loadBefore=load_before, loadAfter=os.getloadavg()[0])
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print_human(result)
    finally:
        if args.keep:
            print(f"scratch kept in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
