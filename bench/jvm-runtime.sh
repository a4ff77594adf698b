#!/usr/bin/env bash
# A/B of JVM runtimes and JIT/class-data settings for the same jar (issue 19, items 4 and 6; bench/README.md, section
# "Issue 19, item 4/6"). Every measured run is a fresh JVM running io.dpone.cli.DponeCli from target/dpone-*.jar
# and target/lib (what bin/dpone execs), sampled by bench/thread-cpu.sh (CPU seconds by thread group, JIT included)
# under /usr/bin/time -v (user + sys of the whole process). Prints one line per run; asserts nothing.
#
#   bench/jvm-runtime.sh cdc RUNS [EVENTS=100000] [PER_TXN=1000]
#       the CDC first tick: `ops cdc-runtime-run --mode live --backend mssql_cdc --max-events EVENTS` from a copy of a
#       pristine H2 file database seeded once (bench/CdcTickSeed.java) into an empty embedded ClickHouse: every run
#       is the first tick of a fresh process and of a fresh pipeline. Events/s = events / the report's duration.
#   bench/jvm-runtime.sh refresh RUNS ROWS
#       a full refresh of the demo table dbo.sales (seeded once with `bin/dpone demo seed --rows ROWS`) through
#       typed_binary_streaming, with the manifest bench/routes.sh generates (BENCH_MANIFEST, default
#       bench/.work/routes/manifests/typed_binary_streaming.yaml: run bench/routes.sh once first).
#
# Variants (JVM_VARIANTS, one per line, fields separated by '|'):  LABEL|JAVA_HOME|ARCHIVE|EXTRA_OPTS
#   ARCHIVE  none     the JDK's own default CDS archive only
#            cds      a dynamic AppCDS archive (-XX:ArchiveClassesAtExit) recorded by one unmeasured training run of the
#                     same workload, then -XX:SharedArchiveFile (what bin/dpone does today)
#            aot      JDK 25+: an AOT cache recorded by one unmeasured training run (-XX:AOTCacheOutput, JEP 483/514/515:
#                     classes loaded and linked, method profiles), then -XX:AOTCache
#   EXTRA_OPTS are added after the base options ("!OPTS" replaces them) (BASE_OPTS, default: bin/dpone's defaults; the cdc workload adds
#   -XX:TieredStopAtLevel=1 only when the variant says so).
# The JVM's stdin is /dev/null: the embedded engine reads an INSERT's data from fd 0 when stdin holds data.
# Rounds alternate the variants (A B C A B C ...) so a change of load hits all of them alike.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:?usage: bench/jvm-runtime.sh cdc|refresh RUNS ...}"; runs="${2:?RUNS}"
jar="$(ls target/dpone-*.jar | grep -v -e sources -e tests | head -1)"
cp_jar="$jar:$root/target/lib/*"
base_opts="${BASE_OPTS:--Xmx2g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC -XX:MetaspaceSize=128m}"
j17=/usr/lib/jvm/java-17-openjdk-amd64 j25=/usr/lib/jvm/temurin-25-jdk-amd64
variants="${JVM_VARIANTS:-jdk17|$j17|cds|
jdk25|$j25|cds|
jdk25-aot|$j25|aot|}"
work="$root/bench/.work/jvm-runtime-$mode"
mkdir -p "$work/archives" "$work/runs"
quiet25="--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"

# ---- workload ------------------------------------------------------------------------------------------------------
if [ "$mode" = cdc ]; then
  events="${3:-100000}"; per_txn="${4:-1000}"
  pristine="$work/pristine-$events-$per_txn"
  if [ ! -f "$pristine/source.mv.db" ]; then
    [ -s target/cp.txt ] || ./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt \
      -Dmdep.includeScope=test >/dev/null
    rm -rf "$pristine"; mkdir -p "$pristine"
    "$j17/bin/java" -cp "target/classes:target/test-classes:$(cat target/cp.txt)" bench/CdcTickSeed.java \
      "jdbc:h2:file:$pristine/source;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE" \
      "$events" "$per_txn" >&2
  fi
  prepare() { # prepare DIR: a fresh copy of the source, an empty engine and DPONE_HOME
    rm -rf "$1"; mkdir -p "$1"
    cp "$pristine/source.mv.db" "$1/"
    cat >"$1/context.yaml" <<YAML
connections:
  mssql-prod: {type: mssql, url: "jdbc:h2:file:$1/source;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE", user: sa}
  clickhouse-prod: {type: clickhouse, embedded: true, options: {path: "$1/chdb"}}
YAML
  }
  cmd_of() { # command DIR: the arguments after the JVM options
    echo "ops cdc-runtime-run --mode live --source mssql --sink clickhouse --backend mssql_cdc \
      --pipeline-name orders-cdc --source-schema dbo --source-table orders --target-dataset analytics.orders_cdc \
      --unique-key order_id --source-connection-id mssql-prod --sink-connection-id clickhouse-prod \
      --max-events $events --format json"
  }
  envs() { echo "DPONE_RUNTIME_CONNECTION_CONTEXT=$1/context.yaml DPONE_HOME=$1/home"; }
  rows_of() { jq -r '.counts.read // .metrics.counts.read // empty' "$1"; }
