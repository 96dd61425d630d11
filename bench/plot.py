#!/usr/bin/env python3
"""One PNG per suite of an asyncgemm-bench CSV (`--suite ... --csv FILE`).

    bench/plot.py suites.csv [OUTDIR]      # OUTDIR defaults to the CSV's directory

Each workload is a bar of its ratio to cuBLAS (x cuBLAS, above 1 is faster) for every algorithm the
run timed, against the 1.0 line, with each algorithm's geometric mean marked.  A row is memory-bound
where the faster library moved its least traffic (the GB/s column) at half the device-to-device copy
bandwidth or more; such rows also show asyncgemm's GB/s as a share of that bandwidth, which the
suite run measures in its copy baseline row.  Needs matplotlib.
"""
import csv
import math
import os
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

MEMORY_BOUND_SHARE = 0.5  # of the copy bandwidth, by the faster library
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def number(text):
    return float(text) if text not in ("", None) else None


def read(path):
    """The GEMM rows by suite, each workload's rows by algorithm, and the copy baseline's GB/s."""
    suites = OrderedDict()
    copy_gbps = None
    device = ""
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            device = row["device"] or device
            if row["section"] == "copy" and row["algorithm"] == "D2D":
                copy_gbps = number(row["gb_per_s"])
                continue
            if row["section"] != "gemm":
                continue
            suite = row.get("suite") or "workloads"
            workloads = suites.setdefault(suite, OrderedDict())
            workloads.setdefault(row["workload"], {})[row["algorithm"]] = row
    return suites, copy_gbps, device


def geometric_mean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def plot_suite(name, workloads, copy_gbps, device, out_dir):
    algorithms = []
    for rows in workloads.values():
        for algorithm, row in rows.items():
            if algorithm != "cuBLAS" and number(row["ratio"]) and algorithm not in algorithms:
                algorithms.append(algorithm)
    labels = []
    for workload, rows in workloads.items():
        label = next((r["label"] for r in rows.values() if r.get("label")), "")
        labels.append(f"{workload}  {label}" if label else workload)

    height = 0.8 / max(1, len(algorithms))
    fig, ax = plt.subplots(figsize=(12, 0.32 * len(workloads) + 1.8))
    y_positions = range(len(workloads))
    title = [f"{name} ({device})"]
    for i, algorithm in enumerate(algorithms):
        ratios = [number(rows.get(algorithm, {}).get("ratio")) for rows in workloads.values()]
        ys = [y + (i - (len(algorithms) - 1) / 2) * height for y in y_positions]
        color = COLORS[i % len(COLORS)]
        ax.barh(ys, [r or 0 for r in ratios], height=height, color=color, label=algorithm)
        mean = geometric_mean([r for r in ratios if r])
        if mean:
            ax.axvline(mean, color=color, linestyle="--", linewidth=1)
            worst = min(r for r in ratios if r)
            title.append(f"{algorithm}: geometric mean {mean:.3f}x, worst {worst:.2f}x")
        for y, rows in zip(ys, workloads.values()):
            row = rows.get(algorithm)
            if not row or copy_gbps is None:
                continue
            fastest = max((number(r["gb_per_s"]) or 0) for r in rows.values())
            if fastest < MEMORY_BOUND_SHARE * copy_gbps:
                continue
            ratio, gbps = number(row["ratio"]), number(row["gb_per_s"])
            if ratio and gbps:
                ax.text(ratio + 0.01, y, f"{gbps / copy_gbps:.0%} of copy BW", va="center", fontsize=7)
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_yticks(list(y_positions))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("x cuBLAS (above 1 is faster)")
    if copy_gbps is None:
        title.append("no copy baseline in the CSV: bandwidth shares not shown")
    else:
        title.append(f"copy bandwidth {copy_gbps:.0f} GB/s (bytes read and written)")
    ax.set_title("\n".join(title), fontsize=9)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, f"{name}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    csv_path = argv[1]
    out_dir = argv[2] if len(argv) == 3 else os.path.dirname(os.path.abspath(csv_path))
    os.makedirs(out_dir, exist_ok=True)
    suites, copy_gbps, device = read(csv_path)
    if not suites:
        print(f"plot.py: {csv_path} has no GEMM rows", file=sys.stderr)
        return 1
    for name, workloads in suites.items():
        print(plot_suite(name, workloads, copy_gbps, device, out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
