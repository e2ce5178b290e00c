#!/usr/bin/env python3
"""Replays BCDice-format vector files through BCDice itself (oracle.js with scripted rands).

    python3 tools/difftest/verify.py FILE.toml [FILE.toml...]

Checks that each vector's text and flags are what BCDice's JS build gives with exactly the
vector's draws (an extra draw or a draw with other sides is reported by the oracle as an
error). Use it on hand-edited or curated vector files before committing them.
"""

import json
import os
import subprocess
import sys
import tomllib

FLAGS = ["secret", "success", "failure", "critical", "fumble"]
ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bcdice-oracle", "oracle.js")


def main():
    vectors = []
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            vectors += [(path, i, t) for i, t in enumerate(tomllib.load(f).get("test", []))]
    stdin = "".join(json.dumps({"system": t["game_system"], "input": t["input"],
                                "rands": [[r["sides"], r["value"]] for r in t.get("rands", [])]},
                               ensure_ascii=False) + "\n" for _, _, t in vectors)
    p = subprocess.run(["node", ORACLE], input=stdin, capture_output=True, text=True, check=True)
    answers = [json.loads(l) for l in p.stdout.splitlines()]
    bad = 0
    for (path, i, t), a in zip(vectors, answers):
        if "error" in a:
            problem = f"BCDice raised: {a['error']}"
        else:
            text = a["text"] if a["text"] is not None else ""
            flags = [f for f in FLAGS if a.get(f)] if a["text"] is not None else []
            want = [f for f in FLAGS if t.get(f)]
            problem = None
            if text != t.get("output", text) or (t.get("output") != "" and flags != want):
                problem = f"BCDice gives {json.dumps(text, ensure_ascii=False)} {flags}"
        if problem:
            bad += 1
            print(f"{path}:{i} {json.dumps(t['input'], ensure_ascii=False)}: expected "
                  f"{json.dumps(t.get('output'), ensure_ascii=False)}; {problem}")
    print(f"{len(vectors) - bad} agree with BCDice, {bad} do not")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