else
  rows="${3:?ROWS}"
  manifest="${BENCH_MANIFEST:-$root/bench/.work/routes/manifests/typed_binary_streaming.yaml}"
  [ -f "$manifest" ] || { echo "no $manifest: run BENCH_ROUTES=typed_binary_streaming bench/routes.sh once" >&2; exit 2; }
  home="$work/home-$rows"
  if [ "$(cat "$home/seeded-rows" 2>/dev/null || true)" != "$rows" ]; then
    rm -rf "$home"; mkdir -p "$home"
    DPONE_HOME="$home" DPONE_CDS=0 bin/dpone demo seed --rows "$rows" >/dev/null
    echo "$rows" >"$home/seeded-rows"
  fi
  prepare() { rm -rf "$1"; mkdir -p "$1"; }
  n=0
  cmd_of() { n=$((n + 1)); echo "run $manifest --run-id jvmab-$rows-$(date +%H%M%S)-$n-$RANDOM --format json"; }
  envs() { echo "DPONE_HOME=$home"; }
  rows_of() { jq -r '.loaded_rows // empty' "$1"; }
fi

# ---- one run ---------------------------------------------------------------------------------------------------------
run_one() { # run_one LABEL JAVA_HOME ARCHIVE EXTRA TRAIN(0|1)
  local label="$1" jh="$2" archive="$3" extra="$4" train="$5" dir="$work/runs/$1$( (( $5 )) && echo -train)" opts arch=() out rc
  local feature; feature="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jh/release")"
  opts="$base_opts $extra"
  [ "${extra#!}" != "$extra" ] && opts="${extra#!}"   # "!OPTS": OPTS instead of the base options
  (( feature >= 24 )) && opts="$opts $quiet25"
  local file="$work/archives/$label"
  case "$archive" in
    cds) if (( train )); then arch=(-XX:ArchiveClassesAtExit="$file.jsa"); else arch=(-XX:SharedArchiveFile="$file.jsa"); fi
         arch+=(-Xlog:cds=off -Xlog:cds+dynamic=off) ;;
    aot) if (( train )); then arch=(-XX:AOTCacheOutput="$file.aot"); else arch=(-XX:AOTCache="$file.aot"); fi
         arch+=(-Xlog:cds=off -Xlog:aot=off) ;;
  esac
  (( train )) && rm -f "$file.jsa" "$file.aot"
  prepare "$dir"
  out="$dir/out"
  local t0 t1 load; load="$(cut -d' ' -f1-3 /proc/loadavg)"
  t0=$(date +%s%N)
  rc=0
  # shellcheck disable=SC2046
  env $(envs "$dir") /usr/bin/time -v -o "$out.time" "$jh/bin/java" $opts ${arch[@]+"${arch[@]}"} -cp "$cp_jar" \
    io.dpone.cli.DponeCli $(cmd_of "$dir") >"$out.json" 2>"$out.err" </dev/null &
  local pid=$!
  bench/thread-cpu.sh sample-java "$pid" "$out.threads" & local sampler=$!
  wait "$pid" || rc=$?
  wait "$sampler" || true
  t1=$(date +%s%N)
  if (( train )); then
    echo "train $label: exit $rc, $(( (t1 - t0) / 1000000 )) ms, archive $(du -h "$file".* 2>/dev/null | cut -f1 | head -1)"
    return 0
  fi
  local user sys total n dur steps setup
  user="$(awk -F': ' '/User time/ {print $2}' "$out.time")"; sys="$(awk -F': ' '/System time/ {print $2}' "$out.time")"
  total="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
  n="$(rows_of "$out.json" 2>/dev/null || true)"
  dur="$(jq -r '.duration_ms // .metrics.duration_ms // empty' "$out.json" 2>/dev/null || true)"
  setup="$(jq -r '.metrics.setup_ms // .step_millis.prepare // empty' "$out.json" 2>/dev/null || true)"
  steps="$(jq -c '.step_millis // .metrics.step_millis // .metrics.steps_ms // empty' "$out.json" 2>/dev/null || true)"
  printf '%-12s exit=%s load=%s wall_ms=%s rows=%s duration_ms=%s setup_ms=%s per_s=%s cpu_total_s=%s steps=%s\n' "$label" \
    "$rc" "$load" "$(( (t1 - t0) / 1000000 ))" "${n:-?}" "${dur:-?}" "${setup:-?}" \
    "$(awk -v r="${n:-0}" -v d="${dur:-0}" 'BEGIN { if (d > 0) printf "%.0f", r * 1000 / d; else print "?" }')" \
    "$total" "${steps:-?}"
  echo "             $(bench/thread-cpu.sh summarize "$out.threads" "${n:-1}" "$total" 2>/dev/null)"
  [ "$rc" = 0 ] || tail -3 "$out.err" | sed 's/^/             stderr: /'
  [ -s "$out.err" ] && [ "$rc" = 0 ] && echo "             (stderr not empty: $(head -c 160 "$out.err" | tr '\n' ' '))" || true
}

echo "== jvm-runtime $mode, $(git rev-parse --short HEAD), $(nproc) cores, $(date -u +%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   base opts: $base_opts"
while IFS='|' read -r label jh archive extra; do
  [ -n "$label" ] || continue
  echo "   variant $label: $("$jh/bin/java" -version 2>&1 | head -1), archive $archive, extra: ${extra:-none}"
  [ "$archive" = none ] || run_one "$label" "$jh" "$archive" "$extra" 1
done <<<"$variants"
for ((r = 1; r <= runs; r++)); do
  while IFS='|' read -r label jh archive extra; do
    [ -n "$label" ] || continue
    run_one "$label" "$jh" "$archive" "$extra" 0
  done <<<"$variants"
done
