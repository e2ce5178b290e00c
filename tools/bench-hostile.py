#!/usr/bin/env python3
"""Issue 18's hostile-load figures for `taku serve`, on loopback (BENCHMARKS.md).

    tools/bench-hostile.py PATH/TO/taku [--lines 4000] [--line-chars 3000]

1. RSS per live socket: a table with a large log, then 20 sockets of one member asking
   for the whole history (`after=0`) that never read; the server's RSS before and after.
2. Append latency with readers: 20 sockets replaying the whole log while 50 lines are
   appended one after another; median, p99, max, against the same with no readers.
3. Slowloris: the server under `prlimit --nofile=256`, 300 sockets from ten client
   addresses sending half a header and then nothing; latency of 200 valid requests
   before and during.

Standard library only; every wait has a deadline.
"""

import argparse
import base64
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def start(taku, db, prefix=()):
    proc = subprocess.Popen(
        [*prefix, taku, "serve", "--bind", "127.0.0.1:0", "--db", db, "--rate-limit", "0", "--lines-per-minute", "0", "--line-bytes-per-minute", "0", "--log", "off"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    banner = proc.stdout.readline()
    m = re.search(r"http://([\d.]+):(\d+)", banner)
    if not m:
        sys.exit(f"unexpected banner {banner!r}")
    return proc, (m.group(1), int(m.group(2)))


def http(addr, method, path, body=None, token=None, source="127.0.0.1"):
    """One request on a fresh connection; (status, body, seconds)."""
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {len(data)}\r\n"
    if token:
        head += f"Authorization: Bearer {token}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    t0 = time.perf_counter()
    s = socket.create_connection(addr, timeout=30, source_address=(source, 0))
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
    return status, payload, took


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def ws_open(addr, path):
    s = socket.create_connection(addr, timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    return s


def reader(sock, stop, counts, i):
    sock.settimeout(0.5)
    while not stop.is_set():
        try:
            c = sock.recv(1 << 20)
        except socket.timeout:
            continue
        except OSError:
            break
        if not c:
            break
        counts[i] += len(c)


def summary(xs):
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return f"median {statistics.median(xs) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {xs[-1] * 1000:.1f} ms"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("taku")
    ap.add_argument("--lines", type=int, default=4000)
    ap.add_argument("--line-chars", type=int, default=3000)
    ap.add_argument("--sockets", type=int, default=20)
    ap.add_argument("--no-slowloris", action="store_true", help="parts 1 and 2 only")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="taku-hostile-bench-")

    proc, addr = start(args.taku, os.path.join(work, "taku.db"))
    try:
        _, body, _ = http(addr, "POST", "/api/v1/tables", {"system": "DiceBot", "name": "big", "gm": "gm", "invites": 0})
        created = json.loads(body)
        tid, gm = created["id"], created["token"]
        t0 = time.time()
        filler = "あ" * (args.line_chars // 3) + "x" * (args.line_chars - args.line_chars // 3)
        for i in range(args.lines):
            st, b, _ = http(addr, "POST", f"/api/v1/tables/{tid}/lines", {"line": f"{i} {filler}"}, gm)
            assert st == 200, (st, b)
        size = os.path.getsize(os.path.join(work, "taku.db"))
        print(f"log: {args.lines} lines of {args.line_chars} chars, database {size / 1e6:.1f} MB, filled in {time.time() - t0:.0f} s")

        # 1. Non-reading sockets.
        http(addr, "GET", f"/api/v1/tables/{tid}", token=gm)
        time.sleep(1)
        before = rss_kb(proc.pid)
        idle = [ws_open(addr, f"/api/v1/tables/{tid}/live?token={gm}&after=0") for _ in range(args.sockets)]
        time.sleep(3)
        after = rss_kb(proc.pid)
        print(
            f"RSS: {before / 1024:.1f} MB before, {after / 1024:.1f} MB with {len(idle)} non-reading after=0 sockets: "
            f"{(after - before) / len(idle):.0f} KB per socket"
        )
        for s in idle:
            s.close()
        time.sleep(1)

        # 2. Append latency with and without readers.
        quiet = [http(addr, "POST", f"/api/v1/tables/{tid}/lines", {"line": "quiet"}, gm)[2] for _ in range(50)]
        print(f"append, no readers: {summary(quiet)}")
        stop = threading.Event()
        counts = [0] * args.sockets
        socks = [ws_open(addr, f"/api/v1/tables/{tid}/live?token={gm}&after=0") for _ in range(args.sockets)]
        threads = [threading.Thread(target=reader, args=(s, stop, counts, i), daemon=True) for i, s in enumerate(socks)]
        for t in threads:
            t.start()
        peak = 0
        busy = []
        for _ in range(50):
            busy.append(http(addr, "POST", f"/api/v1/tables/{tid}/lines", {"line": "busy"}, gm)[2])
            peak = max(peak, rss_kb(proc.pid))
        print(
            f"append, {args.sockets} sockets replaying the log: {summary(busy)}; "
            f"peak RSS {peak / 1024:.1f} MB; readers had received {sum(counts) / 1e6:.1f} MB"
        )
        stop.set()
        for s in socks:
            s.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)

    if args.no_slowloris:
        return
    # 3. Slowloris with 256 descriptors.
    proc, addr = start(args.taku, os.path.join(work, "slow.db"), prefix=("prlimit", "--nofile=256:256", "--"))
    try:
        calm = [http(addr, "GET", "/v2/version")[2] for _ in range(200)]
        slow = []
        for i in range(300):
            try:
                s = socket.create_connection(addr, timeout=5, source_address=(f"127.0.0.{2 + i % 10}", 0))
                s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                slow.append(s)
            except OSError:
                pass
        failed = 0
        attacked = []
        for _ in range(200):
            try:
                st, _, took = http(addr, "GET", "/v2/version")
                attacked.append(took)
                failed += st != 200
            except OSError:
                failed += 1
        print(f"slowloris, 256 fds: idle {summary(calm)}")
        print(f"slowloris, 256 fds, 300 slow sockets from 10 addresses: {summary(attacked)}; {failed} of 200 failed")
        t0 = time.time()
        proc.terminate()
        proc.wait(timeout=60)
        print(f"SIGTERM with the slow sockets held: exited {proc.returncode} after {time.time() - t0:.1f} s")
        for s in slow:
            s.close()
    finally:
        if proc.poll() is None:
            proc.kill()


if __name__ == "__main__":
    main()
