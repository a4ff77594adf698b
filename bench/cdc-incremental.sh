#!/usr/bin/env bash
# Incremental CDC materialization against the rebuild (issue 30, item 4), on the embedded engine: per table size, a
# typed CDC log of SIZE keys, the first incremental run, ticks of 1k/10k/100k changes applied incrementally (median
# of REPEATS), one rebuild of the same log, reads of the served view (FINAL vs argMax) and one compaction
# (bench/CdcIncrementalBench.java). Prints figures; asserts nothing. State under bench/.work (git-ignored).
# Usage: bench/cdc-incremental.sh [SIZES=1000000,10000000] [TICKS=1000,10000,100000] [REPEATS=3]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
./mvnw -q -B -o test-compile
[ -s target/cp-test.txt ] && [ target/cp-test.txt -nt pom.xml ] \
  || ./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile=target/cp-test.txt -Dmdep.includeScope=test >/dev/null
mkdir -p bench/.work/incremental-tmp
echo "commit $(git rev-parse --short HEAD)$(git status --porcelain -- src | grep -q . && echo ' (src differs)' || true)," \
  "$(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx2g -Djava.io.tmpdir="$root/bench/.work/incremental-tmp" \
  -cp "target/classes:target/test-classes:$(cat target/cp-test.txt)" bench/CdcIncrementalBench.java \
  "${1:-1000000,10000000}" "${2:-1000,10000,100000}" "${3:-3}"
