#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing): full refresh of N demo rows on the embedded default
# (H2 in MSSQLServer mode -> embedded ClickHouse, route typed_binary_streaming) next to a plain source drain
# (JdbcSourceReader + RowCursor, same fetch size, rows discarded). See bench/README.md.
#
#   bench/full-refresh.sh [ROWS]          ROWS defaults to 1000000
#
# Environment knobs:
#   BENCH_RUNS=N         runs of each phase (default 2, minimum 2); the best run of each phase is reported
#   BENCH_RESEED=1       reseed even if bench/.work already holds ROWS seeded rows
#   BENCH_SKIP_BUILD=1   never build; use target/ as it is
#   BENCH_REV=<rev>      benchmark a commit (e.g. HEAD) instead of the working tree: export it (git archive) to
#                        bench/.work/rev-<commit>/ and build there, so concurrent edits of src/ cannot leak in
#   DPONE_JAVA_OPTS      JVM options for both phases (default as bin/dpone: -Xmx2g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC)
#   BENCH_PARALLEL_READERS=N  full refresh with source.options.parallel_readers: N (and parallel_min_rows: 0, so
#                        the split applies at any size) on a copy of the manifest in bench/.work/; the drain
#                        stays one reader (it is the reference). Each run prints the report's notes.
#   BENCH_H2_URL_SUFFIX  diagnostic: appended to the embedded H2 source URL, e.g. ";LAZY_QUERY_EXECUTION=1"; both
#                        phases then run with a generated DPONE_RUNTIME_CONNECTION_CONTEXT equal to the embedded
#                        default apart from that suffix (src/ stays untouched)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

rows="${1:-1000000}"
runs="${BENCH_RUNS:-2}"
[[ "$rows" =~ ^[0-9]+$ ]] || { echo "usage: bench/full-refresh.sh [ROWS]" >&2; exit 2; }
[[ "$runs" =~ ^[0-9]+$ ]] && (( runs >= 2 )) || { echo "BENCH_RUNS must be an integer >= 2" >&2; exit 2; }
manifest="examples/batch/embedded-full-refresh.batch.yaml"
java_opts="${DPONE_JAVA_OPTS:--Xmx2g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC}"
export DPONE_JAVA_OPTS="$java_opts"

for tool in jq awk java; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required for peak RSS" >&2; exit 2; }

# ---- (a) build if needed -------------------------------------------------------------------------------------
source "$root/bench/build.sh"
manifest="$app/$manifest"
readers="${BENCH_PARALLEL_READERS:-1}"
[[ "$readers" =~ ^[0-9]+$ ]] && (( readers >= 1 )) || { echo "BENCH_PARALLEL_READERS must be an integer >= 1" >&2; exit 2; }
if (( readers > 1 )); then
  mkdir -p "$work"
  awk -v n="$readers" '{ print } /^[[:space:]]*chunk_rows:/ { match($0, /^[[:space:]]*/);
    ind = substr($0, 1, RLENGTH); print ind "parallel_readers: " n; print ind "parallel_min_rows: 0" }' \
    "$manifest" >"$work/parallel-$readers.batch.yaml"
  manifest="$work/parallel-$readers.batch.yaml"
fi

# ---- (b) private DPONE_HOME ----------------------------------------------------------------------------------
export DPONE_HOME="$work/home"
unset DPONE_RUNTIME_CONNECTION_CONTEXT   # the embedded default: mssql_demo (H2) and clickhouse_default (chDB)
mkdir -p "$DPONE_HOME" "$work/runs"
source_note="embedded default (no DPONE_RUNTIME_CONNECTION_CONTEXT)"
if [ -n "${BENCH_H2_URL_SUFFIX:-}" ]; then
  # the embedded default spelled out (EmbeddedDefaults.context / h2Url), plus the suffix on the H2 URL
  cat >"$work/context.yaml" <<EOF
connections:
  mssql_demo:
    type: mssql
    url: "jdbc:h2:file:$DPONE_HOME/source/demo;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE$BENCH_H2_URL_SUFFIX"
    user: sa
  clickhouse_default:
    type: clickhouse
    embedded: true
    options:
      path: "$DPONE_HOME/clickhouse"
  s3_stage:
    type: s3
    embedded: true
    options:
      path: "$DPONE_HOME/s3"
EOF
  export DPONE_RUNTIME_CONNECTION_CONTEXT="$work/context.yaml"
  source_note="DIAGNOSTIC: embedded default with H2 URL suffix '$BENCH_H2_URL_SUFFIX' ($work/context.yaml)"
fi

