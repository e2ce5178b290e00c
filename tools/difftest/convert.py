#!/usr/bin/env python3
"""Turns oracle.js answers into BCDice-format vectors.

    python3 tools/difftest/convert.py INPUT.jsonl ORACLE.jsonl OUT_DIR

Writes, in OUT_DIR:
  vectors.toml   one [[test]] per answer with a result or no result (output "" = no result),
                 true flags only, rands = the draws BCDice made;
  cases.jsonl    the same vectors as JSON lines, in the same order (index i = [[test]] #i);
  errors.jsonl   answers where BCDice raised (no vector: taku must give an error there);
  skipped.jsonl  answers not trusted, with the reason: where the JS build of BCDice (Opal)
                 is known to differ from the Ruby reference the spec describes:
                 * numbers at or above 2^53 in the input or the output, or float-looking
                   text (1.5, 1e+21, Infinity, NaN) the input does not contain: JS doubles
                   where Ruby has bignums;
                 * non-ASCII whitespace (U+3000, NBSP...): JS's \s matches it, Ruby's does
                   not, so the JS build cuts commands and comments there;
                 * a U/C/R-rounded division by zero: Ruby raises FloatDomainError (an error,
                   HTTP 500), the JS build raises ZeroDivisionError, which Calc, the SRS/SGS
                   parser and preprocessing handle as a plain zero division;
                 * Choice in space mode with a run of two or more whitespace characters
                   among the items: Opal's StringScanner#scan_until loses characters after a
                   multi-character match (`choice 1  foo` gives `(choice 1 fo)`).
INPUT.jsonl is gen.py's output (for each case's "kind"); ORACLE.jsonl is oracle.js's answers
to it, line by line.
"""

import json
import os
import re
import sys

FLAGS = ["secret", "success", "failure", "critical", "fumble"]
BIG = 2 ** 53
FLOATY = re.compile(r"\d\.\d|\de[+-]?\d|Infinity|NaN")


def toml_str(s):
    """A TOML basic string: JSON's escaping, plus DEL, which TOML forbids raw."""
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


JS_ONLY_SPACE = re.compile("[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")
CHOICE_SPACE = re.compile(r"^[ \t\n\v\f\r]*s?choice\d*[ \t\n\v\f\r]+(.*)$", re.I | re.S)


class _Arith:
    """Just enough of BCDice's Arithmetic to evaluate a divisor: numbers, + - * /, parens,
    unary signs, rounding suffixes. Raises ValueError on anything else."""

    def __init__(self, s):
        self.s, self.i = s, 0

    def peek(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def unary(self):
        c = self.peek()
        if c in "+-" and c:
            self.i += 1
            v = self.unary()
            return -v if c == "-" else v
        if c == "(":
            self.i += 1
            v = self.add()
            if self.peek() != ")":
                raise ValueError
            self.i += 1
            return v
        m = re.match(r"\d+", self.s[self.i:])
        if not m:
            raise ValueError
        self.i += m.end()
        return int(m.group(0))

    def mul(self):
        v = self.unary()
        while self.peek() in ("*", "/") and self.peek():
            o = self.peek()
            self.i += 1
            r = self.unary()
            if o == "*":
                v *= r
            else:
                if self.peek().upper() in ("U", "C", "R", "F") and self.peek():
                    self.i += 1
                if r == 0:
                    raise ZeroDivisionError
                v = v // r
        return v

    def add(self):
        v = self.mul()
        while self.peek() in ("+", "-") and self.peek():
            o = self.peek()
            self.i += 1
            r = self.mul()
            v = v + r if o == "+" else v - r
        return v


def rounded_zero_division(inp):
    """Whether some `/x` followed by U, C or R has a divisor x that is (or may be) zero."""
    for m in re.finditer("/", inp):
        a = _Arith(inp[m.end():])
        try:
            v = a.unary()
        except ZeroDivisionError:
            v = 0
        except ValueError:
            continue
        if a.peek().upper() in ("U", "C", "R") and a.peek() and v == 0:
            return True
    return False


def untrusted(inp, text):
    if JS_ONLY_SPACE.search(inp):
        return "non-ASCII whitespace (JS \\s differs from Ruby)"
    m = CHOICE_SPACE.match(inp)
    if m and re.search(r"[ \t\n\v\f\r]{2}", m.group(1)):
        return "Choice space mode with a whitespace run (Opal scan_until bug)"
    if rounded_zero_division(inp):
        return "U/C/R division by zero (Ruby FloatDomainError)"
    for n in re.findall(r"\d+", inp):
        if int(n) >= BIG:
            return "big number in input"
    if text is not None:
        for n in re.findall(r"\d+", text):
            if int(n) >= BIG:
                return "big number in output"
        for m in FLOATY.finditer(text.replace("BCDice 3.16.1", "")):
            if m.group(0) not in inp:
                return "float-looking output"
    return None


def vector_toml(v):
    out = "\n[[ test ]]\n"
    out += f"game_system = {toml_str(v['game_system'])}\n"
    out += f"input = {toml_str(v['input'])}\n"
    out += f"output = {toml_str(v['output'])}\n"
    for f in FLAGS:
        if v.get(f):
            out += f"{f} = true\n"
    out += "rands = [\n" + "".join(f"  {{ sides = {r['sides']}, value = {r['value']} }},\n" for r in v["rands"]) + "]\n"
    return out


def to_vector(a):
    v = {"game_system": a["system"], "input": a["input"],
         "output": "" if a.get("text") is None else a["text"]}
    if a.get("text") is not None:
        for f in FLAGS:
            if a.get(f):
                v[f] = True
    v["rands"] = [{"sides": s, "value": x} for s, x in a.get("draws", [])]
    return v


def main():
    inputs, src, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    kinds = [json.loads(l).get("kind", "?") for l in open(inputs, encoding="utf-8") if l.strip()]
    os.makedirs(outdir, exist_ok=True)
    vectors, errors, skipped = [], [], []
    with open(src, encoding="utf-8") as f:
        answers = [json.loads(l) for l in f if l.strip()]
    if len(answers) != len(kinds):
        sys.exit(f"{len(answers)} answers for {len(kinds)} inputs")
    for a, kind in zip(answers, kinds):
        a["kind"] = kind
        why = untrusted(a["input"], a.get("text"))
        if "error" in a:
            if why:
                a["untrusted"] = why
            errors.append(a)
        elif why:
            a["skip"] = why
            skipped.append(a)
        else:
            v = to_vector(a)
            v["kind"] = kind
            vectors.append(v)
    with open(os.path.join(outdir, "vectors.toml"), "w", encoding="utf-8") as f:
        f.write("# Differential vectors: BCDice 3.16.1 (npm bcdice, JS build) via tools/bcdice-oracle/oracle.js,\n"
                "# inputs from tools/difftest/gen.py. Generated by tools/difftest/run.sh.\n")
        for v in vectors:
            f.write(vector_toml(v))
    with open(os.path.join(outdir, "cases.jsonl"), "w", encoding="utf-8") as f:
        for v in vectors:
            f.write(json.dumps(v, ensure_ascii=False) + "\n")
    for name, rows in (("errors.jsonl", errors), ("skipped.jsonl", skipped)):
        with open(os.path.join(outdir, name), "w", encoding="utf-8") as f:
            for a in rows:
                f.write(json.dumps(a, ensure_ascii=False) + "\n")
    print(f"{len(vectors)} vectors, {len(errors)} BCDice errors, {len(skipped)} skipped (untrusted)")


if __name__ == "__main__":
    main()
