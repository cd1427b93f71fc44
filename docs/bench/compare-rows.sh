#!/bin/bash
# Issue 15's rows as medians: `portolan-compare` run RUNS times (default 3), then per row each run's plain
# and index ratios (the crate's mean time over Portolan's) and their medians, and the geometric means of the
# medians. One run of the tool moves a row by 5-20% on this project's shared 2-core machines (BENCHMARKS.md,
# "Session 33"); a median of three is steadier. Run from anywhere after `cargo build --release --workspace`;
# DATA overrides where ../shared/data is, COMPARE which binary runs, and ARGS the tool's arguments (default
# `--reps 5 --landmarks 0 --index`). Each run's full output is kept in OUT (default /tmp/compare-rows).
set -e
cd "$(dirname "$0")/../.."
C=${COMPARE:-target/release/portolan-compare}; D=${DATA:-../shared/data}; RUNS=${RUNS:-3}
OUT=${OUT:-/tmp/compare-rows}; ARGS=${ARGS:---reps 5 --landmarks 0 --index}
mkdir -p "$OUT"
echo "# $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$RUNS"); do
  # shellcheck disable=SC2086
  "$C" "$D" $ARGS > "$OUT/run$i.md" 2> "$OUT/run$i.err"
  echo "# run $i done $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
done
python3 - "$OUT" "$RUNS" "$ARGS" <<'PY'
import math, re, sys
out, runs, args = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
rows = {}  # name -> list of (plain, index) per run
order = []
for i in range(1, runs + 1):
    for line in open(f"{out}/run{i}.md"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        # A row of the main table: its ratio cells read "A× / B×" (mean / median).
        ratios = [c for c in cells if re.fullmatch(r"[0-9.]+× / [0-9.]+×", c)]
        if len(cells) < 8 or not ratios:
            continue
        name = cells[0]
        if name not in rows:
            rows[name] = []
            order.append(name)
        mean = lambda c: float(c.split("×")[0])
        # Plain first; the index's last, where the tool ran it (landmarks' in between).
        index = mean(ratios[-1]) if "--index" in args and len(ratios) > 1 else None
        rows[name].append((mean(ratios[0]), index))
def med(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
print("\n| mesh | plain ratio, each run | median | index ratio, each run | median |")
print("| --- | --- | ---: | --- | ---: |")
logs_p, logs_i = [], []
for name in order:
    p = [r[0] for r in rows[name]]
    ix = [r[1] for r in rows[name] if r[1] is not None]
    mp = med(p)
    logs_p.append(math.log(mp))
    cell_i, mi = "-", "-"
    if ix:
        mi_v = med(ix)
        logs_i.append(math.log(mi_v))
        cell_i, mi = ", ".join(f"{x:.2f}×" for x in ix), f"{mi_v:.2f}×"
    print(f"| {name} | {', '.join(f'{x:.2f}×' for x in p)} | {mp:.2f}× | {cell_i} | {mi} |")
gm = lambda logs: math.exp(sum(logs) / len(logs))
print(f"| **geometric mean of the medians** | | **{gm(logs_p):.2f}×** | | "
      + (f"**{gm(logs_i):.2f}×** |" if logs_i else "- |"))
PY
