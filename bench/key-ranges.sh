#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing): parallel key-range reads of a GUID-keyed and a composite-keyed table
# (issue 32, item 4) on the embedded default stack: an H2 file database in MSSQLServer mode as the source, the
# embedded ClickHouse (chDB) as the sink, route typed_binary_streaming, every gate on. Each table is loaded with 1
# and with 3 readers by `bin/dpone run`; the script prints wall time, the report's duration, CPU (user + sys), and
# for the split runs the ranges' estimated and measured row counts and their spread (largest range / smallest).
#
#   bench/key-ranges.sh [ROWS]            ROWS per table, default 5000000
#
# Environment knobs:
#   BENCH_RUNS=N         runs of each (table, readers) pair (default 1); every run is printed
#   BENCH_RESEED=1       reseed even if bench/.work/key-ranges already holds ROWS rows per table
#   BENCH_SKIP_BUILD=1   never build; use target/ as it is
#   BENCH_REV=<rev>      benchmark a commit instead of the working tree (see bench/build.sh)
#   DPONE_JAVA_OPTS      JVM options for bin/dpone (default as bin/dpone)
#
# The tables: dbo.guid_keys (id uniqueidentifier PRIMARY KEY from RANDOM_UUID(), n int, amount decimal(12,2),
# note nvarchar(40)); dbo.composite_keys (region varchar(8), sale_day date, seq int, qty int, amount decimal(12,2),
# PRIMARY KEY (region, sale_day, seq)) whose leading column is skewed: 'eu' 60%, 'us' 30%, 'ap' 10%, so equal shares
# must be cut inside one region's rows.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rows="${1:-5000000}"
runs="${BENCH_RUNS:-1}"
[[ "$rows" =~ ^[0-9]+$ ]] && (( rows > 0 )) || { echo "usage: bench/key-ranges.sh [ROWS]" >&2; exit 2; }
for tool in jq awk java; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }

source "$root/bench/build.sh"
source "$root/bench/embedded-context.sh"
kr="$work/key-ranges"
embedded_context "$kr" keys bench_keys
mkdir -p "$kr/manifests"

bench_header "dpone key-range readers benchmark"
echo "rows        $rows per table; runs $runs per (table, readers)"
echo

marker="$kr/seeded-rows"
if [ "${BENCH_RESEED:-0}" = 1 ] || [ "$(cat "$marker" 2>/dev/null || true)" != "$rows" ]; then
  rm -rf "$kr/source" "$marker"
  t0=$(now_ns)
  # inserted in slices of 250,000 rows, each its own transaction: one INSERT of millions of random GUIDs grows H2's
  # file by its undo log (9 GB after 22 minutes for 5M rows on the loaded 2-core machine)
  {
    echo "CREATE SCHEMA IF NOT EXISTS dbo;"
    echo "CREATE TABLE dbo.guid_keys (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY, n INT NOT NULL, amount DECIMAL(12,2), note NVARCHAR(40));"
    echo "CREATE TABLE dbo.composite_keys (region VARCHAR(8) NOT NULL, sale_day DATE NOT NULL, seq INT NOT NULL, qty INT, amount DECIMAL(12,2), PRIMARY KEY (region, sale_day, seq));"
    for ((from = 1; from <= rows; from += 250000)); do
      to=$(( from + 249999 < rows ? from + 249999 : rows ))
      echo "INSERT INTO dbo.guid_keys SELECT RANDOM_UUID(), X, MOD(X, 100000) / 100.0, CASE WHEN MOD(X, 7) = 0 THEN NULL ELSE 'note ' || X END FROM SYSTEM_RANGE($from, $to);"
      echo "INSERT INTO dbo.composite_keys SELECT CASE WHEN MOD(X, 10) < 6 THEN 'eu' WHEN MOD(X, 10) < 9 THEN 'us' ELSE 'ap' END, DATEADD('DAY', MOD(X / 10, 365), DATE '2024-01-01'), X, MOD(X, 97), MOD(X, 10000) / 100.0 FROM SYSTEM_RANGE($from, $to);"
    done
    echo "SELECT 'seeded', (SELECT COUNT(*) FROM dbo.guid_keys) + (SELECT COUNT(*) FROM dbo.composite_keys);"
  } >"$kr/seed.sql"
  java -cp "$h2_jar" org.h2.tools.RunScript -url "$h2_url" -user sa -script "$kr/seed.sql" -showResults >"$kr/seed.out" 2>&1 \
    || { echo "bench: seeding failed:" >&2; tail -20 "$kr/seed.out" >&2; exit 1; }
  grep -q "seeded.*$((2 * rows))" "$kr/seed.out" || { echo "bench: seeding failed:" >&2; cat "$kr/seed.out" >&2; exit 1; }
  echo "$rows" >"$marker"
  echo "seed        $(secs "$t0" "$(now_ns)") s for 2 x $rows rows (not part of the comparison)"
else
  echo "seed        reusing $rows rows per table in $kr/source (BENCH_RESEED=1 to redo)"
fi
echo

manifest() { # table readers order_by -> path
  local f="$kr/manifests/$1-$2.batch.yaml"
  cat >"$f" <<EOF
name: bench-key-ranges-$1-$2
source:
  type: mssql
  connection_ref: bench_keys
  table: {schema: dbo, name: $1}
  options: {fetch_size: 10000, chunk_rows: 100000, parallel_readers: $2, parallel_min_rows: 1}
sink:
  type: clickhouse
  connection_ref: clickhouse_default
  table: {schema: keyrange_bench, name: $1}
  staging: {schema: keyrange_bench}
  strategy: {mode: full_refresh, max_source_bytes: 10737418240}
  options: {lineage: false, route: typed_binary_streaming, order_by: $3}
quality:
  typed_hash: full
EOF
  echo "$f"
}

printf '%-16s %7s %4s %10s %11s %10s %9s  %s\n' table readers run wall_s duration_s cpu_s rows "ranges (estimated -> read, spread)"
for table in guid_keys composite_keys; do
  order="[id]"; [ "$table" = composite_keys ] && order="[region, sale_day, seq]"
  for readers in 1 3; do
    m="$(manifest "$table" "$readers" "$order")"
    for ((i = 1; i <= runs; i++)); do
      run_id="kr-$table-$readers-$(date +%Y%m%d-%H%M%S)-$i"
      out="$kr/runs/$run_id"
      t0=$(now_ns)
      set +e
      /usr/bin/time -v -o "$out.time" "$dpone" run "$m" --run-id "$run_id" --format json >"$out.json" 2>"$out.err"
      rc=$?
      set -e
      wall="$(secs "$t0" "$(now_ns)")"
      if [ "$rc" -ne 0 ] || [ "$(jq -r .passed "$out.json" 2>/dev/null)" != true ]; then
        echo "bench: $run_id failed (exit $rc); stderr:" >&2; cat "$out.err" >&2; exit 1
      fi
      cpu="$(cpu_of "$out.time")"
      ranges="$(jq -r '[.notes[]? | select(startswith("source read by") or startswith("key ranges read"))
        | sub("^source read by [0-9]+ readers in key ranges of "; "") | sub("^key ranges read: rows per range "; "read ")]
        | join(" | ")' "$out.json")"
      printf '%-16s %7s %4s %10s %11.1f %10s %9s  %s\n' "$table" "$readers" "$i" "$wall" \
        "$(jq -r '.duration_ms / 1000' "$out.json")" "$cpu" "$(jq -r .loaded_rows "$out.json")" "${ranges:--}"
    done
  done
done
