#!/usr/bin/env python3
"""changeset on Spark: compare two snapshots too large for one machine.

    changeset_spark.py OLD NEW --id FIELD [--format F] [--partitions N] [-o PATH]
                       [--input-format csv|tsv|ndjson|json|parquet|table] [--changeset PATH]
                       [comparison options] [report options]

Spark reads both snapshots and shuffles their records by the same hash of the
key into N partitions, so a record and its twin land in the same one. Each
partition pair is written to two files on its executor in the whole
snapshot's order and compared there with `changeset OLD_PART NEW_PART --id
FIELD --ignore-order --format ndjson`; the executor rewrites the stream's
positions to whole-snapshot ones. The driver gathers the streams and renders
them with `changeset report`, which writes the report (to -o or standard
output) and whose exit status this job exits with: 0 no differences, 1
differences, 2 trouble. See docs/spark.md.

Runs under spark-submit, and with plain python3 in local mode (`local[*]`
when no master is set).
"""

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
import zlib
from array import array
from decimal import Decimal, InvalidOperation

# Options handed to `changeset` for every partition pair: they decide what
# counts as a change, so every stream is made under them (and `report`
# refuses streams made under different ones). Each: (flag, takes a value,
# repeatable).
COMPARISON_OPTIONS = [
    ("--ignore", True, True),
    ("--only", True, True),
    ("--rename", True, True),
    ("--tolerance", True, True),
    ("--relative-tolerance", True, True),
    ("--ignore-case", False, False),
    ("--ignore-whitespace", False, False),
    ("--loose-types", False, False),
    ("--numbers-by-value", False, False),
    ("--arrays", True, False),
    ("--array-key", True, True),
    ("--duplicates", True, False),
    ("--csv-rows", True, False),
    ("--delimiter", True, False),
    ("--memory-limit", True, False),
]

# Options handed to `changeset report` once, on the driver: they decide
# what the report shows and how, never what a change is.
REPORT_OPTIONS = [
    ("--format", True, False),
    ("--assert", True, True),
    ("--width", True, False),
    ("--limit", True, False),
    ("--kinds", True, False),
    ("--group", False, False),
    ("--stat", False, False),
    ("--quiet", False, False),
    ("--color", True, False),
]

# Options of `changeset` this job cannot honour, and why.
REFUSED_OPTIONS = {
    "--section": "positions inside sections cannot be rebuilt from partitions; compare without --section",
    "--sort-sections": "the job compares without sections",
    "--table": "name a Spark table as OLD and NEW with --input-format table",
    "--records-at": "Spark reads a JSON document's records only as a top-level array or JSON lines",
    "--rules": "each partition is compared under the options given here; give them on the command line",
    "--show": "the job does not carry --show's values through its partitions; compare on one machine for them",
}

LINE_FORMATS = ("csv", "tsv", "ndjson")
SPARK_FORMATS = ("json", "parquet", "table")


