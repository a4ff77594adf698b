#!/usr/bin/env bash
# Parse or refusal time of hostile manifests (issue 18): one-line manifests of 1 MB, 8 MB and 60 MB, and the largest
# multi-line manifests the bounds let through (bench/HostileInputBench.java, one JVM, after a warm-up), then the
# whole `bin/dpone check` command on the 60 MB one (JVM start included). Prints figures; asserts nothing.
# Usage: bench/hostile-input.sh [SIZES_MB=1,8,60]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
./mvnw -q -B -o package -DskipTests
[ -s target/cp.txt ] && [ target/cp.txt -nt pom.xml ] \
  || ./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null
work="$root/bench/.work/hostile-input-$$"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
echo "commit $(git rev-parse --short HEAD)$(git status --porcelain -- src | grep -q . && echo ' (src differs)' || true)," \
  "$(nproc) cores, $(java -version 2>&1 | head -1)"
java -cp "target/classes:$(cat target/cp.txt)" bench/HostileInputBench.java "$work" "${1:-1,8,60}"
printf 'name: small\n' > "$work/small.yaml"
t0=$(date +%s%N)
rc=0; bin/dpone check "$work/small.yaml" --format json >/dev/null 2>&1 || rc=$?
echo "bin/dpone check, a 12-byte manifest: exit $rc in $(( ($(date +%s%N) - t0) / 1000000 )) ms (the JVM start alone)"
head -c 60000000 /dev/zero | tr '\0' a | { printf '{name: "'; cat; printf '"}'; } > "$work/check-60mb.yaml"
t0=$(date +%s%N)
rc=0; bin/dpone check "$work/check-60mb.yaml" --format json >/dev/null 2>"$work/check.err" || rc=$?
echo "bin/dpone check, 60 MB one-line manifest: exit $rc in $(( ($(date +%s%N) - t0) / 1000000 )) ms (JVM start included)," \
  "code $(grep -o '"code" *: *"[^"]*"' "$work/check.err" | head -1)"
