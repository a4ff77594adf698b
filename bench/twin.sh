#!/usr/bin/env bash
# Benchmark (prints figures, asserts nothing): the best streaming route (typed_binary_streaming) on the same demo
# table into the embedded ClickHouse and into the ClickHouse HTTP twin (dev/clickhouse-twin: client-v2 over HTTP on
# loopback, input() inserts, the gates' queries over HTTP, the twin's own engine in another process), alternating,
# in one run. What the difference measures is the server path's cost on this machine: HTTP, LZ4 framing, the body
# spooled to a file by the twin, and a second JVM on the same two cores. A twin is not a server (docs/testing.md).
#
#   bench/twin.sh [ROWS ...]        default: 1000000 5000000
#   BENCH_RUNS=N                    runs of each target per size (default 1)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1000000 5000000)
runs="${BENCH_RUNS:-1}"
command -v jq >/dev/null || { echo "bench: jq is required" >&2; exit 2; }
source "$root/bench/build.sh"
./mvnw -q -B test-compile
export DPONE_HOME="$work/twin-home"
mkdir -p "$DPONE_HOME"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export BENCH_TWIN_PASSWORD="bench-$$"
rm -rf "$work/twin-data"
dev/clickhouse-twin --port "$port" --path "$work/twin-data" --user bench --password-env BENCH_TWIN_PASSWORD \
  > "$work/twin.out" 2> "$work/twin.err" &
twin=$!
trap 'kill $twin 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do grep -q "ready" "$work/twin.out" 2>/dev/null && break; sleep 1; done
grep -q "ready" "$work/twin.out" || { echo "bench: the twin did not start" >&2; cat "$work/twin.err" >&2; exit 1; }
cat > "$work/twin-context.yaml" <<YAML
connections:
  mssql_demo: {type: mssql, url: "jdbc:h2:file:$DPONE_HOME/source/demo;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE;LAZY_QUERY_EXECUTION=1", user: sa}
  clickhouse_default: {type: clickhouse, url: "http://127.0.0.1:$port", user: bench, password_env: BENCH_TWIN_PASSWORD}
YAML
manifest="$app/examples/batch/embedded-full-refresh.batch.yaml"
echo "bench/twin.sh: $tree; $(nproc) cores; typed_binary_streaming, full typed hash"
printf '| rows | target | wall s | rows/s | clickhouse_load s | dq s | prepare s |\n|---:|---|---:|---:|---:|---:|---:|\n'
for rows in "${sizes[@]}"; do
  if [ "$(cat "$DPONE_HOME/seeded" 2>/dev/null || true)" != "$rows" ]; then
    rm -rf "$DPONE_HOME/source"
    "$dpone" demo seed --rows "$rows" >&2
    echo "$rows" > "$DPONE_HOME/seeded"
  fi
  for i in $(seq 1 "$runs"); do
    for target in embedded twin; do
      if [ "$target" = twin ]; then ctx="$work/twin-context.yaml"; else ctx=""; fi
      out=$(DPONE_RUNTIME_CONNECTION_CONTEXT="$ctx" "$dpone" run "$manifest" --run-id "bench-$target-$rows-$i-$$" \
        --format json) || { echo "bench: $target run failed" >&2; exit 1; }
      echo "$out" | jq -r --arg rows "$rows" --arg t "$target" '"| \($rows) | \($t) | \(.duration_ms/1000) | \(.rows_per_second) | \((.step_millis.clickhouse_load // 0)/1000) | \((.step_millis.dq // 0)/1000) | \((.step_millis.prepare // 0)/1000) |"'
    done
  done
done