class JobError(Exception):
    """A problem with the inputs or the options: printed as `changeset_spark: MESSAGE`, exit 2."""


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="changeset_spark.py",
        description="Compare two snapshots with changeset on Spark: partitions by key, one changeset run per partition pair, one report.",
        epilog="Comparison options go to every partition's changeset run; report options to the one `changeset report`. See docs/spark.md.",
        allow_abbrev=False)
    parser.add_argument("old", metavar="OLD", help="the old snapshot: a file, or a table with --input-format table")
    parser.add_argument("new", metavar="NEW", help="the new snapshot")
    parser.add_argument("--id", required=True, metavar="FIELD", help="the key, as changeset's --id (a.b nested, a,b composite)")
    parser.add_argument("--partitions", type=int, metavar="N",
                        help="partitions to compare (default: spark.default.parallelism)")
    parser.add_argument("--input-format", choices=LINE_FORMATS + SPARK_FORMATS,
                        help="how Spark reads both snapshots (default: from OLD's extension)")
    parser.add_argument("--changeset", metavar="PATH",
                        help="the changeset binary (default: on PATH; a file shipped with spark-submit --files by its name)")
    parser.add_argument("-o", "--output", metavar="PATH", help="write the report to this file instead of standard output")
    parser.add_argument("-L", "--label", action="append", default=[], metavar="NAME",
                        help="the names the report gives OLD and NEW (twice; default: OLD and NEW as given)")
    parser.add_argument("--streams", metavar="DIR",
                        help="keep each partition's ndjson change stream in this folder (part-00000.ndjson, ...)")
    parser.add_argument("--ignore-order", action="store_true",
                        help="always on: partitions have no common order, so the job reports no moves")
    comparison = parser.add_argument_group("comparison options (each partition's changeset run)")
    report = parser.add_argument_group("report options (changeset report)")
    for group, options in ((comparison, COMPARISON_OPTIONS), (report, REPORT_OPTIONS)):
        for flag, takes_value, repeatable in options:
            names = [flag, "-q"] if flag == "--quiet" else [flag]
            if not takes_value:
                group.add_argument(*names, action="store_true", help="as changeset's " + flag)
            elif repeatable:
                group.add_argument(*names, action="append", default=[], metavar="VALUE", help="as changeset's " + flag)
            else:
                group.add_argument(*names, metavar="VALUE", help="as changeset's " + flag)
    for flag in REFUSED_OPTIONS:
        parser.add_argument(flag, dest="refused_" + flag[2:].replace("-", "_"), nargs="?", const=True, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    for flag, why in REFUSED_OPTIONS.items():
        if getattr(arguments, "refused_" + flag[2:].replace("-", "_")) is not None:
            parser.error(f"{flag}: {why}")
    if arguments.format in ("patch", "jsonpatch", "batch"):
        parser.error(f"--format {arguments.format}: the job renders a report from change streams, and a patch needs "
                     "the snapshots themselves; compare them on one machine for a patch")
    if arguments.partitions is not None and arguments.partitions < 1:
        parser.error("--partitions must be 1 or more")
    if len(arguments.label) not in (0, 2):
        parser.error("-L names both snapshots: give it twice, OLD's name first")
    return arguments


def passed_options(arguments, options):
    """The options of `options` that were given, as command-line words."""
    words = []
    for flag, takes_value, repeatable in options:
        value = getattr(arguments, flag[2:].replace("-", "_"))
        if not takes_value:
            if value:
                words.append(flag)
        elif repeatable:
            for item in value:
                words += [flag, item]
        elif value is not None:
            words += [flag, value]
    return words


def format_of(path):
    """The format a path's name says (compression suffixes aside), parquet for a folder; None when it says none."""
    name = path.lower()
    for suffix in (".gz", ".zst", ".bz2"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    extension = os.path.splitext(name)[1]
    formats = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".ndjson": "ndjson", ".jsonl": "ndjson",
               ".json": "json", ".parquet": "parquet"}
    if extension in formats:
        return formats[extension]
    return "parquet" if os.path.isdir(path) else None


def input_format(arguments):
    """Both snapshots' format: --input-format, else OLD's name; NEW's name must not say another (Spark
    reads both alike, so a CSV beside an NDJSON file would be read wrong)."""
    if arguments.input_format:
        return arguments.input_format
    old, new = format_of(arguments.old), format_of(arguments.new)
    if old is None:
        raise JobError(f"{arguments.old}: cannot tell its format from its name; give --input-format")
    if new is not None and new != old:
        raise JobError(f"{arguments.old} is {old} and {arguments.new} is {new}: the job reads both snapshots alike; "
                       "give both in one format (or --input-format when the names mislead)")
    return old


# --- Keys ------------------------------------------------------------------


def split_unescaped(text, separator):
    """`text` cut at each `separator` no backslash escapes; the escapes stay for the next cut."""
    parts, part, escaped = [], [], False
    for character in text:
        if escaped:
            part.append(character)
            escaped = False
        elif character == "\\":
            part.append(character)
            escaped = True
        elif character == separator:
            parts.append("".join(part))
            part = []
        else:
            part.append(character)
    parts.append("".join(part))
    return parts


def unescape(name):
    return re.sub(r"\\(.)", r"\1", name)


def field_path(field):
    """One field of --id as a path of names, as changeset reads it: `meta.key` is ["meta", "key"];
    `\\.`, `\\,` and `\\\\` are a name's own characters."""
    return [unescape(name) for name in split_unescaped(field, ".")]


def key_text(value):
    """A text that two ids changeset takes for one id always share.

    changeset compares ids by text: a string by its bytes, a JSON number by
    its value (`7`, `7.0` and the CSV cell or string `7` are one id). Here
    any text that spells a number is reduced to its value, which is coarser
    (the strings `007` and `7` share a text too) but never finer, so twins
    always land in the same partition; records that only share a partition
    are still told apart by changeset."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = value if isinstance(value, str) else str(value)
    if text.isascii() and text.isdigit() and len(text) <= 20:
        return str(int(text))
    if text[:1].isdigit() or text[:1] in "-+.":
        try:
            number = Decimal(text)
        except InvalidOperation:
            return text
        if not number.is_finite():
            return text
        if number == 0:
            return "0"
        # An integer of up to 21 digits as its digits, the same text as the fast path above; others by their value.
        if number == number.to_integral_value() and number.adjusted() <= 20:
            return str(int(number))
        return format(number.normalize(), "E")
    return text


def partition_of(key, partitions):
    """The partition of a key text: a hash every Python process agrees on (not `hash`, which is salted per process)."""
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % partitions


def json_key(text, paths):
    record = json.loads(text, parse_float=str, parse_int=str)
    parts = []
    for path in paths:
        value = record
        for name in path:
            value = value.get(name) if isinstance(value, dict) else None
        parts.append(key_text(value))
    return "\x00".join(parts)


# --- CSV lines -------------------------------------------------------------


def open_quote(line, delimiter):
    """Whether `line` ends inside a quoted field (a quoted line break), read as changeset reads CSV."""
    if '"' not in line:
        return False
    quoted, at_field_start, index, length = False, True, 0, len(line)
    while index < length:
        character = line[index]
        if quoted:
            if character == '"':
                if index + 1 < length and line[index + 1] == '"':
                    index += 1
                else:
                    quoted = False
        elif character == delimiter:
            at_field_start = True
            index += 1
            continue
        elif character == '"' and at_field_start:
            quoted = True
        at_field_start = False
        index += 1
    return quoted


def csv_cells(line, delimiter):
    """A CSV line's cells (a line without quotes is cut at its delimiters, much faster than the csv module)."""
    if '"' not in line:
        return line.split(delimiter)
    return next(csv.reader([line], delimiter=delimiter, strict=False), [])


# --- Reading the snapshots ---------------------------------------------------


class Snapshot:
    """One side as Spark reads it: an RDD of (index, line or 0, record text), and what the parts need."""

    def __init__(self, records, header, has_lines, part_format):
        self.records = records
        self.header = header
        self.has_lines = has_lines
        self.part_format = part_format


def read_lines(spark, path, label, format_name, delimiter):
    """CSV or NDJSON as text lines, each record's bytes as the file has them.

    Lines are numbered before blank ones are dropped (numbered per Spark
    partition, then offset by the lines of the partitions before, as
    zipWithIndex does), so a record keeps its 1-based line in the whole
    file; a CSV file's first non-blank line is its header."""
    # sc.textFile, not spark.read.text: its partitions are the file's splits in order (so numbering them in
    # partition order numbers the file's lines) and its lines reach Python as strings, not rows.
    lines = spark.sparkContext.textFile(path)
    is_csv = format_name != "ndjson"

    def blank(line):
        return line == "" if is_csv else line.strip(" \t\r\n") == ""

    def count(_, rows):
        total, kept, first = 0, 0, None
        for line in rows:
            total += 1
            if not blank(line):
                kept += 1
                if first is None:
                    first = line
        yield total, kept, first

    counts = lines.mapPartitionsWithIndex(count).collect()
    header = None
    line_offsets, record_offsets = [], []
    line_total, record_total = 0, 0
    for total, kept, first in counts:
        line_offsets.append(line_total)
        record_offsets.append(record_total)
        line_total += total
        record_total += kept
        if header is None and first is not None:
            header = first
    if is_csv and header is not None and open_quote(header, delimiter):
        raise JobError(f"{label}: the header's quoted field holds a line break, which a job reading a line at a time cannot split")
    drop_header = 1 if is_csv and header is not None else 0

    def number(split, rows):
        line_number, record_index = line_offsets[split], record_offsets[split] - drop_header - 1
        for line in rows:
            line_number += 1
            # Hadoop decodes each line in Java and puts U+FFFD where bytes are not UTF-8, silently: such a
            # record would be compared as text the file does not hold, so the line is refused.
            if "\ufffd" in line:
                raise ValueError(
                    f"changeset_spark: {label}:{line_number}: holds U+FFFD, which Spark puts where bytes are not UTF-8 "
                    "(a U+FFFD of the file's own cannot be told from one); changeset reads UTF-8 text: compare "
                    "this file on one machine, where changeset names the byte")
            if blank(line):
                continue
            record_index += 1
            if record_index < 0:
                continue
            if is_csv and open_quote(line, delimiter):
                raise ValueError(
                    f"changeset_spark: {label}:{line_number}: a quoted field holds a line break; "
                    "the Spark job reads CSV a line at a time and cannot split such a record")
            yield record_index, line_number, line

    return Snapshot(lines.mapPartitionsWithIndex(number), header if is_csv else None, True, format_name)


def read_with_spark(spark, path, format_name):
    """Parquet, a table or a JSON array as Spark reads it: each row as `to_json`, positioned by its index in Spark's order."""
    if format_name == "table":
        frame = spark.table(path)
    elif format_name == "parquet":
        frame = spark.read.parquet(path)
    else:
        frame = spark.read.option("multiLine", True).json(path)
    # A null stays a member holding null, as it would in a JSON export of the table.
    spark.conf.set("spark.sql.jsonGenerator.ignoreNullFields", "false")
    with warnings.catch_warnings():
        # pyspark 4 warns that toJSON will return a DataFrame one day; the job asks for the RDD it returns now.
        warnings.simplefilter("ignore", UserWarning)
        rows_as_json = frame.toJSON()
    records = rows_as_json.zipWithIndex().map(lambda pair: (pair[1], 0, pair[0]))
    return Snapshot(records, None, False, "ndjson")


# --- One partition pair --------------------------------------------------------

CHANGE_KIND = re.compile(r'\{"kind":"([a-z-]+)"')
# The sides whose position a change line carries, by its kind.
POSITIONED_SIDES = {"inserted": ("new",), "deleted": ("old",), "updated": ("old", "new"), "moved": ("old", "new")}


def rewrite_positions(line, whole_position):
    """A change line with its `"old":{...}` and `"new":{...}` positions replaced by `whole_position(side, part_index)`.

    The stream contract writes a position exactly `"old":{"index":N,"line":M}`
    (`line` absent where the input has none), before the record's own text,
    and that text cannot hold `"old":{"index":` in a string (its quotes are
    escaped): so the first such text of each side the kind carries is the
    position, even when the record has a member named old or new."""
    match = CHANGE_KIND.match(line)
    if not match or match.group(1) not in POSITIONED_SIDES:
        return line
    for side in POSITIONED_SIDES[match.group(1)]:
        opening = f'"{side}":{{"index":'
        start = line.find(opening)
        if start < 0:
            continue
        end = line.index("}", start)
        index_text = line[start + len(opening):end].split(",", 1)[0]
        line = line[:start] + f'"{side}":' + whole_position(side, int(index_text)) + line[end + 1:]
    return line


def changeset_binary(named):
    """The binary on this machine: --changeset's path, a file shipped with --files, or changeset on PATH."""
    if named and os.path.isfile(named) and os.access(named, os.X_OK):
        return named
    try:
        from pyspark import SparkFiles

        shipped = SparkFiles.get(os.path.basename(named or "changeset"))
        if os.path.isfile(shipped):
            if not os.access(shipped, os.X_OK):
                os.chmod(shipped, 0o755)
            return shipped
    except Exception:
        pass
    found = shutil.which(named or "changeset")
    if found:
        return found
    raise FileNotFoundError(
        f"changeset_spark: no changeset binary on {os.uname().nodename}: put it on the executors' PATH, "
        "ship it with spark-submit --files, or name it with --changeset")


def compare_partition(split, records, settings):
    """Writes the partition's two parts, runs changeset on them and yields its stream, positions made whole-snapshot ones.

    `records` come sorted by (side, whole-snapshot index): OLD's in its
    order, then NEW's. A partition with no record on either side yields
    nothing (an empty stream would repeat every other empty one)."""
    binary = changeset_binary(settings["changeset"])
    directory = tempfile.mkdtemp(prefix=f"changeset-part-{split:05d}-")
    try:
        sides = []
        paths = [os.path.join(directory, "old." + settings["part_format"][0]),
                 os.path.join(directory, "new." + settings["part_format"][1])]
        files = [open(path, "w", encoding="utf-8", errors="surrogatepass", newline="") for path in paths]
        for side in (0, 1):
            if settings["headers"][side] is not None:
                files[side].write(settings["headers"][side] + "\n")
            sides.append((array("q"), array("q")))
        count = 0
        for (side, index, _), (line, text) in records:
            files[side].write(text)
            files[side].write("\n")
            sides[side][0].append(index)
            sides[side][1].append(line)
            count += 1
        for file in files:
            file.close()
        if count == 0 and not settings["only_partition"]:
            return
        yield from run_changeset(binary, paths, sides, split, settings)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def run_changeset(binary, paths, sides, split, settings):
    command = [binary, paths[0], paths[1], "--id", settings["id"], "--ignore-order", "--format", "ndjson",
               "--no-rules", "-L", settings["labels"][0], "-L", settings["labels"][1]]
    command += settings["comparison"]
    has_lines = settings["has_lines"]

    def whole_position(side_name, part_index):
        side = 0 if side_name == "old" else 1
        indexes, lines = sides[side]
        if has_lines[side]:
            return f'{{"index":{indexes[part_index]},"line":{lines[part_index]}}}'
        return f'{{"index":{indexes[part_index]}}}'

    # Standard error goes to a file, so a long message cannot block the run while the stream is read.
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errors_file:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors_file, encoding="utf-8",
                              errors="surrogatepass") as process:
            for line in process.stdout:
                yield split, rewrite_positions(line.rstrip("\n"), whole_position)
        errors_file.seek(0)
        errors = errors_file.read()
    if process.returncode not in (0, 1):
        raise RuntimeError(f"changeset_spark: partition {split}: changeset exited {process.returncode}: "
                           + whole_snapshot_errors(errors, sides, settings))


