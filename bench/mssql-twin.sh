#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing), issue 28 item 5: the pod-side CPU of a full refresh with the real
# SQL Server driver. The demo table dbo.sales is read by mssql-jdbc (the version dpone ships) from the SQL Server
# twin (dev/mssql-twin: TDS over H2, in its own JVM) and loaded by the binary route (typed_binary_streaming, the
# example manifest examples/batch/embedded-full-refresh.batch.yaml) into the embedded ClickHouse. Every run is a
# fresh `bin/dpone run` under /usr/bin/time -v, its threads sampled by bench/thread-cpu.sh (kernel per-thread
# accounting, every 0.5 s).
#
#   bench/mssql-twin.sh [ROWS ...]     default: 2000000 5000000
#   BENCH_RUNS=N                       runs per size (default 1)
#   BENCH_RESEED=1                     seed again even when the size's twin data is already seeded
#   BENCH_SEED=driver|fast|auto, BENCH_DRIVER_SEED_MAX=N   how to seed (below)
#   BENCH_REV=<rev>, BENCH_SKIP_BUILD=1  as bench/build.sh (the twin itself always runs from this tree)
#   BENCH_MSSQL_WORK=DIR               the work directory (default target/bench-mssql-twin)
#
# What it prints per run and size: rows, wall seconds of the command and of the report (duration_ms), rows/s,
# and CPU seconds per 1M rows of two parts of the dpone JVM (bench/thread-cpu.sh groups, whole process):
#   mssql-jdbc  the `source` group: the dpone-source-fetch* threads. With this source they run the driver only:
#               reading TDS packets from the socket and decoding rows into Java values (on the embedded default
#               the H2 engine ran on these threads too; here it is in the twin's process)
#   dpone own   encoder + route + jit + gc + java: RowBinary encoding, the source-side typed hash, the route
#               thread (loads, gates: it also holds the embedded engine's in-call work, so it is an upper bound),
#               the JIT compiling everyone's code (the driver's too), GC, the other JVM threads
#   engine      the embedded ClickHouse's own pools: printed, in neither figure (on a pod ClickHouse runs elsewhere)
# and the twin's CPU (utime + stime of its process from /proc/PID/stat over the run): reported apart, in neither
# figure. The target of the issue: dpone own <= mssql-jdbc per row.
#
# What a twin run cannot show: the twin is not SQL Server. Its engine is H2 (the plan, the scan, the row layout and
# the TDS encoding are the twin's, and its speed is not a server's); the network is loopback on the same two cores,
# so there is no latency, no bandwidth limit and no TLS (encrypt=false); and the twin, the engine and dpone compete
# for the same CPU, so wall time and rows/s say little about a pod. The driver's CPU per row is what is real: it
# decodes the same TDS tokens from a socket (NBCROW/ROW, the types declared for dbo.sales) as against a server.
#
# Seeding (timed, not measured against anything): through the driver (bin/dpone demo seed --connection, batched
# INSERTs over TDS) up to BENCH_DRIVER_SEED_MAX rows (default 100000). That costs the twin about 0.4 ms of CPU per
# row (20,000 rows: 34 s, 8 s of twin CPU), over half an hour for 5M rows, so larger sizes take the fast path
# (BENCH_SEED=driver|fast|auto): dbo.sales is created through the driver with 0 rows (the twin records its declared
# SQL Server types), the twin is stopped, demo seed fills a scratch embedded H2 file with the same generator and
# seed, and an H2 linked table copies the rows into the twin's file (typed); the twin restarts on it. Both paths gave
# identical tables at 20,000 rows (bench/README.md). Each size has its own twin data directory and is seeded once: a
# later invocation restarts the twin on the seeded files and reuses them (the marker file `seeded` holds the row
# count; BENCH_RESEED=1 redoes it). Everything lives in the work directory: the twin's data, DPONE_HOME, the
# embedded ClickHouse's data, reports. The chDB library is read from the user cache when it is there
# (DPONE_CHDB_LIBRARY), otherwise installed into the work directory. Remove it all: rm -rf target/bench-mssql-twin.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(2000000 5000000)
for n in "${sizes[@]}"; do
  [[ "$n" =~ ^[0-9]+$ ]] && (( n > 0 )) || { echo "usage: bench/mssql-twin.sh [ROWS ...]" >&2; exit 2; }
done
runs="${BENCH_RUNS:-1}"
[[ "$runs" =~ ^[0-9]+$ ]] && (( runs >= 1 )) || { echo "BENCH_RUNS must be an integer >= 1" >&2; exit 2; }
for tool in jq awk java git; do command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }; done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }

source "$root/bench/build.sh"   # sets app, jar, dpone, tree (and builds when needed)
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  ./mvnw -q -B test-compile     # the twin's classes (dev/mssql-twin would do it too, but not inside a measurement)
fi

