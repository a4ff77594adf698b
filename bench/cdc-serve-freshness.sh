#!/usr/bin/env bash
# CDC freshness inside dpone serve (issue 30): one serve runtime with a live CDC stream on its own schedule and
# cdc_streams[].materialize; a writer inserts into the H2 SQL Server CDC emulation at RATE changes/s and an observer
# polls the serving view every 50 ms; prints the time from commit to visibility (p50, p99, max; p50/p99 of the last
# quarter), the stream's ticks and materializations (bench/CdcServeFreshnessBench.java). Prints figures; asserts nothing.
# Usage: bench/cdc-serve-freshness.sh [RATE=5000] [SECONDS=30] [EVERY=200ms] [MODE=incremental|rebuild]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. bench/test-classpath.sh
java -Xmx2g -cp "$test_cp" bench/CdcServeFreshnessBench.java \
  "${1:-5000}" "${2:-30}" "${3:-200ms}" "${4:-incremental}"