def whole_snapshot_errors(errors, sides, settings):
    """changeset's messages with a part's `LABEL:LINE` made the whole snapshot's line, where the part has lines."""
    for side in (0, 1):
        label = settings["labels"][side]
        first_record_line = 2 if settings["headers"][side] is not None else 1
        indexes, lines = sides[side]

        def whole(match):
            record = int(match.group(1)) - first_record_line
            if 0 <= record < len(lines) and settings["has_lines"][side]:
                return f"{label}:{lines[record]}:"
            return f"{label} (a partition's line {match.group(1)}):"

        errors = re.sub(re.escape(label) + r":(\d+):", whole, errors)
    return errors.strip()


# --- The driver ------------------------------------------------------------------


def spark_session():
    """The session spark-submit configured, or a local one (`local[*]`) under plain python3."""
    from pyspark import SparkConf, SparkContext
    from pyspark.sql import SparkSession

    SparkContext._ensure_initialized()
    # Progress bars would garble standard error, which carries changeset's messages.
    builder = SparkSession.builder.appName("changeset").config("spark.ui.showConsoleProgress", "false")
    conf = SparkConf()
    if not conf.contains("spark.master"):
        # Local mode under plain python3: the workers run this Python.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.master("local[*]")
    if conf.get("spark.master", "local[*]").startswith("local"):
        # No web UI for a one-off local run (pyspark's launcher may have set the master already).
        builder = builder.config("spark.ui.enabled", "false")
    return builder.getOrCreate()


