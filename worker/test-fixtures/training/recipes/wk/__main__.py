"""Worker test fixture jobs. Run: python -m recipes.wk sleepy --input input.json

Every job appends "<event> <job id> <time>" lines to input["runLog"] when given, so tests
can count how many times a job really ran and how many ran at once.
"""
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

OUT = os.environ.get("TRAINYARD_OUTPUT_DIR", "out")
JOB_ID = os.environ.get("TRAINYARD_JOB_ID", "?")


def log_run(inp, event):
    path = inp.get("runLog")
    if path:
        with open(path, "a") as f:
            f.write(f"{event} {JOB_ID} {time.time():.3f}\n")


def event(kind, **fields):
    with open(os.environ["TRAINYARD_EVENTS_FILE"], "a") as f:
        f.write(json.dumps({"t": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "type": kind, **fields}) + "\n")


def report(status, **metrics):
    path = os.environ["TRAINYARD_REPORT_FILE"]
    with open(path + ".tmp", "w") as f:
        json.dump({"status": status, "error": None, "metrics": metrics}, f)
    os.replace(path + ".tmp", path)


def write_manifest(entries):
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump({"files": entries}, f)


def output_file(rel, data: bytes):
    full = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)
    return {"path": rel, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def main(argv):
    job = argv[0]
    inp = json.load(open(argv[argv.index("--input") + 1]))
    log_run(inp, "start")
    report("running")
    if job == "quick":
        write_manifest([])
    elif job == "sleepy":
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
        event("phase", phase="training")
        deadline = time.time() + float(inp.get("seconds", 1))
        while time.time() < deadline:
            event("progress", fraction=0.5)
            time.sleep(0.05)
        write_manifest([output_file("result.txt", f"slept {JOB_ID}\n".encode())])
    elif job == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        code = "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(10**6)"
        kids = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(2)]
        print("children", " ".join(str(k.pid) for k in kids), flush=True)
        time.sleep(10**6)
    elif job == "flood":
        block = (b"x" * 1023 + b"\n") * 1024
        for _ in range(int(inp.get("mb", 1))):
            os.write(1, block)
        write_manifest([])
    elif job == "badhash":
        entry = output_file("a.txt", b"hello\n")
        entry["sha256"] = "0" * 64
        write_manifest([entry])
    elif job == "escape":
        output_file("a.txt", b"hello\n")
        write_manifest([{"path": "../input.json", "bytes": 2, "sha256": "0" * 64}])
    elif job == "symlink":
        os.symlink("/etc/hostname", os.path.join(OUT, "link"))
        data = open("/etc/hostname", "rb").read()
        write_manifest([{"path": "link", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}])
    elif job == "hardlink":
        # An output that is a hard link to a file outside the output dir (the work dir).
        outside = os.path.join(os.environ["TRAINYARD_WORK_DIR"], "kept.txt")
        with open(outside, "wb") as f:
            f.write(b"hello\n")
        os.chmod(outside, 0o644)
        os.link(outside, os.path.join(OUT, "linked.txt"))
        write_manifest([{"path": "linked.txt", "bytes": 6, "sha256": hashlib.sha256(b"hello\n").hexdigest()}])
    elif job == "fill":
        block = b"\0" * (1 << 20)
        try:
            with open(os.path.join(OUT, "big.bin"), "wb") as f:
                while True:
                    f.write(block)
                    f.flush()
        except OSError as exc:
            print(f"fill stopped: {exc}", file=sys.stderr, flush=True)
            sys.exit(1)
    elif job == "burn":
        # CPU time, not wall time: a child and the main process each burn `cpu` seconds.
        code = f"import time\nwhile time.process_time() < {float(inp.get('cpu', 0.6))}: pass"
        child = subprocess.Popen([sys.executable, "-c", code])
        exec(code)
        child.wait()
        time.sleep(0.6)  # stay alive past one more usage sample
        write_manifest([])
    elif job == "gpuinfo":
        seen = {k: os.environ.get(k) for k in ("CUDA_VISIBLE_DEVICES", "TRAINYARD_CPUS", "OMP_NUM_THREADS")}
        print(json.dumps(seen), flush=True)
        write_manifest([output_file("env.json", json.dumps(seen).encode())])
    elif job == "ckpt":
        # Train until SIGTERM, then save checkpoint-<step> and exit 130 (the recipe protocol's
        # stop). With resumeFrom (a checkpoints dir), record what it holds in the output.
        ckpt_dir = os.environ["TRAINYARD_CHECKPOINT_DIR"]
        step = {"n": 0}

        def save_and_stop(*_):
            folder = os.path.join(ckpt_dir, f"checkpoint-{step['n']}")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "state.json"), "w") as f:
                json.dump({"step": step["n"], "job": JOB_ID}, f)
            sys.exit(130)

        signal.signal(signal.SIGTERM, save_and_stop)
        event("phase", phase="training")
        resume = inp.get("resumeFrom")
        if resume:
            seen = {name: json.load(open(os.path.join(resume, name, "state.json"))) for name in sorted(os.listdir(resume))}
            write_manifest([output_file("resumed.json", json.dumps({"from": resume, "checkpoints": seen}, sort_keys=True).encode())])
        else:
            while True:
                step["n"] += 1
                event("progress", step=step["n"])
                time.sleep(0.05)
    elif job == "exit2":
        print("bad input: this job always refuses", file=sys.stderr)
        sys.exit(2)
    elif job == "echo":
        entries = [output_file("input.json", json.dumps(inp, sort_keys=True).encode())]
        ref = inp.get("file")
        if ref:
            entries.append(output_file("copy.bin", open(ref, "rb").read()))
        write_manifest(entries)
    else:
        print(f"unknown job {job}", file=sys.stderr)
        sys.exit(2)
    report("completed", ok=1)
    log_run(inp, "end")


if __name__ == "__main__":
    main(sys.argv[1:])
