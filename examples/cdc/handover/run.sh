#!/usr/bin/env bash
# Snapshot -> hand-over -> tick -> materialize on the embedded default (no server, no credential).
# Run after ./mvnw -q -B package -DskipTests. It always uses its own DPONE_HOME, target/examples/handover/home in the
# checkout, whatever DPONE_HOME says: an exported DPONE_HOME (your demo tables, run journals) is never read, written
# or deleted. Its reports go to target/examples/handover/reports.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
own="$repo/target/examples/handover"
cd "$repo"
if [ -n "${DPONE_HOME:-}" ] && [ "$DPONE_HOME" != "$own/home" ]; then
  echo "run.sh: leaving your DPONE_HOME alone; this example uses its own: target/examples/handover/home" >&2
fi
export DPONE_HOME="$own/home"
rm -rf -- "$own"                                                         # only this example's own directory
mkdir -p "$own/reports"
bin/dpone demo seed --rows 20000 --cdc                                   # dbo.sales + CDC capture instance dbo_sales
bin/dpone demo changes --count 300 --seed 1                               # changes before the snapshot
bin/dpone run examples/cdc/handover/sales.handover.batch.yaml --run-id handover-001 --format json > /dev/null
bin/dpone demo changes --count 500 --seed 2                               # changes after the hand-over
bin/dpone ops cdc-runtime-run --mode live --source mssql --sink clickhouse --backend mssql_cdc \
  --pipeline-name sales-cdc --source-schema dbo --source-table sales --target-dataset analytics.sales_cdc \
  --unique-key sale_id --source-connection-id mssql_demo --sink-connection-id clickhouse_default --format json \
  > /dev/null
bin/dpone ops cdc-materialize-clickhouse --cdc-dataset analytics.sales_cdc --target-dataset analytics.sales_current \
  --unique-key sale_id --sink-connection-id clickhouse_default --output-dir "$own/reports" --format json \
  > /dev/null
echo "analytics.sales_current is dbo.sales: snapshot rows plus the changes after the hand-over (see README.md)"
echo "its home: target/examples/handover/home; its reports: target/examples/handover/reports"
