#!/usr/bin/env python3
"""The changeset benchmark: wall time and peak memory against the parse floor and DuckDB.

    python3 scripts/benchmark.py                 # 100k and 1M records
    python3 scripts/benchmark.py --sizes 10M     # the 10M run (about 2 GB of JSON a side)
    python3 scripts/benchmark.py --sizes 100M    # 100M records of CSV (about 8.5 GB a side, written as made)
    python3 scripts/benchmark.py --skip-build    # use the binaries already in .build/release

It builds changeset in release mode (unless --skip-build), generates
deterministic snapshot pairs (changeset-bench generate: a book catalogue; NEW
is OLD with 1% deleted, 1% inserted, 2% updated, 0.5% moved and 0.5% moved to
another category) in JSON, NDJSON and CSV under .build/bench-data/, then runs,
interleaved (one of each per round, so noise hits all alike) and repeated:

  - the floor: yajl-tools' json_verify over both files, the cost of merely
    parsing them (JSON and NDJSON only), measured two ways: both at once, one
    process a file on a core each, as changeset reads its two inputs (the
    headline ratio), and one after the other (which flatters a two-core
    program by about 1.5x);
  - DuckDB, the query a data engineer would write: read_json / read_ndjson /
    read_csv with auto-detection, a FULL OUTER JOIN on id, and a count of the
    inserted (no old row), deleted (no new row) and updated (old row IS
    DISTINCT FROM new row, a NULL-safe comparison of whole rows) records
    (see DUCKDB_QUERY);
  - changeset OLD NEW --id id (text output to /dev/null), per format, and with
    --section category (no DuckDB counterpart); and OLD NEW --id id -q, which
    reads, matches and diffs but writes nothing, as the DuckDB query prints
    only counts (its DuckDB time is the same format's);
  - changeset-bench engine N: the engine alone, in process.

DuckDB is the `duckdb` package from PyPI, installed into a virtual environment
at .build/bench-venv (made with python3 -m venv and pip on first use, reused
after). It runs as a separate process, like changeset, so both are measured the
same way: from process start to end, reading the files included (for DuckDB
that includes starting Python and importing duckdb, about 0.2 s). DuckDB uses
all cores (its default thread count); changeset reads its two inputs on two
threads. Before timing, DuckDB's inserted, deleted and updated counts are
checked against changeset --stat's (which counts a record moved to another
category as updated, and also reports moves, which the join cannot see); the
script stops if they differ.

It prints a Markdown table: median wall time, peak resident memory of the
process (ru_maxrss, and per record of a side), CPU use (user plus system time
over wall time: how many cores were kept busy), the ratio of changeset's wall time to both floors and to
DuckDB's (the targets are in docs/performance.md). Times are
medians of --runs runs; the machine is shared, so compare ratios measured in
the same run rather than single times.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {"100k": 100_000, "1M": 1_000_000, "10M": 10_000_000, "100M": 100_000_000}
# Sizes whose pairs are written as they are made (changeset-bench stream), CSV only:
# 100M records are about 8.5 GB of CSV a side, and would not fit in memory as objects.
STREAMED = {"100M"}
VENV = os.path.join(ROOT, ".build", "bench-venv")

# {reader} is read_json, read_ndjson or read_csv; the two parameters are OLD and NEW.
# `o IS DISTINCT FROM n` compares the whole rows as structs, NULLs included (NULL equals NULL).
DUCKDB_QUERY = """\
WITH old AS (SELECT * FROM {reader}(?)),
     new AS (SELECT * FROM {reader}(?))
SELECT count(*) FILTER (WHERE o.id IS NULL) AS inserted,
       count(*) FILTER (WHERE n.id IS NULL) AS deleted,
       count(*) FILTER (WHERE o.id IS NOT NULL AND n.id IS NOT NULL AND o IS DISTINCT FROM n) AS updated
FROM old o FULL OUTER JOIN new n ON o.id = n.id"""

# Run as: python -c DUCKDB_SCRIPT READER OLD NEW; prints the counts as a JSON object (and no progress bar).
DUCKDB_SCRIPT = f"""\
import json, sys, duckdb
reader, old, new = sys.argv[1:]
query = {DUCKDB_QUERY!r}.format(reader=reader)
connection = duckdb.connect()
connection.execute("SET enable_progress_bar = false")
inserted, deleted, updated = connection.execute(query, [old, new]).fetchone()
print(json.dumps({{"inserted": inserted, "deleted": deleted, "updated": updated}}))
"""


def build():
    subprocess.run(["swift", "build", "-c", "release", "--product", "changeset"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["swift", "build", "-c", "release", "--product", "changeset-bench"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    return os.path.join(bin_dir, "changeset"), os.path.join(bin_dir, "changeset-bench")


def built():
    """The binaries already built in .build/release, for --skip-build."""
    binaries = [os.path.join(ROOT, ".build", "release", name) for name in ("changeset", "changeset-bench")]
    for binary in binaries:
        if not os.access(binary, os.X_OK):
            sys.exit(f"{binary} is missing: build it (swift build -c release) or drop --skip-build")
    return binaries


def duckdb_python():
    """The virtual environment's Python, with duckdb installed; returns (python, duckdb version)."""
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        print(f"making a virtual environment in {VENV} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    version = subprocess.run([python, "-c", "import duckdb; print(duckdb.__version__)"],
                             capture_output=True, text=True)
    if version.returncode != 0:
        print("installing duckdb from PyPI ...", file=sys.stderr)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "duckdb"], check=True, stdout=sys.stderr)
        version = subprocess.run([python, "-c", "import duckdb; print(duckdb.__version__)"],
                                 capture_output=True, text=True, check=True)
    return python, version.stdout.strip()


