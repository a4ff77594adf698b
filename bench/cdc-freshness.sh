#!/usr/bin/env bash
# CDC freshness end to end (issue 14): a writer inserts into the H2 SQL Server CDC emulation at RATE changes/s; a
# loop runs live ticks through the camel context (the call dpone serve makes) and materializes the typed serving
# table; prints per rate the time from commit to visibility in the serving table (p50, p99, max, and p50/p99 of the
# last quarter: bounded lag keeps them flat), the ticks and the average tick and materialization times
# (bench/CdcFreshnessBench.java). Prints figures; asserts nothing.
# Usage: bench/cdc-freshness.sh [RATES=50,200,1000] [SECONDS=20] [MODE=rebuild|incremental]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. bench/test-classpath.sh
mkdir -p bench/.work
java -Xmx2g -cp "$test_cp" bench/CdcFreshnessBench.java \
  "${1:-50,200,1000}" "${2:-20}" "${3:-rebuild}"