def read_side(spark, path, label, format_name, delimiter):
    if format_name != "table":
        check_exists(spark, path, label)
    if format_name in LINE_FORMATS:
        return read_lines(spark, path, label, format_name, delimiter)
    return read_with_spark(spark, path, format_name)


def check_exists(spark, path, label):
    """Refuses a path that names nothing, as the cluster's file system sees it (HDFS, S3, a local
    file; a glob matching nothing too): Spark would fail later, with a Java stack."""
    jvm = spark.sparkContext._jvm
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    file_system = hadoop_path.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    found = file_system.globStatus(hadoop_path)
    if found is None or len(found) == 0:
        raise JobError(f"{label}: no such file ({hadoop_path.toString()} as the cluster's file system sees it)")


def split_unescaped_once(text, separator):
    """`text` cut at its first `separator` no backslash escapes: (before, separator, after)."""
    parts = split_unescaped(text, separator)
    return parts[0], separator if len(parts) > 1 else "", separator.join(parts[1:])


def keyed_records(snapshot, side, paths, label, delimiter, partitions):
    """The snapshot's records placed for the shuffle: ((side, index, partition), (line, text))."""
    if snapshot.header is not None:
        names = [name.strip() for name in csv_cells(snapshot.header.lstrip("\ufeff"), delimiter)]
        columns = []
        for path in paths:
            name = ".".join(path)
            if name not in names:
                raise JobError(f"{label}: no column {name!r} for --id; its header has {', '.join(names)}")
            columns.append(names.index(name))

        def key(text):
            cells = csv_cells(text, delimiter)
            return "\x00".join(key_text(cells[column]) if column < len(cells) else "" for column in columns)
    else:
        def key(text):
            return json_key(text, paths)

    def place(record):
        index, line, text = record
        try:
            record_key = key(text)
        except ValueError:
            # Not JSON: the partition's changeset run names the error, at the whole file's line.
            record_key = ""
        return (side, index, partition_of(record_key, partitions)), (line, text)

    return snapshot.records.map(place)


