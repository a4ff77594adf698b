# Sourced by the benches that move an H2 file database into the embedded ClickHouse through bin/dpone (fleet.sh,
# key-ranges.sh), after bench/build.sh (it uses $app). Defines:
#   embedded_context DIR DB ALIAS   DPONE_HOME=DIR/home (made, with DIR/runs), h2_url: the H2 file database
#                                   DIR/source/DB in MSSQLServer mode, DIR/context.yaml with the mssql alias ALIAS on
#                                   it and clickhouse_default embedded under DPONE_HOME, exported as
#                                   DPONE_RUNTIME_CONNECTION_CONTEXT; h2_jar: target/lib's H2 jar (for the seed script)
#   bench_header TITLE               the header lines every such bench starts with (date, code, machine)
#   now_ns; secs T0 T1               a timestamp in ns; the seconds between two, one decimal
#   cpu_of FILE                      user + sys CPU-s from a `/usr/bin/time -v` output file, one decimal
embedded_context() {
  local dir="$1" db="$2" alias="$3"
  export DPONE_HOME="$dir/home"
  mkdir -p "$DPONE_HOME" "$dir/runs"
  h2_url="jdbc:h2:file:$dir/source/$db;MODE=MSSQLServer;DATABASE_TO_UPPER=FALSE;CASE_INSENSITIVE_IDENTIFIERS=TRUE"
  cat >"$dir/context.yaml" <<EOF
connections:
  $alias:
    type: mssql
    url: "$h2_url"
    user: sa
  clickhouse_default:
    type: clickhouse
    embedded: true
    options:
      path: "$DPONE_HOME/clickhouse"
EOF
  export DPONE_RUNTIME_CONNECTION_CONTEXT="$dir/context.yaml"
  h2_jar="$(ls "$app"/target/lib/h2-*.jar | head -1)"
}
bench_header() {
  echo "== $1 =="
  echo "date        $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "code        $tree"
  echo "machine     $(nproc) cores, load avg $(cut -d' ' -f1-3 /proc/loadavg)"
}
now_ns() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
cpu_of() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.1f", u + s}' "$1"; }
