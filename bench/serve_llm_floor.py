"""bench/serve-llm.ts's Python floor, in the llm-lora environment, on the release folder a
resident serve-llm process already unpacked and verified and on the same base model folder:

  python bench/serve_llm_floor.py RELEASE_DIR BASE_DIR PROMPT MAX_NEW_TOKENS N

generates N times in this process with the serving code (greedy, the same chat template) and
prints {"runs": [{"ttftMs", "totalMs", "tokens"}, ...]}: the time to the first whole-character
delta and to the end, without HTTP, sockets or the controller. Run with
PYTHONPATH=<training dir> so serving.llm_model is the resident process's code.
"""

import json
import sys
import threading
import time
from pathlib import Path

from serving.llm_model import LlmModel


def main() -> None:
    release, base, prompt, max_new, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    model = LlmModel(Path(release), base)
    ids = model.prompt_ids({"prompt": prompt})
    runs = []
    for _ in range(n + 2):  # two warm-up generations, as the TypeScript side warms up
        first = []
        t = time.perf_counter()
        out = model.generate(ids, max_new, time.monotonic() + 60, threading.Event(),
                             on_delta=lambda _d: first.append(time.perf_counter()) if not first else None)
        end = time.perf_counter()
        runs.append({"ttftMs": ((first[0] if first else end) - t) * 1000, "totalMs": (end - t) * 1000,
                     "tokens": out.generated_tokens})
    print(json.dumps({"runs": runs[2:]}), flush=True)


if __name__ == "__main__":
    main()