def gather_streams(spark, arguments, directory):
    """Compares every partition pair on the executors; writes each partition's stream to `directory`; returns their paths."""
    format_name = input_format(arguments)
    delimiter = arguments.delimiter or ("\t" if format_name == "tsv" else ",")
    labels = arguments.label or [arguments.old, arguments.new]
    old = read_side(spark, arguments.old, labels[0], format_name, delimiter)
    new = read_side(spark, arguments.new, labels[1], format_name, delimiter)
    partitions = arguments.partitions or spark.sparkContext.defaultParallelism
    # `--rename OLD=NEW` of a key field: NEW's records hold it under its new name.
    renamed = {}
    for rename in arguments.rename:
        old_name, _, new_name = split_unescaped_once(rename, "=")
        renamed[old_name.replace("\\=", "=")] = new_name.replace("\\=", "=")
    fields = [field.strip() for field in split_unescaped(arguments.id, ",")]
    old_paths = [field_path(field) for field in fields]
    new_paths = [field_path(renamed.get(field, field)) for field in fields]
    old_records = keyed_records(old, 0, old_paths, labels[0], delimiter, partitions)
    new_records = keyed_records(new, 1, new_paths, labels[1], delimiter, partitions)

    settings = {
        "changeset": arguments.changeset,
        "id": arguments.id,
        "labels": labels,
        "comparison": passed_options(arguments, COMPARISON_OPTIONS),
        "headers": [old.header, new.header],
        "has_lines": [old.has_lines, new.has_lines],
        "part_format": [part_extension(old, format_name), part_extension(new, format_name)],
        "only_partition": False,
    }
    shuffled = old_records.union(new_records).repartitionAndSortWithinPartitions(
        partitions, partitionFunc=lambda place: place[2], keyfunc=lambda place: (place[0], place[1]))
    streams = shuffled.mapPartitionsWithIndex(lambda split, records: compare_partition(split, records, settings))
    paths = write_streams(streams, directory)
    if not paths:
        # Neither snapshot holds a record: one run on two empty parts says so, header and all.
        settings["only_partition"] = True
        empty = spark.sparkContext.parallelize([], 1)
        paths = write_streams(empty.mapPartitionsWithIndex(lambda split, records: compare_partition(split, records, settings)),
                              directory)
    return paths