def data_dir(bench, name):
    directory = os.path.join(ROOT, ".build", "bench-data", name)
    if not os.path.exists(os.path.join(directory, "new.csv")):
        print(f"generating {name} records in {directory} ...", file=sys.stderr)
        job = "stream" if name in STREAMED else "generate"
        # Written beside and renamed when whole: an interrupted run leaves no half pair to be reused.
        partial = directory + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run([bench, job, str(SIZES[name]), partial], check=True)
        shutil.rmtree(directory, ignore_errors=True)
        os.rename(partial, directory)
    return directory


def measure_at_once(commands):
    """Runs the commands at the same time, each reading its file; returns their wall seconds, first start to last end."""
    start = time.perf_counter()
    processes = []
    for command, stdin in commands:
        with open(stdin, "rb") as source:
            processes.append((command, subprocess.Popen(command, stdin=source, stdout=subprocess.DEVNULL,
                                                        stderr=subprocess.PIPE)))
    for command, process in processes:
        error = process.stderr.read().decode()
        if process.wait() != 0:
            sys.exit(f"{' '.join(command)} failed ({process.returncode}): {error}")
    return time.perf_counter() - start


def measure(commands, capture=False, ok=(0, 1)):
    """Runs the commands one after the other; returns (wall seconds, peak RSS in MB of the largest, output, CPU seconds).

    CPU seconds are user plus system time of all the commands: over wall time, the cores kept busy.

    An exit status not in ok stops the script (changeset exits 1 for differences, Python for an exception).

    The output is the standard output of the last command when capture is set (to a temporary file, not a
    pipe, so no reading competes with the process), else None and standard output goes to /dev/null.
    """
    start = time.perf_counter()
    peak = 0
    cpu = 0.0
    output = None
    for command, stdin in commands:
        with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source, \
                tempfile.TemporaryFile() if capture else open(os.devnull, "wb") as sink:
            process = subprocess.Popen(command, stdin=source, stdout=sink, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            error = process.stderr.read().decode()
            process.stderr.close()
            if process.returncode not in ok:
                sys.exit(f"{' '.join(command)} failed ({process.returncode}): {error}")
            peak = max(peak, usage.ru_maxrss / 1024)
            cpu += usage.ru_utime + usage.ru_stime
            if capture:
                sink.seek(0)
                output = sink.read().decode()
    return time.perf_counter() - start, peak, output, cpu


def changeset_counts(changeset, old, new):
    """changeset --stat's inserted, deleted and updated counts (moves left out: the join cannot see them)."""
    result = subprocess.run([changeset, old, new, "--id", "id", "--stat", "--format", "json"],
                            capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"changeset --stat failed ({result.returncode}): {result.stderr}")
    stat = json.loads(result.stdout)
    return {kind: stat[kind] for kind in ("inserted", "deleted", "updated")}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100k,1M",
                        help="comma list of 100k, 1M, 10M, 100M (default 100k,1M; 100M is CSV only, 17 GB of disk)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each measurement (median reported)")
    parser.add_argument("--formats", default="json,ndjson,csv",
                        help="comma list of json, ndjson, csv: the inputs to measure (default all; the 10M run is long)")
    parser.add_argument("--memory-limit", default="1G",
                        help="the --memory-limit of the extra CSV row at 10M and 100M (default 1G)")
    parser.add_argument("--skip-build", action="store_true",
                        help="use the binaries in .build/release instead of building them")
    args = parser.parse_args()
    changeset, bench = built() if args.skip_build else build()
    python, duckdb_version = duckdb_python()

    print(f"machine: {platform.node()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, {platform.platform()}; "
          f"DuckDB {duckdb_version} (Python package, all cores)")
    print()
    print("| records | input | size a side | floor, both at once | floor, one after the other | DuckDB | changeset "
          "| ratio to floor (both at once) | ratio to floor (one after the other) "
          "| ratio to DuckDB | peak memory | DuckDB peak memory | CPU use | DuckDB CPU use |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    checked = []
    for name in args.sizes.split(","):
        directory = data_dir(bench, name)
        path = lambda side, ext: os.path.join(directory, f"{side}.{ext}")
        cases = [
            # label, extension, changeset's extra options, json_verify's options, DuckDB's reader
            ("JSON", "json", [], ["-q"], "read_json"),
            ("JSON, -q", "json", ["-q"], ["-q"], None),
            ("JSON, --section category", "json", ["--section", "category"], ["-q"], None),
            ("NDJSON", "ndjson", [], ["-q", "-s"], "read_ndjson"),
            ("NDJSON, -q", "ndjson", ["-q"], ["-q", "-s"], None),
            ("CSV", "csv", [], None, "read_csv"),
            ("CSV, -q", "csv", ["-q"], None, None),
        ]
        if SIZES[name] >= 10_000_000:
            # Past the limit: through temporary files, a partition at a time (DuckDB's time is the CSV row's).
            cases.append((f"CSV, --memory-limit {args.memory_limit}", "csv", ["--memory-limit", args.memory_limit], None, None))
        duck_of_input = {}
        for label, ext, extra, verify, reader in cases:
            if ext not in args.formats.split(",") or (name in STREAMED and ext != "csv"):
                continue
            old, new = path("old", ext), path("new", ext)
            expected = changeset_counts(changeset, old, new) if reader else None
            floors, at_once_floors, duckdbs, duckdb_peaks, duckdb_cpus, walls, peaks, cpus = [], [], [], [], [], [], [], []
            for run in range(args.runs):
                if verify is not None:
                    floor, _, _, _ = measure([(["json_verify"] + verify, old), (["json_verify"] + verify, new)])
                    floors.append(floor)
                    at_once_floors.append(measure_at_once([(["json_verify"] + verify, old), (["json_verify"] + verify, new)]))
                if reader:
                    duck, duck_peak, output, duck_cpu = measure([([python, "-c", DUCKDB_SCRIPT, reader, old, new], None)],
                                                      capture=run == 0, ok=(0,))
                    if run == 0:
                        counts = json.loads(output)
                        if counts != expected:
                            sys.exit(f"{name} {label}: DuckDB counts {counts}, changeset counts {expected}")
                        checked.append(f"{name} {label}")
                    duckdbs.append(duck)
                    duckdb_peaks.append(duck_peak)
                    duckdb_cpus.append(duck_cpu / duck)
                wall, peak, _, cpu = measure([([changeset, old, new, "--id", "id"] + extra, None)])
                walls.append(wall)
                peaks.append(peak)
                cpus.append(cpu / wall)
            size = os.path.getsize(old) / 1e6
            wall = statistics.median(walls)
            floor = statistics.median(floors) if floors else None
            at_once_floor = statistics.median(at_once_floors) if at_once_floors else None
            duck = statistics.median(duckdbs) if duckdbs else duck_of_input.get(ext)
            if duckdbs:
                duck_of_input[ext] = duck
            floor_text = f"{floor:.2f} s" if floor else "n/a"
            at_once_text = f"{at_once_floor:.2f} s" if at_once_floor else "n/a"
            duck_text = f"{duck:.2f} s" if duck else "n/a"
            floor_ratio = f"{wall / floor:.2f}x" if floor else "n/a"
            at_once_ratio = f"{wall / at_once_floor:.2f}x" if at_once_floor else "n/a"
            duck_ratio = f"{wall / duck:.2f}x" if duck else "n/a"
            duck_peak = f"{max(duckdb_peaks):.0f} MB" if duckdb_peaks else "n/a"
            duck_cpu = f"{statistics.median(duckdb_cpus):.2f}" if duckdb_cpus else "n/a"
            per_record = max(peaks) * 2**20 / SIZES[name]
            print(f"| {name} | {label} | {size:.0f} MB | {at_once_text} | {floor_text} | {duck_text} | {wall:.2f} s "
                  f"| {at_once_ratio} | {floor_ratio} "
                  f"| {duck_ratio} | {max(peaks):.0f} MB ({per_record:.0f} B a record) | {duck_peak} "
                  f"| {statistics.median(cpus):.2f} | {duck_cpu} |", flush=True)
        if name in STREAMED:
            continue  # the engine alone is measured up to 10M: its reference holds every record as an object
        engine = subprocess.run([bench, "engine", str(SIZES[name])], check=True, capture_output=True, text=True)
        lines = "<br>".join(line.strip() for line in engine.stdout.strip().splitlines())  # one table row
        print(f"| {name} | engine alone (in process) | | | | | {lines} | | | | | | | |", flush=True)
    print()
    print(f"DuckDB's inserted, deleted and updated counts agree with changeset's on: {', '.join(checked)}.")


if __name__ == "__main__":
    main()
