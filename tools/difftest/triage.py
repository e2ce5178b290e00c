#!/usr/bin/env python3
"""Groups the mismatches of a `taku conform` report.

    python3 tools/difftest/triage.py OUT_DIR [OUT_DIR...]

Reads OUT_DIR/conform.txt and OUT_DIR/cases.jsonl (vector i of vectors.toml = line i) and
prints the mismatches grouped by generator kind and by shape (expected text vs no result vs
error, text or flags only), each group with its count and its shortest inputs. The grouping
is a first cut for a human: one group can hold several causes.
"""

import json
import re
import sys
from collections import defaultdict

HEAD = re.compile(r"^(.*):(\d+)  (\S+)  input ")


def shape(expected, got):
    if expected == "no result":
        e = "none"
    else:
        e = "text"
    if got == "no result":
        g = "none"
    elif got.startswith("error:"):
        g = "error"
    else:
        g = "text"
    if e == "text" and g == "text":
        et, gt = expected.split('" [')[0], got.split('" [')[0]
        return "flags differ" if et == gt else "text differs"
    return f"expected {e}, got {g}"


def load(outdir):
    cases = [json.loads(l) for l in open(f"{outdir}/cases.jsonl", encoding="utf-8")]
    lines = open(f"{outdir}/conform.txt", encoding="utf-8").read().splitlines()
    out = []
    for i, line in enumerate(lines):
        m = HEAD.match(line)
        if not m:
            continue
        idx = int(m.group(2))
        exp = lines[i + 1].removeprefix("  expected ")
        got = lines[i + 2].removeprefix("  got      ")
        out.append((cases[idx], exp, got))
    return out


def main():
    groups = defaultdict(list)
    total = 0
    for d in sys.argv[1:]:
        for case, exp, got in load(d):
            groups[(case.get("kind", "?"), shape(exp, got))].append((case, exp, got))
            total += 1
    print(f"{total} mismatches in {len(groups)} groups\n")
    for key in sorted(groups, key=lambda k: -len(groups[k])):
        items = sorted(groups[key], key=lambda c: (len(c[0]["input"]), c[0]["input"]))
        print(f"== {key[0]} / {key[1]}: {len(items)}")
        seen = set()
        shown = 0
        for case, exp, got in items:
            if case["input"] in seen:
                continue
            seen.add(case["input"])
            rands = ",".join(f"{r['value']}/{r['sides']}" for r in case["rands"])
            print(f"  {case['game_system']}  {json.dumps(case['input'], ensure_ascii=False)}  rands [{rands}]")
            print(f"    expected {exp}\n    got      {got}")
            shown += 1
            if shown >= 6:
                break
        print()


if __name__ == "__main__":
    main()