def write_streams(streams, directory):
    """Writes each partition's lines of `streams` ((partition, line) pairs) to its file; returns the files in partition order.

    The partitions are compared all at once (count) and kept on the
    executors, then fetched one partition at a time, so the driver never
    holds more than one partition's stream."""
    from pyspark import StorageLevel

    streams.persist(StorageLevel.MEMORY_AND_DISK)
    files = {}
    try:
        streams.count()
        for split, line in streams.toLocalIterator():
            if split not in files:
                files[split] = open(os.path.join(directory, f"part-{split:05d}.ndjson"), "w", encoding="utf-8",
                                    errors="surrogatepass")
            files[split].write(line + "\n")
    finally:
        for file in files.values():
            file.close()
        streams.unpersist()
    return [files[split].name for split in sorted(files)]


def part_extension(snapshot, format_name):
    if snapshot.part_format == "ndjson":
        return "ndjson"
    return "tsv" if format_name == "tsv" else "csv"


def partition_error(error):
    """The changeset_spark message inside a failed Spark job's error, when it holds one."""
    text = str(error)
    found = re.findall(r"(?:RuntimeError|ValueError|FileNotFoundError): (changeset_spark: .*?)(?:\n\s*\n|\n\tat |\Z)", text, re.S)
    return found[0].strip() if found else None


