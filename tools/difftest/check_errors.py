#!/usr/bin/env python3
"""Checks that taku gives an error (not a result) where BCDice raised.

    python3 tools/difftest/check_errors.py ERRORS.jsonl [TAKU]

ERRORS.jsonl holds oracle answers with "error" (see convert.py). Each input is evaluated with
`taku roll --strict --json` (batched per system through stdin; inputs containing a line feed
are run one by one as an argument). Prints every input where taku gave a result (a bug: BCDice
raises there, the API answers 500) and, separately, those where taku gave "no result" (HTTP 400
instead of 500), then totals.
"""

import json
import subprocess
import sys
from collections import defaultdict


def classify(answer):
    if answer.get("ok"):
        return "result"
    if str(answer.get("reason", "")).startswith("unsupported command"):
        return "no result"
    return "error"


def main():
    path = sys.argv[1]
    taku = sys.argv[2] if len(sys.argv) > 2 else "target/debug/taku"
    rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    by_system = defaultdict(list)
    single = []
    for r in rows:
        inp = r["input"]
        if "\n" in inp or inp.endswith("\r"):
            single.append(r)
        else:
            by_system[r["system"]].append(r)
    answers = []  # (row, taku answer)
    for system, group in by_system.items():
        stdin = "".join(r["input"] + "\n" for r in group)
        p = subprocess.run([taku, "roll", "--strict", "--json", "--seed", "1", "--system", system, "-"],
                           input=stdin, capture_output=True, text=True)
        lines = p.stdout.splitlines()
        if len(lines) != len(group):
            sys.exit(f"taku answered {len(lines)} lines for {len(group)} inputs ({system}): {p.stderr}")
        answers += [(r, json.loads(l)) for r, l in zip(group, lines)]
    for r in single:
        if "\x00" in r["input"]:
            answers.append((r, {"ok": False, "reason": "unchecked (NUL and line feed)"}))
            continue
        p = subprocess.run([taku, "roll", "--strict", "--json", "--seed", "1", "--system", r["system"], "--", r["input"]],
                           capture_output=True, text=True)
        answers.append((r, json.loads(p.stdout.strip() or '{"ok":false,"reason":"no output"}')))
    classes = defaultdict(list)
    for r, a in answers:
        classes[classify(a)].append((r, a))
    for cls, title in (("result", "taku gave a RESULT where BCDice raised"),
                       ("no result", "taku gave NO RESULT (400) where BCDice raised (500)")):
        items = sorted(classes[cls], key=lambda ra: (len(ra[0]["input"]), ra[0]["input"]))
        print(f"## {title}: {len(items)}")
        for r, a in items:
            what = json.dumps(a.get("text"), ensure_ascii=False) if a.get("ok") else a.get("reason")
            note = f"\t(untrusted: {r['untrusted']})" if r.get("untrusted") else ""
            print(f"{r['system']}\t{json.dumps(r['input'], ensure_ascii=False)}\tBCDice error {json.dumps(r['error'], ensure_ascii=False)}\ttaku: {what}{note}")
        print()
    print(f"errors checked: {len(answers)}; taku error {len(classes['error'])}, "
          f"no result {len(classes['no result'])}, result {len(classes['result'])}")


if __name__ == "__main__":
    main()
