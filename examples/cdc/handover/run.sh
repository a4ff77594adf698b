#!/usr/bin/env bash
# Snapshot -> hand-over -> tick -> materialize on the embedded default (no server, no credential).
# Run from the repository root after ./mvnw -q -B package -DskipTests. Uses its own DPONE_HOME.
set -euo pipefail
export DPONE_HOME="${DPONE_HOME:-$PWD/test_artifacts/handover-home}"
rm -rf "$DPONE_HOME"
bin/dpone demo seed --rows 20000 --cdc                                   # dbo.sales + CDC capture instance dbo_sales
bin/dpone demo changes --count 300 --seed 1                               # changes before the snapshot
bin/dpone run examples/cdc/handover/sales.handover.batch.yaml --run-id handover-001 --format json > /dev/null
bin/dpone demo changes --count 500 --seed 2                               # changes after the hand-over
bin/dpone ops cdc-runtime-run --mode live --source mssql --sink clickhouse --backend mssql_cdc \
  --pipeline-name sales-cdc --source-schema dbo --source-table sales --target-dataset analytics.sales_cdc \
  --unique-key sale_id --source-connection-id mssql_demo --sink-connection-id clickhouse_default --format json \
  > /dev/null
bin/dpone ops cdc-materialize-clickhouse --cdc-dataset analytics.sales_cdc --target-dataset analytics.sales_current \
  --unique-key sale_id --sink-connection-id clickhouse_default --output-dir test_artifacts/handover --format json \
  > /dev/null
echo "analytics.sales_current is dbo.sales: snapshot rows plus the changes after the hand-over (see README.md)"