fetch_size="$(awk '/^[[:space:]]*fetch_size:/ {print $2; exit}' "$manifest")"
chunk_rows="$(awk '/^[[:space:]]*chunk_rows:/ {print $2; exit}' "$manifest")"
route="$(awk '/^[[:space:]]*route:/ {print $2; exit}' "$manifest")"

now_ns() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b - a) / 1e9 }'; }
rate() { awk -v r="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", r / s; else print "n/a" }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

echo "== dpone full-refresh benchmark =="
echo "date        $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "code        $tree; jar built $(date -u -r "$jar" +%Y-%m-%dT%H:%M:%SZ)"
echo "machine     $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), load avg $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java        $(java -version 2>&1 | head -1), opts: $java_opts"
echo "rows        $rows; manifest ${manifest#"$app/"} (route $route, fetch_size $fetch_size, chunk_rows $chunk_rows," \
  "parallel_readers $readers)"
echo "DPONE_HOME  $DPONE_HOME"
echo "source      $source_note"
cpu_busy() { # percent of all CPUs busy over the next 2 seconds (everything on the machine)
  local a b
  a=($(head -1 /proc/stat)); sleep 2; b=($(head -1 /proc/stat))
  awk -v u="$(( (b[1]+b[2]+b[3]+b[6]+b[7]+b[8]) - (a[1]+a[2]+a[3]+a[6]+a[7]+a[8]) ))" \
      -v i="$(( (b[4]+b[5]) - (a[4]+a[5]) ))" 'BEGIN { printf "%.0f", 100 * u / (u + i) }'
}
busy="$(cpu_busy)"
echo "cpu busy    ${busy}% over 2 s before starting (other processes)"
if (( busy > 20 )); then
  echo "WARNING     other work is running; figures taken now will be noisy and low"
fi
echo

# ---- (c) seed ------------------------------------------------------------------------------------------------
marker="$DPONE_HOME/seeded-rows"
if [ "${BENCH_RESEED:-0}" = 1 ] || [ "$(cat "$marker" 2>/dev/null || true)" != "$rows" ]; then
  rm -f "$marker"
  echo "seeding $rows rows (bin/dpone demo seed --rows $rows) ..."
  t0=$(now_ns)
  "$dpone" demo seed --rows "$rows" >/dev/null
  t1=$(now_ns)
  echo "$rows" > "$marker"
  echo "seed        $(secs "$t0" "$t1") s ($(rate "$rows" "$(secs "$t0" "$t1")") rows/s; not part of the comparison)"
else
  echo "seed        reusing $rows rows already seeded in $DPONE_HOME (BENCH_RESEED=1 to redo)"
fi
echo

# ---- (d) source drain, (e) full refresh: interleaved, $runs times each -------------------------------------
declare -a d_rows d_read d_query d_iter d_total d_rss d_wall
declare -a f_rows f_dur f_wall f_rss f_json
cp_jar="$jar:$app/target/lib/*"
for ((i = 1; i <= runs; i++)); do
  # (d) drain
  t0=$(now_ns)
  # shellcheck disable=SC2086
  line="$(java $java_opts -cp "$cp_jar" bench/SourceDrainBench.java --fetch-size "$fetch_size" | grep '^drain ')"
  t1=$(now_ns)
  kv() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$line"; }
  d_rows[i]="$(kv rows)"; d_read[i]="$(kv read_seconds)"; d_total[i]="$(kv total_seconds)"
  d_rss[i]="$(kv peak_rss_mib)"; d_wall[i]="$(secs "$t0" "$t1")"
  d_query[i]="$(kv query_seconds)"; d_iter[i]="$(kv iterate_seconds)"
  echo "run $i drain         rows=${d_rows[i]} read=${d_read[i]} s (executeQuery ${d_query[i]} + iterate ${d_iter[i]};" \
    "connect+describe+read ${d_total[i]} s," \
    "whole JVM incl. source compile ${d_wall[i]} s) rows/s=$(rate "${d_rows[i]}" "${d_read[i]}") peak_rss=${d_rss[i]} MiB" \
    "load1=$(cut -d' ' -f1 /proc/loadavg)"

  # (e) full refresh
  run_id="bench-$(date +%Y%m%d-%H%M%S)-$i"
  out="$work/runs/$run_id"
  t0=$(now_ns)
  set +e
  /usr/bin/time -v -o "$out.time" "$dpone" run "$manifest" --run-id "$run_id" --format json >"$out.json" 2>"$out.err"
  rc=$?
  set -e
  t1=$(now_ns)
  if [ "$rc" -ne 0 ] || [ "$(jq -r .passed "$out.json" 2>/dev/null)" != true ]; then
    echo "bench: full refresh $run_id failed (exit $rc); stderr:" >&2
    cat "$out.err" >&2
    exit 1
  fi
  f_json[i]="$out.json"
  f_rows[i]="$(jq -r .loaded_rows "$out.json")"
  f_dur[i]="$(jq -r .duration_ms "$out.json")"
  f_wall[i]="$(secs "$t0" "$t1")"
  f_rss[i]="$(mib "$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out.time")")"
  echo "run $i full refresh  rows=${f_rows[i]} duration_ms=${f_dur[i]} whole command ${f_wall[i]} s" \
    "rows/s(report)=$(jq -r .rows_per_second "$out.json") peak_rss=${f_rss[i]} MiB" \
    "steps=$(jq -c .step_millis "$out.json") notes=$(jq -c '.notes // []' "$out.json")" \
    "load1=$(cut -d' ' -f1 /proc/loadavg)"
