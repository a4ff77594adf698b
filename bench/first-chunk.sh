#!/usr/bin/env bash
# Benchmark: the time before the first row lands, per build. Runs one manifest through several builds of dpone,
# interleaved (build A, build B, ..., then again), on one already seeded DPONE_HOME, and prints one line per run:
# the machine's 1-minute load average when it started, the report's step_millis.prepare and step_millis.first_chunk
# (from the run's start to the first chunk reaching its load or upload step; builds before it have none), dq,
# dq_tail, preflight, duration_ms, and the process's CPU seconds (user+sys) and peak RSS from GNU time.
# It asserts nothing. See bench/README.md, "Issue 19, items 2-3".
#
#   bench/first-chunk.sh ROUNDS MANIFEST LABEL=DIR [LABEL=DIR...]
#
# DIR is a built tree (DIR/bin/dpone, DIR/target/dpone-*.jar); export a commit with
#   git archive <commit> | tar -x -C DIR && (cd DIR && ./mvnw -q -B -o -DskipTests package)
# DPONE_HOME must hold the seeded source (bin/dpone demo seed --rows N). The first run of a fresh build records its
# class-data archive (bin/dpone, +2-3 s at exit); run one round more and drop the first if that matters.
set -euo pipefail
[ "$#" -ge 3 ] || { echo "usage: bench/first-chunk.sh ROUNDS MANIFEST LABEL=DIR..." >&2; exit 2; }
rounds="$1" manifest="$2"
shift 2
[ -n "${DPONE_HOME:-}" ] || { echo "bench: set DPONE_HOME to a seeded home" >&2; exit 2; }
for tool in jq awk; do command -v "$tool" >/dev/null || { echo "bench: $tool is required" >&2; exit 2; }; done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time (GNU time) is required" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for r in $(seq 1 "$rounds"); do
  for lv in "$@"; do
    label="${lv%%=*}" dir="${lv#*=}"
    load="$(cut -d' ' -f1 /proc/loadavg)"
    /usr/bin/time -f '%U %S %M' -o "$out/time" "$dir/bin/dpone" run "$manifest" \
      --run-id "bench-first-chunk-$label-$(date +%H%M%S)-$r" --format json >"$out/report.json" 2>"$out/err" || true
    read -r u s m < <(tail -1 "$out/time")
    j() { jq -r "$1 // \"-\"" "$out/report.json" 2>/dev/null || echo -; }
    echo "$label round=$r load1=$load passed=$(j .passed) rows=$(j .loaded_rows)" \
      "prepare=$(j .step_millis.prepare) first_chunk=$(j .step_millis.first_chunk)" \
      "preflight=$(j .step_millis.preflight) dq=$(j .step_millis.dq) dq_tail=$(j .step_millis.dq_tail)" \
      "duration_ms=$(j .duration_ms) cpu_s=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') rss_mib=$((m / 1024))"
  done
done
