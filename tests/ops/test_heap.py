"""The server process keeps the garbage collector off what it loaded to serve (cribsite/asgi.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json, weakref
import cribsite.asgi as asgi

class Cycle:
    pass

def garbage():
    a, b = Cycle(), Cycle()
    a.other, b.other = b, a  # only the cycle collector can free these
    return weakref.ref(a)

frozen = gc.get_freeze_count()
gone = garbage()
gc.collect()
print(json.dumps({
    "frozen": frozen,
    "threshold": gc.get_threshold(),
    "expected": [asgi.GC_YOUNG_OBJECTS, asgi.GC_OLDER_EVERY, asgi.GC_OLDER_EVERY],
    "cycle_freed": gone() is None,
}))
"""


def test_a_server_process_freezes_what_it_loaded_and_still_frees_new_garbage():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cribsite.settings",
        "PYTHONPATH": str(ROOT),
    }
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    # Django, the URLs with every view, channels and twisted: well over 50,000 objects.
    assert seen["frozen"] > 50_000
    assert seen["threshold"] == seen["expected"]
    assert seen["threshold"][0] > 700  # young collections less often than Python's default
    # A cycle made after the freeze is still collected: only the loaded code is left alone.
    assert seen["cycle_freed"]
