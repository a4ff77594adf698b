#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing): a 200-table database moved by one fleet process (`dpone run DIR`)
# against one `dpone run MANIFEST` process per table (issue 32, item 4), on the embedded default stack (an H2 file
# database in MSSQLServer mode, the embedded ClickHouse). Scaled to a 2-core machine (see docs/performance.md):
#
#   bench/fleet.sh [TABLES] [BIG_ROWS]    TABLES default 200 (4 of them big), BIG_ROWS default 1000000
#
# The database: TABLES - 4 small tables of 1,000 to 10,500 rows, keys cycling through an int primary key, a
# composite (int, varchar) key, a uniqueidentifier key and no key; and 4 big tables of BIG_ROWS rows (int, GUID,
# composite key, and a heap). `dpone discover` writes the manifests (it recommends key-range readers for the big
# keyed tables); the fleet runs them with its default --parallel.
#
# Environment knobs:
#   BENCH_SAMPLE=K       the process-per-table side runs every K-th small manifest and every big one, and the
#                        small tables' total is extrapolated (x small/sampled); K=1 runs all (default 10)
#   BENCH_RESEED=1       reseed even if bench/.work/fleet holds this database already
#   BENCH_SKIP_BUILD=1, BENCH_REV, DPONE_JAVA_OPTS   as in bench/build.sh and bin/dpone
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tables="${1:-200}"
big_rows="${2:-1000000}"
sample="${BENCH_SAMPLE:-10}"
[[ "$tables" =~ ^[0-9]+$ ]] && (( tables > 4 )) || { echo "usage: bench/fleet.sh [TABLES>4] [BIG_ROWS]" >&2; exit 2; }
for tool in jq awk java; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }

source "$root/bench/build.sh"
source "$root/bench/embedded-context.sh"
fw="$work/fleet"
embedded_context "$fw" fleet bench_fleet

bench_header "dpone fleet benchmark"
echo "database    $tables tables ($((tables - 4)) small, 4 of $big_rows rows); process-per-table sample: 1 in $sample small"
echo

marker="$fw/seeded"
if [ "${BENCH_RESEED:-0}" = 1 ] || [ "$(cat "$marker" 2>/dev/null || true)" != "$tables $big_rows" ]; then
  rm -rf "$fw/source" "$fw/discovered" "$marker" "$DPONE_HOME/clickhouse"
  {
    echo "CREATE SCHEMA IF NOT EXISTS dbo;"
    for ((i = 1; i <= tables - 4; i++)); do
      n=$((1000 + (i * 37 % 20) * 500)); t="$(printf 't%03d' "$i")"
      case $((i % 4)) in
        0) echo "CREATE TABLE dbo.$t (id INT NOT NULL PRIMARY KEY, qty INT, amount DECIMAL(12,2), note NVARCHAR(40));"
           echo "INSERT INTO dbo.$t SELECT X, MOD(X, 97), MOD(X, 10000) / 100.0, 'n' || X FROM SYSTEM_RANGE(1, $n);" ;;
        1) echo "CREATE TABLE dbo.$t (a INT NOT NULL, b VARCHAR(12) NOT NULL, qty INT, PRIMARY KEY (a, b));"
           echo "INSERT INTO dbo.$t SELECT X / 4, 'k' || MOD(X, 4) || '-' || X, MOD(X, 97) FROM SYSTEM_RANGE(1, $n);" ;;
        2) echo "CREATE TABLE dbo.$t (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY, qty INT, at DATETIME2);"
           echo "INSERT INTO dbo.$t SELECT RANDOM_UUID(), MOD(X, 97), TIMESTAMP '2024-01-01 00:00:00' + X * INTERVAL '1' SECOND FROM SYSTEM_RANGE(1, $n);" ;;
        3) echo "CREATE TABLE dbo.$t (qty INT, note NVARCHAR(40));"
           echo "INSERT INTO dbo.$t SELECT MOD(X, 97), 'n' || X FROM SYSTEM_RANGE(1, $n);" ;;
      esac
    done
    echo "CREATE TABLE dbo.big_int (id BIGINT NOT NULL PRIMARY KEY, qty INT, amount DECIMAL(12,2), note NVARCHAR(40));"
    echo "INSERT INTO dbo.big_int SELECT X, MOD(X, 97), MOD(X, 10000) / 100.0, 'n' || X FROM SYSTEM_RANGE(1, $big_rows);"
    echo "CREATE TABLE dbo.big_guid (id UNIQUEIDENTIFIER NOT NULL PRIMARY KEY, qty INT, amount DECIMAL(12,2));"
    echo "INSERT INTO dbo.big_guid SELECT RANDOM_UUID(), MOD(X, 97), MOD(X, 10000) / 100.0 FROM SYSTEM_RANGE(1, $big_rows);"
    echo "CREATE TABLE dbo.big_comp (region VARCHAR(8) NOT NULL, seq INT NOT NULL, qty INT, PRIMARY KEY (region, seq));"
    echo "INSERT INTO dbo.big_comp SELECT CASE WHEN MOD(X, 10) < 6 THEN 'eu' ELSE 'us' END, X, MOD(X, 97) FROM SYSTEM_RANGE(1, $big_rows);"
    echo "CREATE TABLE dbo.big_heap (qty INT, note NVARCHAR(40));"
    echo "INSERT INTO dbo.big_heap SELECT MOD(X, 97), 'n' || X FROM SYSTEM_RANGE(1, $big_rows);"
    echo "SELECT 'seeded', COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'dbo';"
  } >"$fw/seed.sql"
  t0=$(now_ns)
  java -cp "$h2_jar" org.h2.tools.RunScript -url "$h2_url" -user sa -script "$fw/seed.sql" -showResults >"$fw/seed.out" 2>&1 \
    || { echo "bench: seeding failed:" >&2; tail -20 "$fw/seed.out" >&2; exit 1; }
  echo "seed        $(secs "$t0" "$(now_ns)") s (not part of the comparison)"
  t0=$(now_ns)
  /usr/bin/time -v -o "$fw/discover.time" "$dpone" discover --connection bench_fleet --sink clickhouse_default \
    --target-database fleet_bench --output "$fw/discovered" >"$fw/discover.out" 2>"$fw/discover.err" \
    || { echo "bench: discover failed:" >&2; cat "$fw/discover.err" >&2; exit 1; }
  echo "discover    $(secs "$t0" "$(now_ns)") s wall, $(cpu_of "$fw/discover.time") CPU-s, $(ls "$fw/discovered/manifests" | wc -l) manifests"
  echo "$tables $big_rows" >"$marker"
