#!/usr/bin/env python3
"""Seeded random generator of BCDice command lines for differential testing.

    python3 tools/difftest/gen.py N SEED > cases.jsonl

Writes N JSON lines {"system": ..., "input": ...} for tools/bcdice-oracle/oracle.js, for the
systems DiceBot, SRS and Sengensyou. Each line also carries "kind", the generator that made
it (the oracle ignores unknown fields; run.sh uses it to group mismatches).

The generators follow /work/shared/spec/bcdice-compat.md: every common command (AddDice,
BarabaraDice, TallyDice, Calc, Choice, D66Dice, Repeat, RerollDice, UpperDice, Version),
SRS's 2D6 checks and Sengensyou's SGS, each with its edge cases, plus mutations shared by
all (secret prefix, case, comments, whitespace, full-width characters) and random junk.
Dice counts and sides are kept small so that most commands draw fewer than ~50 dice.
Stdlib only; the same N and SEED always give the same output.
"""

import json
import random
import sys

OPS = ["=", "==", "<>", "!=", "=!", "<=", "=<", ">=", "=>", "<", ">"]
WEIRD_OPS = ["<=>", "<<", ">>", "!", "!!", "=<>", "!==", ">=<", "=>=", "><", "<!", ">!", "===", "=<=", "!<", "<==", "!>"]
SUFFIXES = ["", "", "", "F", "U", "C", "R", "f", "u", "c", "r"]
FULLWIDTH = {str(d): chr(0xFF10 + d) for d in range(10)}
FULLWIDTH.update({c: chr(0xFF21 + ord(c) - ord("A")) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"})
FULLWIDTH.update({c: chr(0xFF41 + ord(c) - ord("a")) for c in "abcdefghijklmnopqrstuvwxyz"})
FULLWIDTH.update({"+": "＋", "-": "－", "*": "＊", "/": "／", "(": "（", ")": "）", ">": "＞",
                  "<": "＜", "=": "＝", "[": "［", "]": "］", "@": "＠", "#": "＃", ",": "，",
                  "?": "？", "!": "！", " ": "\u3000"})
COMMENTS = ["コメント", "comment", "foo bar", "2D6", "x", "#1", "[1,2]", "ほげ ふが", "1D6>=3",
            "(カッコ)", "+1", "\u3000", "a\tb"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    # ----- helpers -----------------------------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return self.r.choice(seq)

    def wpick(self, table):
        """table: list of (weight, value-or-callable)."""
        total = sum(w for w, _ in table)
        x = self.r.random() * total
        for w, v in table:
            x -= w
            if x < 0:
                return v() if callable(v) else v
        v = table[-1][1]
        return v() if callable(v) else v

    def numtext(self, n):
        s = str(n)
        if n >= 0 and self.chance(0.04):
            s = "0" * self.r.randint(1, 2) + s
        return s

    def small(self, lo=0, hi=6):
        return self.numtext(self.r.randint(lo, hi))

    def op(self):
        return self.pick(OPS) if self.chance(0.88) else self.pick(WEIRD_OPS)

    def word(self):
        return self.pick(["a", "b", "A", "B", "foo", "Bar", "ほげ", "x y", "1", "22", "-", "A()",
                          "(B)", "[c]", "d]", "e)", "S", "choice", "1D6", "", " ", "z-a", "ｱ"])

    def low_letters(self, s, p=0.5):
        """Lower-cases each ASCII letter with probability p."""
        return "".join(c.lower() if c.isalpha() and c.isascii() and self.chance(p) else c for c in s)

    # ----- arithmetic (Calc, counts, sides, targets) ---------------------------------------
    def arith(self, depth=2, lo=0, hi=9, zero=0.05):
        if depth <= 0:
            return self.numtext(self.r.randint(lo, hi))
        return self.wpick([
            (5, lambda: self.numtext(self.r.randint(lo, hi))),
            (1, lambda: "-" * self.r.randint(1, 4) + self.arith(depth - 1, lo, hi, zero)),
            (0.3, lambda: "+" + self.arith(depth - 1, lo, hi, zero)),
            (0.3, lambda: self.pick(["+-", "-+", "--+", "+-+-"]) + self.arith(depth - 1, lo, hi, zero)),
            (2, lambda: "(" + self.arith(depth - 1, lo, hi, zero) + ")"),
            (4, lambda: self.binop(depth, lo, hi, zero)),
        ])

    def binop(self, depth, lo, hi, zero):
        a = self.arith(depth - 1, lo, hi, zero)
        o = self.pick(["+", "-", "*", "/", "+", "-"])
        if o == "/":
            b = self.wpick([(zero, "0"), (zero, "(1-1)"), (1 - 2 * zero, lambda: self.arith(depth - 1, 1, hi, 0))])
            return a + "/" + b + self.pick(SUFFIXES)
        return a + o + self.arith(depth - 1, lo, hi, zero)

    def count(self, hi=4):
        """A dice count: usually a small literal, sometimes computed or special."""
        return self.wpick([
            (30, lambda: self.numtext(self.r.randint(1, hi))),
            (2, "0"),
            (2, lambda: "(" + self.arith(1, 0, 3, 0.02) + ")"),
            (1, lambda: "(" + self.pick(["0-1", "1-2", "-1", "--2", "1*2", "4/2", "5/2C", "5/2R", "3/0"]) + ")"),
            (0.4, lambda: self.pick(["200", "201", "250"])),
        ])

    def sides(self):
        return self.wpick([
            (40, lambda: self.pick(["2", "3", "4", "6", "6", "6", "8", "10", "10", "12", "20", "100"])),
            (2, lambda: self.pick(["1", "0", "5", "7", "9"])),
            (2, "66"),
            (1, lambda: "(" + self.pick(["1+5", "2*3", "10/2", "0", "12/5R", "3-", "6"]) + ")"),
            (0.5, lambda: self.pick(["10000", "10001", "06"])),
        ])

    # ----- AddDice --------------------------------------------------------------------------
    def die(self):
        n, m = self.count(), self.sides()
        if m == "66" and self.chance(0.5):
            n = self.pick(["1", "2", "3", "(0-1)", "0"])  # D66 as a sum term
        return self.wpick([
            (10, lambda: n + "D" + m),
            (2, lambda: n + "D"),
            (2, lambda: "D" + m),
            (0.5, lambda: "D66"),
            (4, lambda: self.filtered(n, m)),
        ])

    def filtered(self, n, m):
        if self.chance(0.1):
            m = ""
        f = self.wpick([
            (8, lambda: self.pick(["KH", "KL", "DH", "DL"]) + self.pick(["", "1", "2", "3", "0", "5", "(1+1)", "(0-1)", "01"])),
            (2, lambda: self.pick(["MAX", "MIN"])),
            (0.5, lambda: self.pick(["K", "KH1D6", "MAX2", "H", "KHL", "KH+1"])),
        ])
        if not n.startswith("(") and self.chance(0.1):
            return "D" + m + f
        return n + "D" + m + f

    def add_operand(self, depth):
        return self.wpick([
            (6, self.die),
            (3, lambda: self.numtext(self.r.randint(0, 9))),
            (1, lambda: "-" * self.r.randint(1, 3) + self.add_operand(depth - 1) if depth > 0 else self.die()),
            (0.3, lambda: "+" + self.add_operand(depth - 1) if depth > 0 else "1"),
            (1.5, lambda: "(" + self.add_expr(depth - 1) + ")" if depth > 0 else self.die()),
        ])

    def add_expr(self, depth=2, terms=None):
        k = terms or self.wpick([(5, 1), (5, 2), (3, 3), (1, 4)])
        s = self.add_operand(depth)
        for _ in range(k - 1):
            o = self.pick(["+", "+", "-", "-", "*", "/", "+-", "--", "-+", "+--"])
            if o == "/":
                div = self.wpick([(1, "0"), (1, "(1-1)"), (6, lambda: self.small(1, 4)), (1, lambda: self.die())])
                s += "/" + div + self.pick(SUFFIXES)
            else:
                s += o + self.add_operand(depth - 1)
        return s

    def add_dice(self):
        s = self.add_expr()
        if self.chance(0.55):
            s += self.op() + self.wpick([
                (10, lambda: self.arith(1, 0, 12)),
                (2, "?"),
                (1, ""),
                (0.5, lambda: self.pick(["?5", "1D6", "(1D6)", "1+", "?", "-?", "3/0", "3/0U", "(2)"])),
            ])
        return s

    def add_dice_edge(self):
        return self.pick([
            "1D6", "2D6", "(1D6)", "1D6KH1", "0D6", "-1D6", "1D", "D6", "2D", "D66", "1D66", "2D66",
            "D66KH", "2D66KL1", "(0-1)D66", "(2+3)d6", "2d10--3-4", "1D6+-1", "1D6-+1", "1D6/0",
            "2D6>=5/0", "1D6/0U", "1D6/0R", "1D6/0F", "2D6>", "2D6>=?5", "2D6>=?", "2D6>=", "1D10001",
            "1D6+(0-1)D6", "250D6", "201D6", "200D1", "2D0", "-2D6<-7", "1+2D6", "2D6+1-2+3-4",
            "1D6+3/2C", "5D10KL3", "3D6MAX", "3D6MIN", "3D6KH2", "3D6DL", "4D6DH(1+1)", "2D6KH(0-1)",
            "2D6KH3", "2D6DL3", "2D6>=1D6", "2D6+1D6>=(1+2)", "2d6kh1kl1", "1D6*1D6", "1D6/1D6",
            "(1D6)D6", "2D(1D6)", "2D6KH(1D6)", "1D6>=7>=3", "1D6==3", "1D6<=>3", "1D6!3", "1D6=!3",
            "+1D6", "++1D6", "---1D6", "-(1D6)", "-(-1D6)", "1--1D6", "1D6+(-1)", "1D6-(-1)",
            "1D6*-1", "1D6/-2", "-7/2+1D6", "1D6+-7/2", "1D6+-7/2F", "1D6+7/-2", "1D6+7/-2R",
            "1D6+-5/2R", "1D6+7/3R", "1D6+-7/2U", "1D6+(1+2", "1D6+1)", "()", "1D6()", "1D6+()",
            "D", "DD6", "1DD6", "1D6D6", "1D6 D6", "2D6X", "2D6.", "1D6,", "3D6KH", "3D6KL",
            "3D6DH", "3D6DL", "3D6K", "3D66KH2", "S1D6", "s2d6", "SS2D6", "S 2D6", "2D6S",
        ])

    # ----- BarabaraDice -------------------------------------------------------------------
    def barabara(self):
        k = self.wpick([(6, 1), (3, 2), (1, 3)])
        groups = [self.count() + self.pick(["B", "b"]) + self.pick(["2", "3", "4", "6", "6", "10", "12", "20", "100", "1", "0", "(2*3)", "66"])
                  for _ in range(k)]
        join = "+" if self.chance(0.95) else self.pick(["-", "*", "++", ","])
        s = join.join(groups)
        if self.chance(0.65):
            s += self.op() + self.wpick([(10, lambda: self.arith(1, 0, 8)), (1, "?"), (1, ""),
                                          (0.5, lambda: self.pick(["1/0", "1/0U", "2/0R", "1D6", "1B6"]))])
        if self.chance(0.03):
            s += self.pick(["+1", "[3]", "@3"])
        return s

    # ----- TallyDice ---------------------------------------------------------------------
    def tally(self):
        n = self.wpick([(10, lambda: self.small(1, 8)), (1, "0"), (1, "(0-1)"),
                        (2, lambda: "(" + self.arith(1, 0, 4, 0.05) + ")"), (0.3, lambda: self.pick(["201", "200"]))])
        m = self.wpick([(10, lambda: self.pick(["2", "3", "4", "6", "10", "12"])),
                        (3, lambda: self.pick(["0", "1", "20", "21", "100", "(1-1)", "(20+1)", "(4*5)", "(0-3)"])),
                        (0.5, lambda: self.pick(["1/0", "(2/0)", "(5/2U)"]))])
        s = n + "T" + self.pick(["Y", "Z", "y", "z"]) + m
        if self.chance(0.05):
            s += self.pick([">=3", "+1", "[2]", "+1TY6"])
        return s

    # ----- Calc ---------------------------------------------------------------------------
    def calc(self):
        e = self.arith(self.r.randint(1, 4))
        form = self.wpick([(5, lambda: "C(" + e + ")"), (3, lambda: "C" + e), (1, lambda: "C(" + e + ")" + self.pick(["+1", "*2", "/0", "/2R", "(3)"])),
                           (0.5, lambda: self.pick(["C 1", "C", "C()", "C(1", "C1)", "c1+4*", "C(1+2)(3)", "C(1/0U)",
                                                    "C(1/0R)", "C(1/0C)", "C(1/0F)", "C(-1---1)", "C+1", "C(1)+(2)",
                                                    "C1D6", "C(2)D6", "CC1", "C-(-(1))", "C(-7/2)", "C(7/-2)",
                                                    "C(-7/2U)", "C(-7/2C)", "C(-5/2R)", "C(5/2R)", "C(7/3R)",
                                                    "C(-7/-2)", "C(-7/-2R)", "C(-8/3U)", "C1/2/0", "C(1>2)", "C1,2"]))])
        return form

    # ----- Choice -------------------------------------------------------------------------
    def choice(self):
        kw = self.pick(["choice", "choice", "Choice", "CHOICE", "cHoIcE"])
        if self.chance(0.1):
            kw = self.pick(["s", "S"]) + kw
        if self.chance(0.25):
            kw += self.pick(["0", "1", "2", "3", "3", "5", "01", "10"])
        mode = self.wpick([(5, "["), (3, "("), (3, " "), (0.3, "\t"), (0.5, lambda: self.pick(["{", "", "<", "  ", "\n"]))])
        if self.chance(0.15):
            items = [self.pick(["A-F", "1-10", "c-g", "a-C", "01-03", "10-1", "z-a", "1-1000", "-1-3", "1--3",
                                "A-A", "5-5", "a-", "1-", "Ａ-Ｃ", "0-0", "3-7", " a - c ", "1 - 3", "A-z"])]
            if self.chance(0.2):
                items.append(self.word())
        else:
            n = self.wpick([(3, 2), (3, 3), (2, 4), (1, 1), (1, 6), (0.2, 0), (0.1, 101)])
            items = [self.word() if n < 50 else str(i) for i in range(n)]
        if mode in ("[", "("):
            close = {"[": "]", "(": ")"}[mode]
            if self.chance(0.1):
                close = self.pick(["]", ")", "", "}"])
            sep = lambda: self.pick([",", ",", ", ", " ,", ",  "])
            body = ""
            for i, it in enumerate(items):
                body += (sep() if i else "") + it
            s = kw + mode + body + close
            if self.chance(0.2):
                s += self.pick([" コメント", "x", " c,d", "]", " [z]", ",e]", " a)b"])
        else:
            s = kw + mode + (self.pick([" ", "  ", "\t"])).join(items)
        return s

    # ----- D66Dice ------------------------------------------------------------------------
    def d66(self):
        return self.pick(["D66", "d66", "D66A", "D66S", "D66D", "D66N", "d66a", "d66s", "d66d", "d66n",
                          "SD66", "sd66", "SD66A", "sD66d", "SSD66", "D66X", "D66+1", "D66AA", "D66 ",
                          "D666", "D6 6", "D66>=3", "(D66)", "1D66", "D66N コメント", "D66\tA", "D67",
                          "D66A", "D66D", "D66S", "D66N"])

    # ----- Repeat -------------------------------------------------------------------------
    def inner(self, system):
        """A cheap command to repeat (few draws)."""
        return self.wpick([
            (5, lambda: self.pick(["1D6", "2D6>=7", "1D6+1", "C(1+2)", "choice[a,b,c]", "D66", "2B6>=4",
                                   "3TY6", "2R6>=5", "2U6[6]", "BCDiceVersion", "ほげ", "1D6 コメント",
                                   "S1D6", "s2d6", "SD66", "1D6>=?", "2d6 x2 1D6", "2D6\n1D6"])),
            (1, lambda: self.pick(["x2 1D6", "rep2 1D6", "repeat2 1D6", "X2 1D6", "REP2 1D6", "Repeat2 1D6",
                                   "x2 X2 1D6", "X2 x2 1D6", "x0 1D6", "X101 1D6", "x1", "rep 1D6", "X2 ほげ",
                                   "x2a 1D6", "Sx2 1D6", "sX2 1D6", "xx2 1D6"])),
            (2, lambda: self.pick(["2D6>=7", "2D6+1@11#3>=5", "S2D6>=7", "2D6"]) if system == "SRS"
             else self.pick(["SGS", "SGS+1", "SSGS", "sgs-2"]) if system == "Sengensyou" else "1D4"),
            (1, lambda: self.short_common()),
        ])

    def short_common(self):
        return self.wpick([(3, lambda: self.add_expr(1, self.r.randint(1, 2))), (1, self.barabara), (1, self.calc), (1, self.d66)])

    def repeat(self, system):
        kw = self.pick(["x", "x", "X", "rep", "Rep", "REP", "repeat", "Repeat", "REPEAT", "rePeat", "repea", "xrep"])
        if self.chance(0.15):
            kw = self.pick(["s", "S"]) + kw
        n = self.wpick([(10, lambda: str(self.r.randint(1, 5))), (2, lambda: self.pick(["0", "1", "00", "01"])),
                        (1, lambda: self.pick(["10", "20", "99", "100", "101", "1000"])), (0.5, "")])
        sep = self.wpick([(10, " "), (1, "  "), (1, "\t"), (0.5, "\n"), (0.5, " \t "), (0.3, ""), (0.3, "\u3000")])
        body = self.inner(system)
        if n in ("99", "100") or (n.isdigit() and int(n) > 10 and int(n) <= 100):
            body = self.pick(["1D6", "C(1)", "ほげ", "1D2", "BCDiceVersion"])
        s = kw + n + sep + body
        if self.chance(0.05):
            s = self.pick([" ", "\t", "\n"]) + s
        if self.chance(0.03):
            s = kw + n
        return s

    # ----- RerollDice ---------------------------------------------------------------------
    def reroll(self):
        k = self.wpick([(6, 1), (3, 2), (0.5, 3)])
        groups = [self.pick(["1", "2", "2", "3", "4", "5", "0", "(1+1)", "01"]) + self.pick(["R", "r"]) +
                  self.pick(["2", "3", "4", "6", "6", "6", "8", "10", "1", "0", "(2*3)", "12"]) for _ in range(k)]
        s = "+".join(groups)
        thr = lambda: self.wpick([(10, lambda: str(self.r.randint(1, 7))), (1, lambda: self.pick(["0", "(1+2)", "-1", "11", "1/0", "(5/2U)"]))])
        form = self.wpick([(3, "A"), (3, "B"), (3, "C"), (0.3, "D")])
        if form == "A":
            if self.chance(0.9):
                s += self.op() + thr()
        elif form == "B":
            s += "[" + (self.op() if self.chance(0.5) else "") + thr() + "]"
            if self.chance(0.6):
                s += self.op() + thr()
        elif form == "C":
            if self.chance(0.7):
                s += self.op() + thr()
            s += "@" + (self.op() if self.chance(0.5) else "") + thr()
        else:
            s += self.pick(["[3]@4", "[]", "[3", "@", "[3]>=4@5", ">=", "[>=]", "+1>=3", "[3]+1", "[?]", ">=?"])
        return s

    # ----- UpperDice ----------------------------------------------------------------------
    def upper(self):
        k = self.wpick([(6, 1), (3, 2), (0.5, 3)])
        groups = [self.pick(["1", "2", "2", "3", "4", "0", "(1+1)", "(0-1)"]) + self.pick(["U", "u"]) +
                  self.pick(["2", "3", "4", "6", "6", "6", "10", "1", "0", "(2*3)"]) for _ in range(k)]
        s = "+".join(groups)
        thr = lambda: self.wpick([(10, lambda: str(self.r.randint(2, 7))), (2, lambda: self.pick(["0", "1", "(1+1)", "-1", "(3*2)", "1/0", "01"]))])
        mod = lambda: "".join(self.pick(["+", "-"]) + self.pick(["1", "2", "3", "0", "2*3", "7/2", "(1+1)", "5/2R", "1/0"]) for _ in range(self.r.randint(1, 3)))
        form = self.wpick([(2, "plain"), (5, "bracket"), (3, "at"), (0.3, "bad")])
        if form == "bad":
            return s + self.pick(["[6]@6", "+1[6]", "[6", "[]", "@", "[6]>=", "[6]+", "[6]>=?", "[6]*2", "[6]+1D6", "@6+1", "[6]>=3@6"])
        if form == "bracket":
            s += "[" + thr() + "]"
        if self.chance(0.4):
            s += mod()
        if self.chance(0.5):
            s += self.op() + self.arith(1, 0, 12)
        if form == "at":
            s += "@" + thr()
        return s

    # ----- Version ------------------------------------------------------------------------
    def version(self):
        return self.pick(["BCDiceVersion", "bcdiceversion", "BCDICEVERSION", "SBCDiceVersion", "BCDiceVersion コメント",
                          "BCDiceVersionX", "BCDiceVersion\tx", " BCDiceVersion", "BCDice Version", "BCDiceVersion2"])

    # ----- SRS ----------------------------------------------------------------------------
    def srs(self):
        base = self.wpick([(10, "2D6"), (1, "2d6"), (1, "2D"), (1, "(1+1)D6"), (0.5, "2D(3+3)"), (0.5, "(4/2)D6"),
                           (0.3, lambda: self.pick(["3D6", "2D8", "1D6", "02D6", "2D06", "(1+1)D(2*3)", "2D6D6"]))])
        mod = ""
        if self.chance(0.6):
            mod = "".join(self.pick(["+", "-"]) + self.pick(["1", "2", "3", "0", "4", "2*3", "(1-2)", "7/2", "5/2R", "1/0", "(1+1)", "1/0U", "10"])
                          for _ in range(self.wpick([(5, 1), (3, 2), (1, 4)])))
        opts = ""
        if self.chance(0.5):
            parts = []
            if self.chance(0.7):
                parts.append("@" + self.pick(["11", "10", "12", "13", "2", "(5+5)", "-1", "7"]))
            if self.chance(0.6):
                parts.append("#" + self.pick(["3", "2", "4", "1", "0", "(1+2)", "-2", "12"]))
            if self.chance(0.1):
                parts.append(self.pick(["@11", "#3", "$3"]))
            self.r.shuffle(parts)
            opts = "".join(parts)
        tgt = ""
        if self.chance(0.7):
            tgt = self.wpick([(8, ">="), (1, "=>"), (1, lambda: self.op())]) + self.wpick(
                [(10, lambda: self.arith(1, 2, 13)), (1, "?"), (0.5, lambda: self.pick(["", "1/0", "(1+1)", "1D6"]))])
        legacy = None
        if self.chance(0.25):
            legacy = "[" + self.pick(["11,3", "10", ",3", "", "12,2", "-1,-2", "11,", "a", "11,3,1", "(10),3", " 11,3", "+11,3", "11 ,3"]) + "]"
        order = self.r.randint(0, 2)
        if legacy is not None:
            s = base + mod + (tgt if self.chance(0.8) else "") + legacy
            if self.chance(0.1):
                s = base + mod + legacy + tgt
        elif order == 0:
            s = base + mod + opts + tgt
        elif order == 1:
            s = base + opts + mod + tgt
        else:
            s = base + mod + opts + tgt if not opts else base + opts.replace("#", mod + "#", 1) + tgt
        if self.chance(0.15):
            s = self.pick(["S", "s"]) + s
        if self.chance(0.05):
            s = self.pick(["2D6+(1-2)>=5", "(1+1)D6>=7", "2D6+(1)(2)>=7", "2D>=7", "2D6+1[11,3]>=5", "2D6[]", "2D6[11]",
                           "2D6[,3]", "2D6>7", "2D6*2>=7", "2D6+2D6", "2D6@11+1#3>=5", "2D6#3@11+1>=5", "2D6+1@11#3>=5",
                           "2D6>=?", "2D6[-1,-2]", "SS2D6>=7", "2D6+1/0>=5", "2D6+1/0U>=5", "2D6+(1/0)>=5",
                           "2D6+(1/0U)>=5", "2D6+(1/0F)>=5", "2D6@11@12", "2D6+1-1[11,3]", "2D6>=7[11,3]x", "2D6>=(5/0)"])
        return s

    # ----- Sengensyou ---------------------------------------------------------------------
    def sgs(self):
        s = self.pick(["SGS", "SGS", "sgs", "Sgs", "SSGS", "sSGS", "SSSGS"])
        if self.chance(0.6):
            s += "".join(self.pick(["+", "-"]) + self.pick(["1", "2", "4", "6", "0", "10", "2*3", "(1+2)", "7/2", "5/2C", "1/0", "1/0U", "(0-1)"])
                         for _ in range(self.wpick([(5, 1), (2, 2), (1, 3)])))
        if self.chance(0.12):
            s += self.pick([">=5", "@3", "#2", "*2", "?", "[1]", "X", "1", ">=?", "=5"])
        return s

    # ----- hand-picked shapes with random parameters -----------------------------------
    def tricky(self, system):
        n = lambda lo=0, hi=6: str(self.r.randint(lo, hi))
        big = lambda: str(self.r.choice([2 ** 31, 2 ** 32, 2 ** 52, 2 ** 53 - 1, 10 ** 15, 999999999999]) - self.r.randint(0, 9))
        return self.wpick([
            # Choice
            (3, lambda: self.pick(["choice[a,b]]", "choice(a,b]", "choice[a,b)", "choice[,a,b,]", "choice[a,,b]",
                                   "choice[ a , b ]", "choice[a\tb,c]", "choice[a,b\nc]", "choice(a,(b),c)", "choice((a),b)",
                                   "choice[a,[b],c]", "choice[]]", "choice[,]", "choice[ ]", "choice a", "choice 1-3",
                                   "choice[1-100]", "choice[0-100]", "choice[1-101]", "choice2[1-3]", "choice4[1-3]",
                                   "choice3[a,b,c]", "choice4[a,b,c]", "choice0[a,b]", "choice01[a,b]", " Schoice[a,b]",
                                   "S choice[a,b]", "schoice a b", "choice\na b", "choice\ta\tb", "choice[a-c]",
                                   "choice[A-C,]", "choice[a-c] ", "choice[-1-3]", "choice[3-1]", "choice[1-1]",
                                   "choice[a-a]", "choice[Z-A]", "choice[a-Z]", "choice[1 -3]", "choice[１-３]",
                                   "choice[a,b]c", "choice[a,b] [c,d]", "choice(a,b) (c)", "choiceX[a,b]", "choices[a,b]",
                                   "choice2 a b c", "choice3 a b", "choice 1 2 3", "choice[ａ,ｂ]", "choice[a, b ,c ]",
                                   "choice[\u0000a,b]", "choice[a\u0000,b]", "choice a\u0000 b"])
             .replace("\\t", "\t").replace("\\n", "\n").replace("\\u0000", "\x00")),
            (1, lambda: "choice[" + ",".join(str(i) for i in range(self.pick([99, 100, 101]))) + "]"),
            (1, lambda: "choice" + n(1, 3) + "[" + n(0, 5) + "-" + n(0, 9) + "]"),
            (1, lambda: "choice" + self.pick(["", "2"]) + "[" + self.pick("abcxyzABCXYZ") + "-" + self.pick("abcxyzABCXYZ") + "]"),
            # Repeat
            (2, lambda: self.pick(["x", "rep", "repeat"]) + n(1, 3) + self.pick(["\x0b", "\x0c", "\r", "\r\n", " \n ", "\t\t"]) + self.pick(["1D6", "C(2)", "ほげ", "choice[a,b]"])),
            (1, lambda: self.pick(["x2 x2 1D6", "x2 X2 1D6", "x2 Rep2 1D6", "x2 rep2 1D6", "x2 repeat2 1D6", "x2 REPEAT2 1D6",
                                   "x2 x 1D6", "x2 xa 1D6", "x2 x2", "X2 X2 X2 1D6", "x2 S1D6", "x2 s1d6", "sx2 1D6", "Sx2 ほげ",
                                   "sx0 1D6", "sx101 1D6", "Sx2 x2 1D6", "x2 1D6 x2 1D6", "x2  1D6", "x2 \t1D6", "x2 choice 1 2",
                                   "x1 SBCDiceVersion", "x3 choice[a,b,c]", "x2 2D6>=?", "x100 C(1)", "x100 1D2",
                                   "repeat100 ほげ", "rep101 ほげ", "x0 ほげ", "x02 1D6", "x2 D66S"]).replace("\\t", "\t")),
            (0.05, lambda: self.pick(["x50 200D6", "x51 200D6", "x100 100D6", "x100 101D6", "x2 10000D6", "x40 250D66", "x100 x 1D6"])),
            # big numbers below 2^53
            (1, lambda: self.pick(["C(", "C", "1D6+", "2B6>=", "1D6>=", "C(-"]) + big() + self.pick(["", "+" + n(), "-" + big(), ")"]) + self.pick(["", ")"])),
            (0.5, lambda: big() + self.pick(["D6", "B6", "R6>=3", "U6[6]", "TY6", "D66"])),
            (0.5, lambda: "2D6>=" + big() + self.pick(["", "-" + big()])),
            # secret prefixes and whitespace around them
            (2, lambda: self.pick(["S", "s", "SS", "sS", " S", "S ", "S\t", "\tS", "Ss"]).replace("\\t", "\t") +
             self.pick(["2D6", "3B6>=4", "C(1)", "2R6>=5", "2U6[6]", "D66", "2TY6", "choice[a,b]", "x2 1D6", "BCDiceVersion", "SGS", "2D6>=7", "SGS+1"])),
            # systems' own commands elsewhere, and near misses
            (1, lambda: self.pick(["SGS", "SGS+1", "2D6>=7[11,3]", "2D6@11#3", "2D6+1@11", "2D6#3", "SGS>=5", "sgs+1 x", "2D6@11>=?",
                                   "2D6>=7@11", "2D6@11#3[12,2]", "2D6[11,3]>=7", "2D6[1,2,3]", "2D6@@11", "2D6##3", "2D6@11#3@11",
                                   "2D6$3", "2D6+1+1[11,3]", "2d6+1d6>=7", "2D6+1*2>=7", "2D6-(1)>=7", "2D6+(2*3)>=7", "(2D6)>=7",
                                   "2D6>=7>=8", "2D6>=(7)", "2D6>=+7", "2D6>=-7", "2D6>=7-1", "2D6>=7/2", "2D6>=7/2U",
                                   "2D6 >=7", "2D6>= 7", "SGS +1", "SGS+1 +1", "SGS++1", "SGS+-1", "SGS--1", "SGS-(-1)", "SGS+(-1)",
                                   "SGS1", "SGS+1*2", "SGS+2/3", "SGS+7/2R", "SGS+7/2U", "SGS+7/2F", "SGS@", "XSGS", "1SGS"])),
            # AddDice with deeper trees
            (3, lambda: self.add_expr(3, self.r.randint(2, 4)) + (self.op() + self.arith(2, 0, 20) if self.chance(0.5) else "")),
            # UpperDice / RerollDice near misses
            (1, lambda: self.pick(["3U6@>=6", "3U6[>=6]", "3U6[6]@6", "3U6[6]>=", "3U6+1[6]", "3U6[6]+1+1>=8", "3U6[6]-1-1",
                                   "3U6[6]*2", "3U6[6]+2*3", "3U6[6]+7/2", "3U6[6]+7/2R", "3U6[6]>=?", "3U6[7]", "3U6[100]",
                                   "3U6[(6)]", "3U6[6+0]", "3U6[06]", "2U6+2U4", "2U6+2B6[6]", "2U6[6]+1D6", "2u6[6]=>7",
                                   "3R6[6]", "3R6[>=6]", "3R6[<=1]", "3R6[<1]", "3R6[<>3]", "3R6[=6]", "3R6[6]>=6", "3R6>=6@6",
                                   "3R6>=6[6]", "3R6@6", "3R6@>6", "3R6@<=1>=6", "3R6[6]@6", "3R6>6", "3R6<1", "3R6<=6", "3R6>=1",
                                   "3R6<>0", "3R6<>7", "3R6=7", "3R6[7]", "3R6[0]", "3R6[>0]", "3R6[<7]", "3R6[<=6]", "3R6[!=3]",
                                   "2R6+2R4[>=4]", "2R6+2R0[3]", "2R0>=3", "2R6+0R6>=3", "0R6>=3", "0U6[6]", "201B6", "201TY6",
                                   "201TZ2", "2D0", "2B0", "2B6>=?", "2B6+", "2B6+2", "2B6+2D6", "2B6>=1+1", "2B6>=(1+1)*2",
                                   "1TY6", "1TZ1", "2TY20", "2TZ20", "2TY21", "0TY6", "2TY0", "2TY(0-1)", "(0-1)TY6", "2TY6>=3"])),
        ])

    # ----- junk ---------------------------------------------------------------------------
    def junk(self):
        alphabet = "0123456789DdBbRrUuTYZCcSsKHLMAXINx+-*/()[]<>=!?@#$,. \tあ＋２"
        n = self.r.randint(1, 12)
        return "".join(self.pick(alphabet) for _ in range(n))

    # ----- mutations ----------------------------------------------------------------------
    def fullwidth(self, s):
        chars = list(s)
        idx = [i for i, c in enumerate(chars) if c in FULLWIDTH]
        if not idx:
            return s
        for i in self.r.sample(idx, self.r.randint(1, min(3, len(idx)))):
            chars[i] = FULLWIDTH[chars[i]]
        return "".join(chars)

    def decorate(self, s, kind):
        if kind in ("add", "barabara", "tally", "calc", "reroll", "upper") and self.chance(0.12):
            s = self.pick(["S", "s"]) + s
        if kind != "choice" and self.chance(0.25):
            s = self.low_letters(s, self.pick([0.3, 1.0]))
        if self.chance(0.25):
            sep = self.wpick([(10, " "), (2, "\t"), (2, "\n"), (1, "  "), (0.5, "\r\n"), (0.5, "\x0b"), (0.5, "\x0c"),
                              (0.3, "\x00"), (1, "\u3000"), (1, "")])
            s += sep + self.pick(COMMENTS)
        if self.chance(0.06):
            s = self.pick([" ", "  ", "\t", "\n", " \t", "\r\n", "\x00"]) + s
        if self.chance(0.04):
            s += self.pick([" ", "\t", "\n", "\x00"])
        if self.chance(0.03):
            s = self.fullwidth(s)
        if self.chance(0.03):  # a control character somewhere (NUL is stripped by some parsers only)
            i = self.pick([0, len(s), self.r.randint(0, len(s))])
            s = s[:i] + self.pick(["\x00", "\x00", "\x0b", "\x0c", "\r", "\x01", "\x7f"]) + s[i:]
        return s

    def one(self):
        system = self.wpick([(6, "DiceBot"), (2.5, "SRS"), (1.5, "Sengensyou")])
        table = [
            (30, "add"), (3, "add_edge"), (7, "barabara"), (5, "tally"), (8, "calc"), (7, "choice"), (3, "d66"),
            (7, "repeat"), (8, "reroll"), (8, "upper"), (1, "version"), (3, "junk"), (12, "tricky"),
        ]
        if system == "SRS":
            table.append((45, "srs"))
        if system == "Sengensyou":
            table.append((45, "sgs"))
        kind = self.wpick(table)
        make = {
            "add": self.add_dice, "add_edge": self.add_dice_edge, "barabara": self.barabara, "tally": self.tally,
            "calc": self.calc, "choice": self.choice, "d66": self.d66, "repeat": lambda: self.repeat(system),
            "reroll": self.reroll, "upper": self.upper, "version": self.version, "junk": self.junk,
            "srs": self.srs, "sgs": self.sgs, "tricky": lambda: self.tricky(system),
        }[kind]
        s = make()
        if kind == "tricky":
            if self.chance(0.2):
                s = self.decorate(s, "tricky")
        elif kind != "repeat":
            s = self.decorate(s, kind)
        elif self.chance(0.1):
            s = self.low_letters(s, 1.0)
        if not s.strip() and self.chance(0.9):
            s = "1D6" + s  # a few whitespace-only inputs are enough
        return {"system": system, "input": s, "kind": kind}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen.py N SEED")
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    g = Gen(seed)
    out = sys.stdout
    for _ in range(n):
        out.write(json.dumps(g.one(), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