done
echo

# ---- (f) best of each, table, ratio --------------------------------------------------------------------------
best_index() { # best_index v1 v2 ... -> 1-based index of the smallest value
  awk 'BEGIN { for (i = 1; i < ARGC; i++) if (i == 1 || ARGV[i] + 0 < m) { m = ARGV[i] + 0; b = i }; print b }' "$@"
}
bd=$(best_index "${d_read[@]:1}")
bf=$(best_index "${f_dur[@]:1}")
bw=$(best_index "${f_wall[@]:1}")
f_dur_s="$(awk -v ms="${f_dur[bf]}" 'BEGIN { printf "%.3f", ms / 1000 }')"
drain_rate="$(rate "${d_rows[bd]}" "${d_read[bd]}")"
run_rate="$(rate "${f_rows[bf]}" "$f_dur_s")"
cmd_rate="$(rate "${f_rows[bw]}" "${f_wall[bw]}")"

echo "BEST of $runs runs per phase. Every run is a fresh JVM (JIT starts cold each time); the first run also meets"
echo "a colder page cache (H2 file, jars, the 560 MB libchdb.so); best-of-N damps that and other machine noise:"
printf '%-58s %10s %9s %11s %14s\n' "phase" "rows" "seconds" "rows/s" "peak RSS MiB"
printf '%-58s %10s %9s %11s %14s\n' "source drain (executeQuery + iterate, rows discarded)" \
  "${d_rows[bd]}" "${d_read[bd]}" "$drain_rate" "${d_rss[bd]}"
printf '%-58s %10s %9s %11s %14s\n' "  of which executeQuery (time to the first row)" \
  "" "${d_query[bd]}" "" ""
printf '%-58s %10s %9s %11s %14s\n' "source drain incl. connect + describe" \
  "${d_rows[bd]}" "${d_total[bd]}" "$(rate "${d_rows[bd]}" "${d_total[bd]}")" "${d_rss[bd]}"
printf '%-58s %10s %9s %11s %14s\n' "full refresh, report duration_ms (run start -> report)" \
  "${f_rows[bf]}" "$f_dur_s" "$run_rate" "${f_rss[bf]}"
printf '%-58s %10s %9s %11s %14s\n' "full refresh, whole command (JVM+Camel+engine load+run)" \
  "${f_rows[bw]}" "${f_wall[bw]}" "$cmd_rate" "${f_rss[bw]}"
echo
awk -v a="$run_rate" -v b="$cmd_rate" -v d="$drain_rate" 'BEGIN {
  if (d + 0 == 0) { print "RATIO n/a (the drain read no rows)"; exit }
  printf "RATIO full refresh rows/s / source drain rows/s = %.3f  (duration_ms basis)\n", a / d
  printf "      whole-command basis                       = %.3f\n", b / d }'
echo
echo "step_millis of the best full refresh by duration_ms (run $bf). prepare = engine open + DDL + source connect,"
echo "describe and executeQuery; source_read = producer thread after executeQuery: iterate+encode+hash+spool,"
echo "including time blocked on the 2-chunk queue; clickhouse_load = sum over chunk inserts (overlaps source_read):"
jq -r '.step_millis | to_entries[] | "  \(.key | . + " " * (16 - length)) \(.value) ms"' "${f_json[bf]}"
echo
echo "peak RSS: drain = the drain JVM's VmHWM (includes compiling the single-file source);"
echo "          full refresh = /usr/bin/time -v maximum resident set size of the dpone JVM (with chDB in-process)"
echo "reports and time(1) output: $work/runs/"
echo "load1 = 1-minute load average after each run; it counts this benchmark's own threads too (JIT, GC, chDB)"
