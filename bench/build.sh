# Sourced by bench/full-refresh.sh and bench/routes.sh (expects $root; BENCH_REV, BENCH_SKIP_BUILD as they document).
# Resolves the tree to benchmark (the working tree, or BENCH_REV exported under bench/.work), builds it when its jar
# is missing or older than src/main or pom.xml, and sets: work, app, commit, tree, jar, dpone.
work="$root/bench/.work"
app="$root"   # the tree whose bin/dpone, target/ and manifest are benchmarked
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [ -n "${BENCH_REV:-}" ]; then
  commit="$(git rev-parse --short "$BENCH_REV^{commit}")"
  app="$work/rev-$commit"
  if [ ! -d "$app" ]; then
    rm -rf "$app.partial"
    mkdir -p "$app.partial"
    git archive "$commit" | tar -x -C "$app.partial"
    mv "$app.partial" "$app"
  fi
  tree="commit $commit ($(git log -1 --format=%cI "$commit")), exported to $app"
else
  tree="working tree, HEAD $commit$(git status --porcelain -- src pom.xml 2>/dev/null | grep -q . \
    && echo ' (src/pom.xml differ from HEAD)' || true)"
fi
jar_of() { ls "$app"/target/dpone-*.jar 2>/dev/null | grep -v -e sources -e tests | head -1 || true; }
jar="$(jar_of)"
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  if [ -z "$jar" ] || [ ! -d "$app/target/lib" ] || [ -n "$(find "$app/src/main" "$app/pom.xml" -newer "$jar" -print -quit)" ]; then
    echo "bench: building $app (./mvnw -q -B package -DskipTests) ..." >&2
    (cd "$app" && ./mvnw -q -B package -DskipTests)
    jar="$(jar_of)"
  fi
fi
[ -n "$jar" ] && [ -d "$app/target/lib" ] || { echo "bench: $app/target/dpone-*.jar or target/lib missing" >&2; exit 2; }
if [ -n "$(find "$app/src/main" "$app/pom.xml" -newer "$jar" -print -quit)" ]; then
  tree="$tree; WARNING: the jar is older than src/main or pom.xml"
fi
dpone="$app/bin/dpone"