def one_line(error):
    """An unexpected error in one line: a Java exception's own message (not Py4J's wrapping and the
    stack), else Python's; CHANGESET_SPARK_TRACE=1 shows the whole trace."""
    text = str(error)
    java = re.search(r"^: (?:[\w.$]+\.)?(\w+(?:Exception|Error)): (.*)$", text, re.M)
    if java:
        return f"{java.group(2).strip()} ({java.group(1)}; CHANGESET_SPARK_TRACE=1 shows the trace)"
    first = text.strip().splitlines()[0] if text.strip() else ""
    return f"{type(error).__name__}: {first} (CHANGESET_SPARK_TRACE=1 shows the trace)"


def main(argv):
    arguments = parse_arguments(argv)
    spark = spark_session()
    # The job says what went wrong itself (a partition's changeset message, or the exception): Spark's own
    # log of a failed task would repeat it as a Java stack.
    spark.sparkContext.setLogLevel("FATAL")
    keep = arguments.streams
    directory = keep or tempfile.mkdtemp(prefix="changeset-streams-")
    try:
        if keep:
            os.makedirs(keep, exist_ok=True)
        try:
            streams = gather_streams(spark, arguments, directory)
        except JobError as error:
            print(f"changeset_spark: {error}", file=sys.stderr)
            return 2
        except Exception as error:
            # Exit 2, trouble, never Python's 1 for an uncaught exception: 1 says the snapshots differ.
            message = partition_error(error) or f"changeset_spark: {one_line(error)}"
            print(message, file=sys.stderr)
            if os.environ.get("CHANGESET_SPARK_TRACE"):
                raise
            return 2
        try:
            binary = changeset_binary(arguments.changeset)
        except FileNotFoundError as error:
            print(str(error).replace(" the executors' PATH", " PATH"), file=sys.stderr)
            return 2
        command = [binary, "report"] + passed_options(arguments, REPORT_OPTIONS)
        if arguments.output:
            command += ["-o", arguments.output]
        return subprocess.run(command + streams).returncode
    finally:
        if not keep:
            shutil.rmtree(directory, ignore_errors=True)
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
