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
./mvnw -q -B -o test-compile
[ -s target/cp-test.txt ] && [ target/cp-test.txt -nt pom.xml ] \
  || ./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile=target/cp-test.txt -Dmdep.includeScope=test >/dev/null
mkdir -p bench/.work/verify-tmp
echo "commit $(git rev-parse --short HEAD)$(git status --porcelain -- src | grep -q . && echo ' (src differs)' || true)," \
  "$(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx3g -Djava.io.tmpdir="$root/bench/.work/verify-tmp" \
  -cp "target/classes:target/test-classes:$(cat target/cp-test.txt)" bench/CdcVerifyBench.java \
  "${1:-1000000}" "${2:-256}" "${3:-3}"