else
  echo "seed        reusing $fw/source and $fw/discovered (BENCH_RESEED=1 to redo)"
fi
echo

# ---- one fleet process ---------------------------------------------------------------------------------------
run_id="fleet-$(date +%Y%m%d-%H%M%S)"
t0=$(now_ns)
set +e
/usr/bin/time -v -o "$fw/runs/$run_id.time" "$dpone" run "$fw/discovered" --run-id "$run_id" --format json \
  >"$fw/runs/$run_id.json" 2>"$fw/runs/$run_id.err"
rc=$?
set -e
fleet_wall="$(secs "$t0" "$(now_ns)")"
fleet_cpu="$(cpu_of "$fw/runs/$run_id.time")"
report="$fw/runs/$run_id.json"; [ -s "$report" ] || report="$fw/runs/$run_id.err"
echo "fleet       exit $rc, wall $fleet_wall s, CPU $fleet_cpu s, parallel $(jq -r .parallel "$report" 2>/dev/null)," \
  "totals $(jq -c .totals "$report" 2>/dev/null), peak RSS $(awk -F': ' '/Maximum resident/ {printf "%.0f MiB", $2/1024}' "$fw/runs/$run_id.time")"
jq -r '.tables[] | select(.status != "passed") | "  not passed: \(.manifest) \(.status) \(.blockers | tostring)"' "$report" 2>/dev/null | head -20

# ---- one process per table (a sample of the small tables, every big one) -------------------------------------
small_wall=0; small_cpu=0; small_n=0; big_wall=0; big_cpu=0; big_n=0; i=0; small_total=0; failed=0
for m in "$fw"/discovered/manifests/*.batch.yaml; do
  name="$(basename "$m")"
  big=0; [[ "$name" == *big_* ]] && big=1
  if (( big == 0 )); then
    small_total=$((small_total + 1)); i=$((i + 1))
    (( (i - 1) % sample == 0 )) || continue
  fi
  rid="solo-$(date +%Y%m%d-%H%M%S)-${name%.batch.yaml}"
  t0=$(now_ns)
  set +e
  /usr/bin/time -v -o "$fw/runs/$rid.time" "$dpone" run "$m" --run-id "$rid" --format json >"$fw/runs/$rid.json" 2>"$fw/runs/$rid.err"
  rc=$?
  set -e
  w="$(secs "$t0" "$(now_ns)")"; c="$(cpu_of "$fw/runs/$rid.time")"
  (( rc == 0 )) || failed=$((failed + 1))
  if (( big == 1 )); then
    big_wall="$(awk -v a="$big_wall" -v b="$w" 'BEGIN {print a + b}')"; big_cpu="$(awk -v a="$big_cpu" -v b="$c" 'BEGIN {print a + b}')"; big_n=$((big_n + 1))
    echo "solo        $name: exit $rc, wall $w s, CPU $c s, loaded $(jq -r '.loaded_rows // "-"' "$fw/runs/$rid.json" 2>/dev/null)"
  else
    small_wall="$(awk -v a="$small_wall" -v b="$w" 'BEGIN {print a + b}')"; small_cpu="$(awk -v a="$small_cpu" -v b="$c" 'BEGIN {print a + b}')"; small_n=$((small_n + 1))
  fi
done
echo "solo        small tables: $small_n of $small_total run, wall $small_wall s, CPU $small_cpu s ($failed runs failed)"
awk -v sw="$small_wall" -v sc="$small_cpu" -v sn="$small_n" -v st="$small_total" -v bw="$big_wall" -v bc="$big_cpu" \
    -v fw="$fleet_wall" -v fc="$fleet_cpu" 'BEGIN {
  ew = bw + sw * st / sn; ec = bc + sc * st / sn
  printf "RESULT      process per table (small extrapolated x%.1f): wall %.0f s, CPU %.0f s\n", st / sn, ew, ec
  printf "            one fleet process:                               wall %.0f s, CPU %.0f s\n", fw, fc
  printf "            ratio (per-table processes / fleet):             wall %.1fx, CPU %.1fx\n", ew / fw, ec / fc }'
