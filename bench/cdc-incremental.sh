#!/usr/bin/env bash
# Incremental CDC materialization against the rebuild (issue 30, item 4), on the embedded engine: per table size, a
# typed CDC log of SIZE keys, the first incremental run, ticks of 1k/10k/100k changes applied incrementally (median
# of REPEATS), one rebuild of the same log, reads of the served view (FINAL vs argMax) and one compaction
# (bench/CdcIncrementalBench.java). Prints figures; asserts nothing. State under bench/.work (git-ignored).
# Usage: bench/cdc-incremental.sh [SIZES=1000000,10000000] [TICKS=1000,10000,100000] [REPEATS=3]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. bench/test-classpath.sh
mkdir -p bench/.work/incremental-tmp
java -Xmx2g -Djava.io.tmpdir="$root/bench/.work/incremental-tmp" \
  -cp "$test_cp" bench/CdcIncrementalBench.java \
  "${1:-1000000,10000000}" "${2:-1000,10000,100000}" "${3:-3}"
