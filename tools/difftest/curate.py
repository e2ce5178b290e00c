#!/usr/bin/env python3
"""Picks a small, diverse regression set out of differential runs.

    python3 tools/difftest/curate.py OUT_FILE RUN_DIR [RUN_DIR...]

Reads RUN_DIR/cases.jsonl (trusted vectors only: convert.py already dropped the untrusted
ones) and RUN_DIR/conform.txt, and writes OUT_FILE: BCDice-format vectors, deduplicated by
command shape (digit runs and case folded), with a quota per generator kind, every failing
shape included, a mix of results and no results, and few draws per vector. The choice is
deterministic for the same runs.
"""

import json
import random
import re
import sys
from collections import defaultdict

sys.path.insert(0, __import__("os").path.dirname(__file__))
from convert import vector_toml  # noqa: E402
from triage import load  # noqa: E402

QUOTA = {
    "add": 66, "add_edge": 20, "barabara": 25, "tally": 20, "calc": 30, "choice": 35, "d66": 14,
    "repeat": 30, "reroll": 35, "upper": 35, "version": 6, "junk": 8, "srs": 40, "sgs": 25, "tricky": 45,
    "probe": 56,
}
MAX_RANDS = 30
MAX_INPUT = 48
MAX_FAILING = 14


def shape(v):
    s = re.sub(r"\d+", "9", v["input"].upper())
    s = re.sub(r"[ \t]+", " ", s)
    return v["game_system"] + "|" + s


def coarse(v):
    """A coarser signature: operators and letters only, for spreading picks."""
    s = re.sub(r"\d+", "", v["input"].upper())
    s = re.sub(r"[^A-Z+\-*/()\[\]<>=!?@#, \t\n]", "~", s)
    return s[:12]


def main():
    out_file, runs = sys.argv[1], sys.argv[2:]
    rng = random.Random(20260426)
    cases, failing = [], set()
    for d in runs:
        cs = [json.loads(l) for l in open(f"{d}/cases.jsonl", encoding="utf-8")]
        cases += cs
        for case, _exp, _got in load(d):
            failing.add(shape(case))
    by_shape = {}
    for v in cases:
        k = shape(v)
        if k not in by_shape or len(v["input"]) < len(by_shape[k]["input"]):
            by_shape[k] = v
    chosen = {}
    # failing shapes (shortest instances first, at most MAX_FAILING), so the engine owner has
    # them as tests
    seen_fail = set()
    for k in sorted(failing, key=lambda k: (len(by_shape[k]["input"]), k)):
        if len(seen_fail) < MAX_FAILING and k.split("|", 1)[1] not in seen_fail:
            seen_fail.add(k.split("|", 1)[1])
            chosen[k] = by_shape[k]
    by_kind = defaultdict(list)
    for k, v in sorted(by_shape.items()):
        if k in chosen or len(v["rands"]) > MAX_RANDS or len(v["input"]) > MAX_INPUT:
            continue
        by_kind[v["kind"]].append((k, v))
    for kind, quota in QUOTA.items():
        pool = by_kind.get(kind, [])
        rng.shuffle(pool)
        # results first (3/4), then no results; spread over coarse signatures and flags
        results = [kv for kv in pool if kv[1]["output"]]
        nones = [kv for kv in pool if not kv[1]["output"]]
        seen = set()
        want_none = quota // 4
        for group, n in ((results, quota - want_none), (nones, want_none)):
            taken = 0
            for pass_ in (0, 1):
                for k, v in group:
                    if taken >= n:
                        break
                    flags = tuple(f for f in ("secret", "success", "failure", "critical", "fumble") if v.get(f))
                    sig = (coarse(v), flags)
                    if k in chosen or (pass_ == 0 and sig in seen):
                        continue
                    seen.add(sig)
                    chosen[k] = v
                    taken += 1
    vectors = sorted(chosen.values(), key=lambda v: (list(QUOTA).index(v["kind"]) if v["kind"] in QUOTA else 99,
                                                     v["game_system"], v["input"]))
    with open(out_file, "w", encoding="utf-8") as f:
        f.write(
            "# Differential regression vectors: BCDice 3.16.1 vs taku.\n"
            "#\n"
            "# Produced by tools/difftest: gen.py made random command lines (seeds 1-8, 6,000 each) for\n"
            "# DiceBot, SRS and Sengensyou, plus the hand-written edge cases of tools/difftest/probes.jsonl\n"
            "# (kind \"probe\"); BCDice's JS build (npm bcdice 4.9.0 = BCDice 3.16.1, through\n"
            "# tools/bcdice-oracle/oracle.js) evaluated them with recorded dice; curate.py kept a diverse\n"
            "# subset, one vector per command shape, including the shortest of the shapes taku failed on\n"
            "# at the time.\n"
            "# Inputs where the JS build is known to differ from Ruby BCDice were left out (non-ASCII\n"
            "# whitespace, U/C/R division by zero, Choice space mode with whitespace runs, numbers near\n"
            "# 2^53, JS -0). Regenerate with:\n"
            "#   for s in 1 2 3 4 5 6 7 8; do tools/difftest/run.sh 6000 $s; done\n"
            "#   INPUT=tools/difftest/probes.jsonl tools/difftest/run.sh - 7 tools/difftest/out/probes\n"
            "#   python3 tools/difftest/curate.py crates/systems/tests/data/differential/generated.toml tools/difftest/out/seed-* tools/difftest/out/probes\n"
            "# output \"\" = no result; flags absent = false; rands = the draws BCDice made, in order.\n"
        )
        for v in vectors:
            f.write(vector_toml(v))
    kinds = defaultdict(int)
    for v in vectors:
        kinds[v["kind"]] += 1
    nf = sum(1 for v in vectors if shape(v) in failing)
    print(f"failing shapes: {len(failing)}")
    print(f"{len(vectors)} vectors ({nf} from failing shapes, {sum(1 for v in vectors if not v['output'])} no result): {dict(kinds)}")


if __name__ == "__main__":
    main()
