#!/usr/bin/env bash
# Live CDC ticks in a row, one process each (issue: the embedded engine must never take the JVM's signals).
# Seeds an H2 *file* database with the SQL Server CDC emulation of dbo.orders (bench/CdcTickSeed.java), then runs
# TICKS times `dpone ops cdc-runtime-run --mode live --backend mssql_cdc --max-events PER_TICK` into the embedded
# ClickHouse, each in a fresh JVM with bin/dpone's default JVM options and a wall-clock bound (BOUND seconds, then
# SIGKILL). Counts the ticks that ended on their own with a report, passed, hung (hit the bound) or died by a
# signal, and sums the changes the reports applied. Prints figures; the exit code is 0 only when every
# tick ended on its own with a passed report.
# Usage: bench/cdc-live-ticks.sh [TICKS=200] [PER_TICK=97] [BOUND=120]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
ticks="${1:-200}"; per="${2:-97}"; bound="${3:-120}"
./mvnw -q -B test-compile
[ -s target/cp.txt ] && [ target/cp.txt -nt pom.xml ] \
  || ./mvnw -q -B dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test >/dev/null
work="$root/bench/.work/cdc-live-ticks-$$"
rm -rf "$work"; mkdir -p "$work/out"
# a snapshot of the classes: a rebuild during the run must not change what the ticks run
cp -r target/classes "$work/classes"; cp -r target/test-classes "$work/test-classes"
cp="$work/classes:$work/test-classes:$(cat target/cp.txt)"
url="jdbc:h2:file:$work/source;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE"
java -cp "$cp" bench/CdcTickSeed.java "$url" $((ticks * per)) >&2
cat > "$work/context.yaml" <<YAML
connections:
  mssql-prod: {type: mssql, url: "$url", user: sa}
  clickhouse-prod: {type: clickhouse, embedded: true, options: {path: "$work/chdb"}}
YAML
read -r -a opts <<<"${DPONE_JAVA_OPTS:--Xmx2g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC}"
ok=0; passed=0; hung=0; signalled=0; other=0; applied=0; times=()
for i in $(seq 1 "$ticks"); do
  t0=$(date +%s%N)
  rc=0
  DPONE_RUNTIME_CONNECTION_CONTEXT="$work/context.yaml" DPONE_HOME="$work/home" \
    timeout -s KILL "$bound" java "${opts[@]}" -cp "$cp" io.dpone.cli.DponeCli ops cdc-runtime-run --mode live \
    --source mssql --sink clickhouse --backend mssql_cdc --pipeline-name orders-cdc --source-schema dbo \
    --source-table orders --target-dataset analytics.orders_cdc --unique-key order_id \
    --source-connection-id mssql-prod --sink-connection-id clickhouse-prod --max-events "$per" --format json \
    > "$work/out/$i.json" 2> "$work/out/$i.err" || rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 )); times+=("$ms")
  if [ "$rc" -eq 137 ]; then hung=$((hung + 1)); echo "tick $i: HUNG (killed after ${bound}s)" >&2
  elif [ "$rc" -gt 128 ]; then signalled=$((signalled + 1)); echo "tick $i: died by signal $((rc - 128))" >&2
  elif grep -q '"schema" *: *"dpone.cdc_runtime_run.v1"' "$work/out/$i.json" "$work/out/$i.err"; then
    ok=$((ok + 1))
    if [ "$rc" -eq 0 ] && grep -q '"passed" *: *true' "$work/out/$i.json"; then
      passed=$((passed + 1))
      a=$(grep -o '"applied" *: *[0-9]*' "$work/out/$i.json" | head -1 | grep -o '[0-9]*$'); applied=$((applied + a))
    else echo "tick $i: ended with a failed report (exit $rc)" >&2; fi
  else other=$((other + 1)); echo "tick $i: exit $rc without a report" >&2; fi
  [ $((i % 20)) -eq 0 ] && echo "ticks $i/$ticks: ended with a report $ok, passed $passed, hung $hung, signal $signalled" >&2
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
pct() { echo "$sorted" | awk -v p="$1" '{a[NR]=$1} END {i=int((NR-1)*p/100)+1; print a[i]}'; }
echo "cdc-live-ticks: $(git rev-parse --short HEAD), $(nproc) cores, $ticks ticks x $per changes, bound ${bound}s"
echo "  ended on their own with a report: $ok/$ticks (passed $passed), hung: $hung, died by a signal: $signalled, no report: $other"
echo "  changes applied: $applied of $((ticks * per))"
echo "  wall per tick (ms): min $(pct 0), median $(pct 50), p95 $(pct 95), max $(pct 100)"
rm -rf "$work"
[ "$ok" -eq "$ticks" ] && [ "$passed" -eq "$ticks" ]
