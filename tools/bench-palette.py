#!/usr/bin/env python3
"""Attack pass 2, A2-7: a player's palette of checks whose odds would take minutes, and 16 of the
costliest lines the cost bound lets through; three side panes asked for at once, then the pane
asked for until every chance is computed. Prints the panes' status, time and pending count, and
the server's CPU time and RSS. Standard library only.

    tools/bench-palette.py PATH/TO/taku
"""
import json, subprocess, sys, time, threading, urllib.request, re, os
taku = sys.argv[1]
import tempfile
db = tempfile.mkdtemp(prefix="taku-palette-") + "/p.db"
for f in [db, db+"-wal", db+"-shm"]:
    try: os.remove(f)
    except FileNotFoundError: pass
p = subprocess.Popen([taku, "serve", "--bind", "127.0.0.1:0", "--db", db, "--rate-limit", "0", "--log", "off"], stdout=subprocess.PIPE, text=True)
line = p.stdout.readline(); base = re.search(r"http://[0-9.:]+", line).group(0)
def req(method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(base+path, data=data, method=method)
    if token: r.add_header("Authorization", "Bearer "+token)
    if data: r.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(r, timeout=900) as resp: return resp.status, dict(resp.headers), resp.read().decode()
    except urllib.error.HTTPError as e: return e.code, dict(e.headers), e.read().decode()
def stat():
    f = open(f"/proc/{p.pid}/stat").read().split(")")[-1].split()
    cpu = (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    rss = int(open(f"/proc/{p.pid}/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return cpu, rss
_, _, made = req("POST", "/api/v1/tables", body={"system": "DiceBot", "name": "t", "gm": "gm", "invites": 1}); made = json.loads(made)
tid = made["id"]; inv = made["invites"][0]["token"]
_, _, j = req("POST", f"/api/v1/tables/{tid}/join", body={"invite": inv, "name": "alice"}); alice = json.loads(j)["token"]
req("POST", f"/api/v1/tables/{tid}/lines", alice, {"line": "/char new ミナ"})
hostile = ["200D1000>=100000", "２００Ｄ１００＞＝１００００", "100D100+100D100>=20000"] + [f"200D1000>={100000+i}" for i in range(13)]
worst_allowed = [f"44D100>={2000+i}" for i in range(8)] + [f"180D6>={600+i}" for i in range(8)]
lines = hostile + worst_allowed
cmd = "/char set ミナ " + " ".join(f'palette.{i} "{l}"' for i, l in enumerate(lines))
print("set palette:", req("POST", f"/api/v1/tables/{tid}/lines", alice, {"line": cmd})[0])
cpu0, rss0 = stat(); t0 = time.time()
res = []
def side():
    t = time.time(); s, h, b = req("GET", f"/t/{tid}/side", alice); res.append((s, round((time.time()-t)*1000, 1), h.get("x-taku-odds-pending")))
ths = [threading.Thread(target=side) for _ in range(3)]
[t.start() for t in ths]; [t.join() for t in ths]
print("3 concurrent side panes (status, ms, pending):", res)
# let the worker finish what it queued, then ask until nothing is pending
for _ in range(180):
    s, h, b = req("GET", f"/t/{tid}/side", alice)
    if h.get("x-taku-odds-pending") == "0": break
    time.sleep(1)
cpu1, rss1 = stat()
print(f"after all odds computed ({time.time()-t0:.1f} s): server CPU {cpu1-cpu0:.2f} s, RSS {rss0:.0f} -> {rss1:.0f} MB")
print("odds shown:", len(re.findall(r'class="odds"', b)), "of", len(lines), "lines;", len(worst_allowed), "cheap enough")
p.terminate(); p.wait()