tw="${BENCH_MSSQL_WORK:-$root/target/bench-mssql-twin}"
mkdir -p "$tw/runs"
export DPONE_HOME="$tw/home"
if [ -z "${DPONE_CHDB_LIBRARY:-}" ]; then
  lib="$(ls -d "${DPONE_CACHE_DIR:-$HOME/.cache/dpone}"/chdb/*/libchdb.so 2>/dev/null | tail -1 || true)"
  if [ -n "$lib" ]; then export DPONE_CHDB_LIBRARY="$lib"; else export DPONE_CACHE_DIR="$tw/cache"; fi
fi
# No class-data archive: a pod does not use one (docs/performance.md), and recording one (bin/dpone's first run after
# a build) crashed JDK 17.0.15 at exit with mssql-jdbc loaded (SIGSEGV in
# SystemDictionaryShared::adjust_lambda_proxy_class_dictionary, exit 134), for demo seed and run alike.
export DPONE_CDS=0
export BENCH_MSSQL_PASSWORD="Bench-$$-$RANDOM!"
user=bench database=dpone_src
seed_mode="${BENCH_SEED:-auto}"              # driver | fast | auto (driver up to BENCH_DRIVER_SEED_MAX rows)
driver_seed_max="${BENCH_DRIVER_SEED_MAX:-100000}"
hz="$(getconf CLK_TCK)"
ncpu="$(nproc)"

twin="" run_pid="" sampler=""
stop_twin() {
  [ -n "$twin" ] || return 0
  kill -TERM "$twin" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$twin" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$twin" 2>/dev/null || true
  wait "$twin" 2>/dev/null || true
  twin=""
}
cleanup() {
  for p in $run_pid $sampler; do
    for c in $(pgrep -P "$p" 2>/dev/null || true); do
      for g in $(pgrep -P "$c" 2>/dev/null || true); do kill -TERM "$g" 2>/dev/null || true; done
      kill -TERM "$c" 2>/dev/null || true
    done
    kill -TERM "$p" 2>/dev/null || true
  done
  stop_twin
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_twin() { # start_twin DIR: the twin on DIR (database dpone_src created when the directory has none); sets twin, port
  local dir="$1" create=()
  mkdir -p "$dir"
  ls "$dir"/"$database".mv.db >/dev/null 2>&1 || create=(--database "$database")
  "$root/dev/mssql-twin" --port 0 --path "$dir" --user "$user" --password-env BENCH_MSSQL_PASSWORD "${create[@]}" \
    >"$dir/twin.out" 2>"$dir/twin.err" &
  twin=$!
  for _ in $(seq 1 240); do
    grep -q '^mssql-twin ready' "$dir/twin.out" 2>/dev/null && break
    kill -0 "$twin" 2>/dev/null || break
    sleep 0.5
  done
  port="$(sed -n 's/^mssql-twin ready 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$dir/twin.out")"
  [ -n "$port" ] || { echo "bench: the twin did not start:" >&2; cat "$dir/twin.err" >&2; exit 1; }
  cat >"$tw/context.yaml" <<YAML
connections:
  mssql_demo:
    type: mssql
    url: "jdbc:sqlserver://127.0.0.1:$port;databaseName=$database;encrypt=false"
    user: $user
    password_env: BENCH_MSSQL_PASSWORD
  clickhouse_default:
    type: clickhouse
    embedded: true
    options: {path: "$tw/clickhouse"}
YAML
  export DPONE_RUNTIME_CONNECTION_CONTEXT="$tw/context.yaml"
}
seed_driver() { # seed_driver ROWS: bin/dpone demo seed through the driver into the running twin
  "$dpone" demo seed --connection mssql_demo --rows "$1" -q >"$tw/seed.out" 2>"$tw/seed.err" || {
    echo "bench: seeding through the driver failed:" >&2; cat "$tw/seed.err" >&2; exit 1; }
}
h2_url() { echo "jdbc:h2:file:$1;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE"; }
seed_fast() { # seed_fast ROWS DATA: the same generator's rows (demo seed on the embedded default, the same seed) into
  # the twin's file, typed (an H2 linked table, no text round trip), with the twin stopped; the scratch file is removed
  local rows="$1" data="$2" gen="$tw/seed-gen" h2jar
  rm -rf "$gen"
  (unset DPONE_RUNTIME_CONNECTION_CONTEXT; DPONE_HOME="$gen" "$dpone" demo seed --rows "$rows" -q \
    >"$tw/seed.out" 2>"$tw/seed.err") || { echo "bench: demo seed on the scratch H2 failed:" >&2; cat "$tw/seed.err" >&2; exit 1; }
  h2jar="$(ls "$app"/target/lib/h2-*.jar | head -1)"
  java -cp "$h2jar" org.h2.tools.Shell -url "$(h2_url "$data/$database")" -user sa -password "" -sql \
    "CREATE LINKED TABLE PUBLIC.bench_seed_src('org.h2.Driver', '$(h2_url "$gen/source/demo")', 'sa', '', 'dbo', 'sales');
     INSERT INTO dbo.sales SELECT * FROM PUBLIC.bench_seed_src; DROP TABLE PUBLIC.bench_seed_src;
     SELECT COUNT(*) FROM dbo.sales" >"$tw/seed-copy.out" 2>&1 || {
    echo "bench: copying the rows into the twin's file failed:" >&2; cat "$tw/seed-copy.out" >&2; exit 1; }
  rm -rf "$gen"
}
twin_ticks() { # utime + stime of the twin's process, in clock ticks
  awk '{ line = $0; c = 0; for (i = length(line); i > 0; i--) if (substr(line, i, 1) == ")") { c = i; break }
         n = split(substr(line, c + 2), f, " "); print f[12] + f[13] }' /proc/"$twin"/stat
}
busy_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
now_ns() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
time_field() { awk -F': ' -v k="$2" 'index($0, k) { print $2; exit }' "$1"; }
kv() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<" $2"; }

