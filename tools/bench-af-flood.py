#!/usr/bin/env python3
"""Issue 18 item 4: ordinary lines' latency while attackers flood exact-odds work.

    tools/bench-af-flood.py PATH/TO/taku [--attackers 4] [--rate 2.5] [--lines 200]
                            [--interval 0.05] [--warmup 15] [--pcs 8]
                            [--difficulty 3000] [--rounds 20]

A victim table (DiceBot) takes `--lines` ordinary `2D6` lines, one every `--interval`
seconds, first with the server idle, then (after `--warmup` seconds of flood) while `--attackers` attackers, each the GM of their own
Another World table with `--pcs` PCs, start an AF check (`/af start 理知 D R`, whose
exact odds the server computes) and end it (`/af end`), each at `--rate` starts a second. Prints
the victim's median, p99 and max for both, the attackers' answers by status (200 done,
503 refused for the member's computing budget or busy workers), and the time one start
takes alone. Standard library only; every wait has a deadline.
"""

import argparse
import json
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def start(taku, db, extra=()):
    proc = subprocess.Popen(
        [taku, "serve", "--bind", "127.0.0.1:0", "--db", db, "--rate-limit", "0", "--lines-per-minute", "0", "--line-bytes-per-minute", "0", "--log", "off",
         *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    banner = proc.stdout.readline()
    m = re.search(r"http://([\d.]+):(\d+)", banner)
    if not m:
        sys.exit(f"unexpected banner {banner!r}")
    return proc, (m.group(1), int(m.group(2)))


def http(addr, method, path, body=None, token=None):
    """One request on a fresh connection; (status, body as JSON or None, seconds)."""
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    t0 = time.perf_counter()
    s = socket.create_connection(addr, timeout=60)
    s.sendall(head.encode() + b"\r\n" + data)
    chunks = []
    while True:
        c = s.recv(65536)
        if not c:
            break
        chunks.append(c)
    s.close()
    took = time.perf_counter() - t0
    raw = b"".join(chunks)
    status = int(raw[9:12])
    payload = raw.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in raw else b""
    try:
        value = json.loads(payload)
    except ValueError:
        value = None
    return status, value, took


def table(addr, system, invites=0):
    status, made, _ = http(addr, "POST", "/api/v1/tables",
                           {"system": system, "name": "bench", "gm": "gm", "invites": invites})
    assert status == 201, (status, made)
    return made


def line(addr, made, text, token=None):
    return http(addr, "POST", f"/api/v1/tables/{made['id']}/lines", {"line": text},
                token or made["token"])


def attacker_table(addr, pcs):
    made = table(addr, "AnotherWorld", pcs)
    for i, invite in enumerate(made["invites"]):
        name = f"p{i}"
        status, joined, _ = http(addr, "POST", f"/api/v1/tables/{made['id']}/join",
                                 {"invite": invite["token"], "name": name})
        assert status == 201, joined
        for text in (f"/char new P{i}", f"/char set P{i} 理知 {3 + i % 3} 行動値 {10 - i}"):
            status, out, _ = line(addr, made, text, joined["token"])
            assert status == 200, (text, out)
    return made


def victim_run(addr, made, n, interval=0.0):
    times = []
    for _ in range(n):
        status, out, took = line(addr, made, "2D6")
        assert status == 200, out
        times.append(took)
        if interval > took:
            time.sleep(interval - took)
    return times


def summary(xs):
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return (f"median {statistics.median(xs) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
            f"max {xs[-1] * 1000:.1f} ms (n={len(xs)})")


def attack(addr, made, start_line, rate, stop, statuses):
    period = 1.0 / rate
    nxt = time.perf_counter()
    while not stop.is_set():
        status, out, _ = line(addr, made, start_line)
        statuses.append((status, (out or {}).get("reason")))
        line(addr, made, "/af end")
        nxt += period
        delay = nxt - time.perf_counter()
        if delay > 0:
            stop.wait(delay)
        else:
            nxt = time.perf_counter()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taku")
    ap.add_argument("--attackers", type=int, default=4)
    ap.add_argument("--rate", type=float, default=2.5)
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--pcs", type=int, default=8)
    ap.add_argument("--difficulty", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--warmup", type=float, default=15.0,
                    help="seconds of flood before the victim is measured (past the budgets' burst)")
    ap.add_argument("--interval", type=float, default=0.05,
                    help="seconds between the victim's lines")
    ap.add_argument("--serve-arg", action="append", default=[],
                    help="passed to taku serve (repeatable), e.g. --serve-arg=--workers=2")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, addr = start(args.taku, f"{tmp}/taku.db", args.serve_arg)
        try:
            victim = table(addr, "DiceBot")
            attackers = [attacker_table(addr, args.pcs) for _ in range(args.attackers)]
            start_line = f"/af start 理知 {args.difficulty} {args.rounds} 攻撃"
            # One start alone, from a table that is not an attacker's.
            probe = attacker_table(addr, args.pcs)
            status, out, took = line(addr, probe, start_line)
            print(f"one AF start alone: {took * 1000:.0f} ms (status {status}: "
                  f"{(out or {}).get('reason') or 'started'})")
            line(addr, probe, "/af end")
            victim_run(addr, victim, 20)  # warm-up
            idle = victim_run(addr, victim, args.lines, args.interval)
            print(f"victim idle:          {summary(idle)}")
            stop = threading.Event()
            statuses = []
            threads = [threading.Thread(target=attack,
                                        args=(addr, a, start_line, args.rate, stop, statuses))
                       for a in attackers]
            for t in threads:
                t.start()
            time.sleep(args.warmup)  # past the attackers' saved-up budgets
            flooded = victim_run(addr, victim, args.lines, args.interval)
            stop.set()
            for t in threads:
                t.join(timeout=120)
            print(f"victim under attack:  {summary(flooded)}")
            codes = [c for c, _ in statuses]
            counts = {c: codes.count(c) for c in sorted(set(codes))}
            print(f"attackers' AF starts by status: {counts}")
            for c in sorted(set(codes) - {200}):
                print(f"  {c}, e.g.: {next(r for k, r in statuses if k == c)}")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    main()
