#!/usr/bin/env python3
"""Seeded MovingAI-style maps of kinds that shared/data lacks, with a scenario of 300 random
queries in the largest 4-connected region (column 9, the octile cost, is written as 0: the
runner compares the searches with each other, not with it). BENCHMARKS.md, "Session 20".

    other-maps.py KIND OUT.map SEED        KIND: rooms16, rooms64 (512 x 512 rooms of that
                                            size, doors at random), random10, random40 (512 x 512,
                                            that % of cells blocked), blobs (1,024 x 1,024, 400 round,
                                            diamond and square obstacles of radius 3-40), small1500
                                            (1,500 of radius 3-14), mid800 (800 of radius 3-20),
                                            streets, streets2k (city blocks, 1,024 or 2,048 square)
    other-maps.py scen MAP.map SEED        only the scenario, for a map made elsewhere (mazes)
"""
import random, sys
from collections import deque
def write(name, g, w, h):
    with open(name, 'w') as f:
        f.write(f"type octile\nheight {h}\nwidth {w}\nmap\n")
        for row in g: f.write(''.join(row) + "\n")
def rooms(w, h, r, seed):
    rnd = random.Random(seed)
    g = [['.'] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            if x % r == 0 or y % r == 0: g[y][x] = '@'
    # doors: for each wall segment between adjacent rooms, open 1..3 gaps of width 1..3 w.p. 0.8
    for ry in range(0, h, r):
        for rx in range(0, w, r):
            for vertical in (0, 1):
                if rnd.random() < 0.8:
                    for _ in range(rnd.randint(1, 2)):
                        k = rnd.randint(1, r - 3); dw = rnd.randint(1, 3)
                        for d in range(dw):
                            if vertical:
                                x, y = rx, ry + k + d
                            else:
                                x, y = rx + k + d, ry
                            if 0 < x < w - 1 and 0 < y < h - 1: g[y][x] = '.'
    return g
def randmap(w, h, p, seed):
    rnd = random.Random(seed)
    return [['@' if rnd.random() < p else '.' for _ in range(w)] for _ in range(h)]
def blobs(w, h, n, rmax, seed):
    rnd = random.Random(seed)
    g = [['.'] * w for _ in range(h)]
    for _ in range(n):
        cx, cy, rr = rnd.randrange(w), rnd.randrange(h), rnd.randint(3, rmax)
        kind = rnd.random()
        for y in range(max(0, cy - rr), min(h, cy + rr)):
            for x in range(max(0, cx - rr), min(w, cx + rr)):
                if kind < 0.5:
                    if (x - cx) ** 2 + (y - cy) ** 2 <= rr * rr: g[y][x] = '@'
                elif kind < 0.8:
                    if abs(x - cx) + abs(y - cy) <= rr: g[y][x] = '@'
                else:
                    g[y][x] = '@'
    return g
def streets(w, h, seed):
    rnd = random.Random(seed)
    g = [['.'] * w for _ in range(h)]
    y = 0
    while y < h:
        bh = rnd.randint(8, 40); x = 0
        while x < w:
            bw = rnd.randint(8, 60)
            # a block of buildings with irregular edges
            for yy in range(y + 3, min(h, y + bh)):
                for xx in range(x + 3, min(w, x + bw)):
                    g[yy][xx] = '@'
            for _ in range(rnd.randint(0, 6)):
                px, py = rnd.randint(x + 3, x + bw), rnd.randint(y + 3, y + bh)
                for yy in range(py, min(h, py + rnd.randint(1, 4))):
                    for xx in range(px, min(w, px + rnd.randint(1, 4))):
                        if yy < h and xx < w: g[yy][xx] = '.'
            x += bw
        y += bh
    return g
def scen(name, mapname, g, w, h, n, seed):
    rnd = random.Random(seed)
    comp = [[-1] * w for _ in range(h)]; sizes = []
    for sy in range(h):
        for sx in range(w):
            if g[sy][sx] == '.' and comp[sy][sx] < 0:
                c = len(sizes); comp[sy][sx] = c; q = deque([(sx, sy)]); k = 0
                while q:
                    x, y = q.popleft(); k += 1
                    for nx, ny in ((x+1,y),(x-1,y),(x,y+1),(x,y-1)):
                        if 0 <= nx < w and 0 <= ny < h and g[ny][nx] == '.' and comp[ny][nx] < 0:
                            comp[ny][nx] = c; q.append((nx, ny))
                sizes.append(k)
    big = max(range(len(sizes)), key=lambda c: sizes[c])
    cells = [(x, y) for y in range(h) for x in range(w) if comp[y][x] == big]
    with open(name, 'w') as f:
        f.write("version 1\n")
        for _ in range(n):
            (a, b), (c, d) = rnd.choice(cells), rnd.choice(cells)
            f.write(f"0\t{mapname}\t{w}\t{h}\t{a}\t{b}\t{c}\t{d}\t0\n")

def read(name):
    lines = open(name).read().split("\n")
    h = int(lines[1].split()[1]); w = int(lines[2].split()[1])
    return [list(r) for r in lines[4:4 + h]], w, h

kind, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
if kind == "scen":
    g, w, h = read(out)
elif kind.startswith("rooms"):
    w = h = 512; g = rooms(w, h, int(kind[5:]), seed)
elif kind.startswith("random"):
    w = h = 512; g = randmap(w, h, int(kind[6:]) / 100, seed)
elif kind in ("blobs", "small1500", "mid800"):
    n, rmax = {"blobs": (400, 40), "small1500": (1500, 14), "mid800": (800, 20)}[kind]
    w = h = 1024; g = blobs(w, h, n, rmax, seed)
elif kind in ("streets", "streets2k"):
    w = h = 2048 if kind == "streets2k" else 1024; g = streets(w, h, seed)
else:
    sys.exit(f"unknown kind {kind}")
if kind != "scen":
    write(out, g, w, h)
scen(out + ".scen", out, g, w, h, 300, seed + 1)
