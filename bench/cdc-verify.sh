#!/usr/bin/env bash
# cdc-verify time per table size (issue 30, item 4), on the embedded default: the H2 SQL Server CDC emulation as the
# source, chDB as the sink. Per size: the rows inserted at the source, one live tick into the typed log, an
# incremental materialization, then verifications of the correct stream (median: total, source scan, serving scan),
# one with a planted out-of-band delete and its --repair (bench/CdcVerifyBench.java). Prints figures; asserts
# nothing. State under bench/.work (git-ignored).
# Usage: bench/cdc-verify.sh [SIZES=1000000] [BUCKETS=256] [REPEATS=3]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. bench/test-classpath.sh
mkdir -p bench/.work/verify-tmp
java -Xmx3g -Djava.io.tmpdir="$root/bench/.work/verify-tmp" \
  -cp "$test_cp" bench/CdcVerifyBench.java \
  "${1:-1000000}" "${2:-256}" "${3:-3}"