manifest="$app/examples/batch/embedded-full-refresh.batch.yaml"
grep -q 'route: typed_binary_streaming' "$manifest" || { echo "bench: $manifest is not the binary route" >&2; exit 2; }
echo "== bench/mssql-twin.sh: pod-side CPU with the real driver (issue 28 item 5) =="
echo "date      $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "code      $tree"
echo "driver    $(basename "$(ls "$app"/target/lib/mssql-jdbc-*.jar | head -1)")"
echo "machine   $ncpu cores, load avg $(cut -d' ' -f1-3 /proc/loadavg) (shared: other work competes for the cores)"
echo "manifest  $manifest (typed_binary_streaming, fetch_size/chunk_rows as in the file, full typed hash)"
echo "work      $tw"
echo

declare -a summary
for rows in "${sizes[@]}"; do
  data="$tw/twin-$rows"
  if [ "${BENCH_RESEED:-0}" = 1 ] || [ "$(cat "$data/seeded" 2>/dev/null || true)" != "$rows" ]; then
    rm -rf "$data"
  fi
  start_twin "$data"
  echo "=== $rows rows (twin pid $twin, port $port, data $data) ==="
  if [ "$(cat "$data/seeded" 2>/dev/null || true)" != "$rows" ]; then
    how="$seed_mode"; [ "$how" = auto ] && { (( rows <= driver_seed_max )) && how=driver || how=fast; }
    t0=$(now_ns); c0="$(twin_ticks)"
    if [ "$how" = driver ]; then
      seed_driver "$rows"
      t1=$(now_ns); c1="$(twin_ticks)"
      echo "seed      $(secs "$t0" "$t1") s through the driver ($(awk -v r="$rows" -v s="$(secs "$t0" "$t1")" \
        'BEGIN { printf "%.0f", r / s }') rows/s incl. JVM start; twin CPU $(awk -v t=$((c1 - c0)) -v hz="$hz" \
        'BEGIN { printf "%.1f", t / hz }') s)"
    else
      seed_driver 0   # the table, created through the driver: the twin records its declared types
      stop_twin
      seed_fast "$rows" "$data"
      t1=$(now_ns)
      start_twin "$data"
      echo "seed      $(secs "$t0" "$t1") s, fast path: dbo.sales created through the driver (0 rows), the rows" \
        "generated by demo seed on a scratch H2 file and copied into the twin's H2 file with the twin stopped"
    fi
    echo "$rows" >"$data/seeded"
    echo "          $(du -sh "$data" | cut -f1) of twin data; kept for later invocations"
  else
    echo "seed      reusing the $rows rows seeded earlier in $data"
  fi
  for ((i = 1; i <= runs; i++)); do
    rm -rf "$tw/clickhouse" "$DPONE_HOME"   # the engine's data (and dropped tables) from the previous run
    mkdir -p "$DPONE_HOME"
    out="$tw/runs/$rows-$i-$(date +%H%M%S)"
    load0="$(cut -d' ' -f1 /proc/loadavg)"
    t0=$(now_ns); c0="$(twin_ticks)"; j0="$(busy_jiffies)"
    set +e
    /usr/bin/time -v -o "$out.time" "$dpone" run "$manifest" --run-id "bench-mssql-twin-$rows-$i-$$" --format json \
      >"$out.json" 2>"$out.err" &
    run_pid=$!
    # the JVM: time's child, bin/dpone, which execs java (DPONE_CDS=0). Not thread-cpu.sh sample-java: it follows
    # the first child of each process, and under load it can step into one of bin/dpone's short-lived subshells
    # (sed, ls), see it gone and stop without a sample
    ( for _ in $(seq 1 600); do
        c="$(pgrep -P "$run_pid" | head -1 || true)"
        if [ -n "$c" ] && [ "$(cat /proc/"$c"/comm 2>/dev/null || true)" = java ]; then
          exec "$root/bench/thread-cpu.sh" sample "$c" "$out.threads"
        fi
        kill -0 "$run_pid" 2>/dev/null || exit 0
        sleep 0.05
      done ) &
    sampler=$!
    wait "$run_pid"; rc=$?
    wait "$sampler" 2>/dev/null
    set -e
    run_pid="" sampler=""
    t1=$(now_ns); c1="$(twin_ticks)"; j1="$(busy_jiffies)"
    load1="$(cut -d' ' -f1 /proc/loadavg)"
    if [ ! -s "$out.threads" ]; then
      echo "run $i: no thread samples (the JVM was not found); not counted"; continue
    fi
    if [ "$rc" != 0 ] || [ "$(jq -r .passed "$out.json" 2>/dev/null)" != true ]; then
      echo "run $i: FAILED (exit $rc); stderr tail:"; tail -5 "$out.err"; continue
    fi
    lrows="$(jq -r '.loaded_rows' "$out.json")"
    dur="$(jq -r '.duration_ms' "$out.json")"
    wall="$(secs "$t0" "$t1")"
    own_total="$(awk -v u="$(time_field "$out.time" 'User time')" -v s="$(time_field "$out.time" 'System time')" \
      'BEGIN { print u + s }')"
    from_ms="$(date -d "$(jq -r '.started_at' "$out.json")" +%s%3N)"
    to_ms="$(date -d "$(jq -r '.finished_at' "$out.json")" +%s%3N)"
    cpu="$("$root/bench/thread-cpu.sh" summarize "$out.threads" "$lrows" "$own_total" "$from_ms" "$to_ms")"
    twin_s="$(awk -v t=$((c1 - c0)) -v hz="$hz" 'BEGIN { printf "%.1f", t / hz }')"
    others="$(awk -v j=$((j1 - j0)) -v own="$own_total" -v tw="$twin_s" -v w="$wall" -v hz="$hz" -v n="$ncpu" \
      'BEGIN { o = j / hz - own - tw; if (o < 0) o = 0; printf "%.0f", 100 * o / (w * n) }')"
    src="$(kv source_per_M_rows "$cpu")" mine="$(kv dpone_own_per_M_rows "$cpu")"
    verdict="$(awk -v a="$mine" -v b="$src" 'BEGIN { print (a <= b ? "met" : "missed") }')"
    [ "$lrows" = "$rows" ] || verdict="$verdict (WRONG ROWS: $lrows)"
    echo "run $i: rows=$lrows wall=${wall}s duration_ms=$dur rows/s=$(awk -v r="$lrows" -v m="$dur" \
      'BEGIN { printf "%.0f", r / (m / 1000) }') (whole command $(awk -v r="$lrows" -v w="$wall" 'BEGIN { printf "%.0f", r / w }'))" \
      "process_cpu_s=$own_total twin_cpu_s=$twin_s others-during=${others}% load1=$load0->$load1"
    echo "       $cpu"
    echo "       steps $(jq -c '.step_millis' "$out.json")"
    echo "       per 1M rows: mssql-jdbc ${src} s, dpone own ${mine} s, twin $(awk -v t="$twin_s" -v r="$lrows" \
      'BEGIN { printf "%.2f", t * 1e6 / r }') s (apart) -> dpone own <= mssql-jdbc: $verdict"
    summary+=("$(printf '| %s | %s | %s | %.1f | %s | %s | %s | %s | %s%% | %s |' "$rows" "$i" "$wall" \
      "$(awk -v m="$dur" 'BEGIN { print m / 1000 }')" \
      "$(awk -v r="$lrows" -v m="$dur" 'BEGIN { printf "%.0f", r / (m / 1000) }')" "$src" "$mine" \
      "$(awk -v t="$twin_s" -v r="$lrows" 'BEGIN { printf "%.1f (%.2f per 1M)", t, t * 1e6 / r }')" "$others" "$verdict")")
  done
  stop_twin
  echo
done

echo "=== summary (CPU seconds per 1M rows; the twin's CPU is its process's, excluded from both) ==="
echo "| rows | run | wall s | duration s | rows/s | mssql-jdbc CPU/1M | dpone own CPU/1M | twin CPU s | others | dpone <= jdbc |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${summary[@]}"
echo "load avg at the end: $(cut -d' ' -f1-3 /proc/loadavg); reports, time -v and thread samples: $tw/runs/"
