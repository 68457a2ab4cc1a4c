#!/usr/bin/env python3
"""The changeset benchmark: wall time and peak memory against the parse floor.

    python3 scripts/benchmark.py                 # 100k and 1M records
    python3 scripts/benchmark.py --sizes 10M     # the 10M run (about 2 GB of JSON a side)

It builds changeset in release mode, generates deterministic snapshot pairs
(changeset-bench generate: a book catalogue; NEW is OLD with 1% deleted, 1%
inserted, 2% updated, 0.5% moved and 0.5% moved to another category) in JSON,
NDJSON and CSV under .build/bench-data/, then runs, interleaved and repeated:

  - the floor: yajl-tools' json_verify over OLD, then over NEW (one after the
    other), the cost of merely parsing both files;
  - changeset OLD NEW --id id (text output to /dev/null), per format, and with
    --section category;
  - changeset-bench engine N: the engine alone, in process.

It prints a Markdown table: median wall time, peak resident memory of the
process (ru_maxrss), and the ratio of wall time to the floor. Times are
medians of --runs runs; the machine is shared, so compare ratios measured in
the same run rather than single times.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {"100k": 100_000, "1M": 1_000_000, "10M": 10_000_000}


def build():
    subprocess.run(["swift", "build", "-c", "release", "--product", "changeset"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["swift", "build", "-c", "release", "--product", "changeset-bench"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_dir, "changeset"), os.path.join(bin_dir, "changeset-bench")


def data_dir(bench, name):
    directory = os.path.join(ROOT, ".build", "bench-data", name)
    if not os.path.exists(os.path.join(directory, "new.csv")):
        print(f"generating {name} records in {directory} ...", file=sys.stderr)
        subprocess.run([bench, "generate", str(SIZES[name]), directory], check=True)
    return directory


def measure(commands):
    """Runs the commands one after the other; returns (wall seconds, peak RSS in MB of the largest)."""
    start = time.perf_counter()
    peak = 0
    for command, stdin in commands:
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source, open(os.devnull, "wb") as sink:
            process = subprocess.Popen(command, stdin=source, stdout=sink, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            error = process.stderr.read().decode()
            process.stderr.close()
            if process.returncode not in (0, 1):
                sys.exit(f"{' '.join(command)} failed ({process.returncode}): {error}")
            peak = max(peak, usage.ru_maxrss / 1024)
    return time.perf_counter() - start, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100k,1M", help="comma list of 100k, 1M, 10M (default 100k,1M)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measurement (median reported)")
    args = parser.parse_args()
    changeset, bench = build()

    print(f"machine: {platform.node()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, {platform.platform()}")
    print()
    print("| records | input | size a side | floor (json_verify x2) | changeset | ratio to floor | peak memory |")
    print("|---|---|---|---|---|---|---|")
    for name in args.sizes.split(","):
        directory = data_dir(bench, name)
        path = lambda side, ext: os.path.join(directory, f"{side}.{ext}")
        cases = [
            ("JSON", "json", [], ["-q"]),
            ("JSON, --section category", "json", ["--section", "category"], ["-q"]),
            ("NDJSON", "ndjson", [], ["-q", "-s"]),
            ("CSV", "csv", [], None),
        ]
        for label, ext, extra, verify in cases:
            floors, walls, peaks = [], [], []
            for _ in range(args.runs):
                if verify is not None:
                    floor, _ = measure([(["json_verify"] + verify, path("old", ext)),
                                        (["json_verify"] + verify, path("new", ext))])
                    floors.append(floor)
                wall, peak = measure([([changeset, path("old", ext), path("new", ext), "--id", "id"] + extra, None)])
                walls.append(wall)
                peaks.append(peak)
            size = os.path.getsize(path("old", ext)) / 1e6
            wall = statistics.median(walls)
            floor = statistics.median(floors) if floors else None
            ratio = f"{wall / floor:.2f}x" if floor else "n/a"
            floor_text = f"{floor:.2f} s" if floor else "n/a"
            print(f"| {name} | {label} | {size:.0f} MB | {floor_text} | {wall:.2f} s | {ratio} | {max(peaks):.0f} MB |",
                  flush=True)
        engine = subprocess.run([bench, "engine", str(SIZES[name])], check=True, capture_output=True, text=True)
        print(f"| {name} | engine alone (in process) | | | {engine.stdout.strip()} | | |", flush=True)


if __name__ == "__main__":
    main()
