#!/usr/bin/env python3
"""Inputs of BENCHMARKS.md, "Many off-mesh links" (issue 16, item 8), written to the current
directory: wall.json (a 1000 x 1000 map with a wall from the bottom to y = 900), lineN.json
(a chain of N cost-0 links on the line (10, 10) -> (390, 890), each landing where the next
takes off) for N = 250, 500, 1000, 2000, and random100000.json (100,000 one-way links between
fixed pseudo-random free points, random costs). No randomness between runs."""
import json

json.dump({"bounds": {"min": [0, 0], "max": [1000, 1000]},
           "obstacles": [[[400, 0], [600, 0], [600, 900], [400, 900]]]}, open("wall.json", "w"))
for n in (250, 500, 1000, 2000):
    pts = [[10 + 380 * i / n, 10 + 880 * i / n] for i in range(n + 1)]
    json.dump([{"from": pts[i], "to": pts[i + 1], "cost": 0} for i in range(n)],
              open(f"line{n}.json", "w"))
state = 12345
def unit():
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return (state >> 11) / 2**53
def point():
    while True:
        p = [1 + 998 * unit(), 1 + 998 * unit()]
        if not (399 < p[0] < 601 and p[1] < 901):
            return p
# (The measured file skipped the first 100,001 points: kept so that it is the same file.)
for _ in range(100001):
    point()
json.dump([{"from": point(), "to": point(), "cost": 998 * unit()} for _ in range(100000)],
          open("random100000.json", "w"))
