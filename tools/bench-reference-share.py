#!/usr/bin/env python3
"""bcdice-api's share of the reference engine under a flood (attack pass 7, A7-14, A7-7).

Usage: bench-reference-share.py PORT
Against a `taku serve --bind 127.0.0.1:PORT --bcdice-js DIR` (Cthulhu7th on BCDice's JS
build), from loopback source addresses (127.0.x.y; Linux routes all of 127/8 locally):
  flood: 8 addresses x 4 connections send `x50 200D6` (a legal ~0.45 s command) for
         10 s; then a fresh address every 2 s sends `CC<=50`: seconds until the first 200.
  heavy: 4 addresses x 4 connections send `x100 200D6` (runs ~1.4 s, then refused) for
         16 s; a light address sends `CC1<=50` every 2 s, and a fresh address each time:
         how many answered (200) and their slowest time.
"""
import http.client, sys, threading, time, urllib.parse

PORT = int(sys.argv[1])
ROLL = "/v2/game_system/Cthulhu7th/roll?command="


def get(src, command, timeout=30):
    c = http.client.HTTPConnection("127.0.0.1", PORT, source_address=(src, 0), timeout=timeout)
    t = time.time()
    c.request("GET", ROLL + urllib.parse.quote(command))
    r = c.getresponse()
    r.read()
    c.close()
    return r.status, time.time() - t


def flood(src, command, seconds, threads, codes):
    def w():
        end = time.time() + seconds
        c = None
        while time.time() < end:
            try:
                if c is None:
                    c = http.client.HTTPConnection("127.0.0.1", PORT, source_address=(src, 0), timeout=10)
                c.request("GET", ROLL + urllib.parse.quote(command))
                r = c.getresponse()
                r.read()
                codes[r.status] = codes.get(r.status, 0) + 1
            except Exception as e:
                codes[type(e).__name__] = codes.get(type(e).__name__, 0) + 1
                c = None
    ts = [threading.Thread(target=w) for _ in range(threads)]
    for t in ts:
        t.start()
    return ts


def run_flood():
    codes = {}
    ts = []
    for k in range(1, 9):
        ts += flood(f"127.0.14.{k}", "x50 200D6", 10, 4, codes)
    for t in ts:
        t.join()
    t0 = time.time()
    for i in range(1, 40):
        status, _ = get(f"127.0.16.{i}", "CC<=50")
        if status == 200:
            print(f"flood: heavy side {codes}; first fresh client answered {time.time() - t0:.1f} s after the flood")
            return
        time.sleep(2)
    print(f"flood: heavy side {codes}; no fresh client answered within 80 s")


def run_heavy():
    codes = {}
    ts = []
    for k in range(1, 5):
        ts += flood(f"127.0.10.{k}", "x100 200D6", 16, 4, codes)
    time.sleep(4)
    light, fresh = [], []
    for i in range(1, 7):
        light.append(get("127.0.0.21", "CC1<=50"))
        fresh.append(get(f"127.0.22.{i}", "CC1<=50"))
        time.sleep(2)
    for t in ts:
        t.join()
    for name, got in (("light", light), ("fresh", fresh)):
        ok = [s for s, _ in got if s == 200]
        print(f"heavy: {name} client {len(ok)}/{len(got)} answered, slowest {max(t for _, t in got):.2f} s, statuses {[s for s, _ in got]}")
    print(f"heavy: heavy side {codes}")


run_flood()
time.sleep(20)
run_heavy()
