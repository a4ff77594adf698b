#!/usr/bin/env bash
# One full refresh of the demo table through typed_binary_streaming (the embedded default) under JFR, with the
# process's CPU by thread group (bench/thread-cpu.sh) and the JVM's own counters. For issue 19, item 4 (allocation
# per row): prints the thread-group CPU line, the GC pauses and the sampled allocation by role and site.
# It asserts nothing. See bench/README.md, "Issue 19, item 4".
#
#   bench/alloc-profile.sh ROWS LABEL      needs a built tree (target/) and a DPONE_HOME seeded with ROWS rows
#                                          (bin/dpone demo seed --rows ROWS); writes bench/.work/alloc/LABEL.*
#
# JVM options: the launcher's defaults (DPONE_JAVA_OPTS overrides them) plus a JFR recording with the "profile"
# settings (allocation samples, execution samples every 10/20 ms), and a GC log. The JVM is started as bin/dpone
# starts it (same class path, no class-data archive, so every run loads classes alike).
#   BENCH_JFR=0            no JFR recording (for CPU figures: the recording costs CPU itself)
#   BENCH_CLASSES_FIRST=D  a directory of classes put before the jar on the class path (an A/B of one class)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rows="${1:?usage: bench/alloc-profile.sh ROWS LABEL}"
label="${2:?usage: bench/alloc-profile.sh ROWS LABEL}"
: "${DPONE_HOME:?set DPONE_HOME to a home seeded with ROWS rows}"
out="$root/bench/.work/alloc"
mkdir -p "$out"
opts="${DPONE_JAVA_OPTS:--Xmx2g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC -XX:MetaspaceSize=128m}"
jfr="$out/$label.jfr"
rm -f "$jfr"
jfr_opt=()
[ "${BENCH_JFR:-1}" = 0 ] || jfr_opt=("-XX:StartFlightRecording=filename=$jfr,settings=profile,dumponexit=true")
jar="$(ls target/dpone-*.jar | grep -v -e sources -e tests | head -1)"
cp="${BENCH_CLASSES_FIRST:+$BENCH_CLASSES_FIRST:}$jar:target/lib/*"
read -r -a jvm <<<"$opts"
uptime | sed 's/^/load before: /'
# JFR's startup lines go to stdout: the JSON report starts at the first "{"
/usr/bin/time -v -o "$out/$label.time" java "${jvm[@]}" "${jfr_opt[@]}" -Xlog:gc:file="$out/$label.gc.log" \
  -cp "$cp" io.dpone.cli.DponeCli run examples/batch/embedded-full-refresh.batch.yaml \
  --run-id "alloc-$label-$(date +%s)" --format json >"$out/$label.out" 2>"$out/$label.stderr" &
tpid=$!
bench/thread-cpu.sh sample-java "$tpid" "$out/$label.threads" &
spid=$!
wait "$tpid"
wait "$spid" || true
uptime | sed 's/^/load after: /'
user="$(awk -F': ' '/User time/ {print $2}' "$out/$label.time")"
sys="$(awk -F': ' '/System time/ {print $2}' "$out/$label.time")"
total="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
sed -n '/^{/,$p' "$out/$label.out" >"$out/$label.json"
echo "run passed=$(jq -r .passed "$out/$label.json") loaded_rows=$(jq -r '.loaded_rows' "$out/$label.json") duration_ms=$(jq -r '.duration_ms // empty' "$out/$label.json") typed_hash=$(jq -r '[.gates[] | select(.gate == "typed_hash") | .status] | join(",")' "$out/$label.json") process_cpu_s=$total peak_rss_kib=$(awk -F': ' '/Maximum resident/ {print $2}' "$out/$label.time")"
bench/thread-cpu.sh summarize "$out/$label.threads" "$rows" "$total"
awk '/Pause Young|Pause Full/ { n++; ms = $NF; sub(/ms/, "", ms); s += ms } END { printf "gc pauses=%d sum_ms=%.1f\n", n, s }' "$out/$label.gc.log"
[ "${BENCH_JFR:-1}" = 0 ] && exit 0
# allocation samples (weight = bytes the sample stands for) by role and site, see bench/alloc-sites.awk
jfr print --events jdk.ObjectAllocationSample --stack-depth 64 "$jfr" | awk -f bench/alloc-sites.awk
