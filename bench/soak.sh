#!/usr/bin/env bash
# Soak of dpone serve (issue 35): three live CDC streams at 20/50/100 changes/s with incremental materialization, a
# full refresh every minute and a certification every ten, sampling RSS, heap after GC, threads, open file
# descriptors, engine parts, disk and leftover staging every SAMPLE_SECONDS; prints each series' slope per hour and
# fails (exit 1) when the last third of the run grew beyond the noise bounds of bench/SoakBench.java.
# Usage: bench/soak.sh [MINUTES=30] [SAMPLE_SECONDS=30]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
. bench/test-classpath.sh
work="$root/bench/.work/soak"
rm -rf "$work"
mkdir -p "$work/tmp" "$work/home"
# serve's own log lines go to $work/soak.log; the samples and the verdict to stdout
set +e
DPONE_HOME="$work/home" java -Xmx2g -Djava.io.tmpdir="$work/tmp" -Djna.nosys=true \
  -cp "$test_cp" bench/SoakBench.java "${1:-30}" "${2:-30}" \
  2>&1 | tee "$work/soak.log" | grep --line-buffered -v -E '^[0-9]{4}-[0-9]{2}-[0-9]{2}T|^\s+at |^\{'
status=${PIPESTATUS[0]}
echo "soak exit $status (serve's log: $work/soak.log)"
exit "$status"
