#!/usr/bin/env bash
# Builds the dpone image with podman on a Debian base made here (no registry serves images on these machines) and
# runs it the ways docs/operations.md ("Container", "Kubernetes") describes:
#   1. base images: debootstrap (Debian bookworm, minbase) + `podman import`, then a JDK 17 and a JRE 17 layer
#      from Debian's packages (cached: made once per machine, --rebuild-base makes them again);
#   2. the Dockerfile, with the bases as build arguments, then again with `--from` (both documented ways);
#   3. the README's embedded demo (seed + full refresh) in one container with no mount;
#   4. `serve` with a mounted config and routes directory: HEALTHCHECK reached (podman healthcheck run),
#      /observe/metrics read, `podman stop` (SIGTERM) during a run, the resumable stop in the log, and the restart
#      resuming the same run id;
#   5. `podman kube play` of deploy/k8s as kustomize renders it (ConfigMaps, PVC, Deployment, with the Secret of
#      secret.example.yaml; kube-play-adapt.py fits them to podman 4.3): the readiness probe's path answers 200;
#   6. docker-compose.yml's dpone service with podman-compose, alone (its other services need images no registry
#      here serves).
# The demo and serve containers run with --network none; the pod and the compose service on podman's own bridge
# (podman 4.3 refuses a pod's container ports without one), their ports published on 127.0.0.1 only. Every HTTP
# check goes through `podman exec` to the container's own loopback. The builds fetch Debian packages, Maven and
# npm artifacts.
# Not in .ci/run: it takes minutes and needs the network for the image build (docs/operations.md).
#
#   dev/container/run-checks.sh [--rebuild-base] [--skip-compose] 2>&1 | tee bench/results/container-checks.txt
#
# Needs root and Debian's podman, runc, debootstrap, uidmap, slirp4netns, fuse-overlayfs (and podman-compose for 6).
# kubectl (its built-in kustomize) or kustomize renders deploy/k8s; python3 with PyYAML (Debian's python3-yaml)
# adapts the render to podman.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
# runc, cgroupfs, no default ulimits: see containers.conf
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
cache="${DPONE_CONTAINER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpone/container}"
debian_image=localhost/dpone-debian:bookworm
jdk_image=localhost/dpone-base-jdk:bookworm
jre_image=localhost/dpone-base-jre:bookworm
image=localhost/dpone:0.1.0
serve_ctr=dpone-checks-serve
home_volume=dpone-checks-home
rebuild_base=0
skip_compose=0
for arg in "$@"; do
  case "$arg" in
    --rebuild-base) rebuild_base=1 ;;
    --skip-compose) skip_compose=1 ;;
    *) echo "usage: $0 [--rebuild-base] [--skip-compose]" >&2; exit 2 ;;
  esac
done

# without systemd podman cannot schedule a container's health checks (this script runs them with `podman
# healthcheck run`) and says so on every run, start, stop and rm: that line is dropped, the rest of stderr kept
podman() { command podman "$@" 2> >(grep -v 'unable to get systemd connection' >&2); }
step() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
fail() { printf 'FAILED: %s\n' "$*"; exit 1; }
declare -a figures=()
figure() { figures+=("$1: $2"); printf 'figure: %s: %s\n' "$1" "$2"; }
# The message of each JSON log line (serve logs JSON), or the line as it is
messages() { sed -E 's/^\{.*"message":"(([^"\\]|\\.)*)".*$/\1/'; }
# GET on the container's own loopback (no curl in the image: bash's /dev/tcp), the status line and body
http_get() {
  podman exec "$1" bash -c 'exec 3<>/dev/tcp/127.0.0.1/8080 && printf "GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" "$0" >&3 && cat <&3' "$2"
}
# waits up to $1 seconds for the command to succeed, one try a second
await() {
  local limit="$1"; shift
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 1
  done
}

[ "$(id -u)" = 0 ] || fail "run as root (rootful podman; debootstrap needs root)"
command -v podman >/dev/null || fail "podman is not installed: apt-get install -y podman runc debootstrap uidmap slirp4netns fuse-overlayfs"
mkdir -p "$cache"
step "podman"
show podman --version
podman --version
echo "CONTAINERS_CONF=$CONTAINERS_CONF"
podman info --format 'runtime {{.Host.OCIRuntime.Name}}, cgroup manager {{.Host.CgroupManager}}, cgroups {{.Host.CgroupsVersion}}, storage {{.Store.GraphDriverName}}'

# ---- 1. base images ----
step "base images (debootstrap + podman import; Debian's openjdk-17)"
if [ "$rebuild_base" = 1 ]; then
  podman rmi -f "$jdk_image" "$jre_image" "$debian_image" >/dev/null 2>&1 || true
  rm -rf "$cache/rootfs"
fi
t0=$(now)
if ! podman image exists "$debian_image"; then
  if [ ! -d "$cache/rootfs" ]; then
    command -v debootstrap >/dev/null || fail "debootstrap is not installed"
    rm -rf "$cache/rootfs.tmp"
    show debootstrap --variant=minbase --include=ca-certificates bookworm "$cache/rootfs.tmp"
    if ! debootstrap --variant=minbase --include=ca-certificates bookworm "$cache/rootfs.tmp" >"$cache/debootstrap.log" 2>&1; then
      tail -20 "$cache/debootstrap.log"
      fail "debootstrap (log: $cache/debootstrap.log)"
    fi
    mv "$cache/rootfs.tmp" "$cache/rootfs"
  fi
  show "tar -C $cache/rootfs -c . | podman import - $debian_image"
  tar -C "$cache/rootfs" --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' -c . \
    | podman import --quiet --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$debian_image" >/dev/null
fi
# the certificate authorities the host trusts beyond the base's own (e.g. a TLS-inspecting proxy's), one per file
ctx="$cache/base-context"
rm -rf "$ctx" && mkdir -p "$ctx/extra-ca"
cp "$here/base.Containerfile" "$ctx/Containerfile"
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  podman run --rm --network none "$debian_image" cat /etc/ssl/certs/ca-certificates.crt >"$ctx/base-bundle.crt"
  awk -v out="$ctx/extra-ca" '
    FNR == 1 { file++ }
    /-----BEGIN CERTIFICATE-----/ { block = "" }
    { block = block $0 "\n" }
    /-----END CERTIFICATE-----/ {
      if (file == 1) { known[block] = 1 }
      else if (!(block in known)) { n++; printf "%s", block > (out "/host-extra-" n ".crt"); close(out "/host-extra-" n ".crt") }
    }' "$ctx/base-bundle.crt" /etc/ssl/certs/ca-certificates.crt
fi
echo "certificate authorities the host trusts beyond Debian's: $(find "$ctx/extra-ca" -name '*.crt' | wc -l)"
for base in "$jdk_image:openjdk-17-jdk-headless" "$jre_image:openjdk-17-jre-headless"; do
  name="${base%:*}"; packages="${base##*:}"
  if ! podman image exists "$name"; then
    show podman build --build-arg PACKAGES="$packages" -t "$name" -f Containerfile "$ctx"
    podman build --build-arg DEBIAN_IMAGE="$debian_image" --build-arg PACKAGES="$packages" -t "$name" \
      -f "$ctx/Containerfile" "$ctx" >"$cache/base-build.log" 2>&1 || { tail -30 "$cache/base-build.log"; fail "base $name"; }
  fi
done
podman images --format '{{.Repository}}:{{.Tag}} {{.ID}} {{.Size}}' | grep -E 'dpone-(debian|base-jdk|base-jre)'
figure "base images ready (cached unless --rebuild-base)" "$(secs "$t0" "$(now)") s"

# ---- 2. the image ----
step "image: podman build with the bases as build arguments"
show podman build --format docker --build-arg BUILD_BASE=$jdk_image --build-arg RUNTIME_BASE=$jre_image -t $image .
t0=$(now)
podman build --format docker --build-arg BUILD_BASE="$jdk_image" --build-arg RUNTIME_BASE="$jre_image" \
  -t "$image" "$repo" >"$cache/image-build.log" 2>&1 || { tail -40 "$cache/image-build.log"; fail "podman build"; }
build_s=$(secs "$t0" "$(now)")
grep -E '^\[[0-9]/[0-9]\] STEP|^STEP|Using cache' "$cache/image-build.log" | sed -E 's/^(.{150}).*/\1.../' || true
figure "image build" "$build_s s (layers podman had cached: $(grep -c 'Using cache' "$cache/image-build.log" || true))"
size=$(podman image inspect --format '{{.Size}}' "$image")
figure "image size" "$((size / 1000000)) MB ($size bytes)"
echo "healthcheck kept: $(podman image inspect --format '{{json .HealthCheck}}' "$image" | cut -c1-160)"

step "image: podman build --from (replaces the first FROM, the build stage's base)"
show podman build --format docker --from $jdk_image --build-arg RUNTIME_BASE=$jre_image -t localhost/dpone:0.1.0-from .
t0=$(now)
podman build --format docker --from "$jdk_image" --build-arg RUNTIME_BASE="$jre_image" \
  -t localhost/dpone:0.1.0-from "$repo" >"$cache/image-build-from.log" 2>&1 \
  || { tail -40 "$cache/image-build-from.log"; fail "podman build --from"; }
figure "image build with --from" "$(secs "$t0" "$(now)") s (layers podman had cached: $(grep -c 'Using cache' "$cache/image-build-from.log" || true))"
echo "same image as with the build arguments: $([ "$(podman image inspect --format '{{.Id}}' localhost/dpone:0.1.0-from)" = "$(podman image inspect --format '{{.Id}}' "$image")" ] && echo yes || echo no)"
podman rmi localhost/dpone:0.1.0-from >/dev/null

# ---- 3. the README's embedded demo, no mount ----
step "the README's embedded demo in the image, no mount, no network"
demo='dpone demo seed && dpone run /opt/dpone/examples/batch/embedded-full-refresh.batch.yaml --run-id demo-001'
show podman run --rm --network none --entrypoint sh $image -c "'$demo'"
t0=$(now)
podman run --rm --network none --entrypoint sh "$image" -c "$demo" >"$cache/demo.log" 2>&1 || { tail -30 "$cache/demo.log"; fail "demo"; }
demo_s=$(secs "$t0" "$(now)")
grep -v '^\s*$' "$cache/demo.log" | tail -12
grep -q 'run demo-001 passed' "$cache/demo.log" || fail "the demo did not print 'run demo-001 passed'"
figure "demo (seed + 100k-row full refresh, one container)" "$demo_s s"

# ---- 4. serve with a mounted config and routes directory ----
step "serve: mounted config and routes, HEALTHCHECK, metrics, SIGTERM during a run, resume"
work="$cache/serve-check"
rm -rf "$work" && mkdir -p "$work/config" "$work/routes"
# the embedded demo job on 500k rows in 2000-row chunks, so that a run is in flight long enough to be stopped
sed -e 's/chunk_rows: 100000/chunk_rows: 2000/' -e 's/fetch_size: 10000/fetch_size: 2000/' \
  "$repo/examples/batch/embedded-full-refresh.batch.yaml" >"$work/config/sales.batch.yaml"
cat >"$work/config/serve.yaml" <<'EOF'
http:
  port: 8080
  host: 0.0.0.0
state_dir: /var/lib/dpone/serve
routes:
  directory: /etc/dpone/routes
  reload: true
  reload_interval: 5s
shutdown:
  timeout: 30s
jobs:
  - name: demo-sales
    manifest: sales.batch.yaml
    schedule:
      every: 1h
      start_after: 20s
EOF
cat >"$work/routes/heartbeat.yaml" <<'EOF'
- route:
    id: dpone_check_heartbeat
    from:
      uri: timer:dpone_check_heartbeat?period=5000
      steps:
        - log:
            message: "dpone container check heartbeat"
EOF
chmod -R a+rX "$work"
podman rm -f "$serve_ctr" >/dev/null 2>&1 || true
podman volume rm -f "$home_volume" >/dev/null 2>&1 || true
show podman run --rm --network none -v $home_volume:/var/lib/dpone $image demo seed --rows 500000
podman run --rm --network none -v "$home_volume:/var/lib/dpone" "$image" demo seed --rows 500000 2>&1 | grep -v systemd
show podman run -d --name $serve_ctr --network none -v "$work/config:/etc/dpone/config:ro" \
  -v "$work/routes:/etc/dpone/routes:ro" -v $home_volume:/var/lib/dpone $image \
  serve --config /etc/dpone/config/serve.yaml --log-format json
t0=$(now)
podman run -d --name "$serve_ctr" --network none -v "$work/config:/etc/dpone/config:ro" \
  -v "$work/routes:/etc/dpone/routes:ro" -v "$home_volume:/var/lib/dpone" "$image" \
  serve --config /etc/dpone/config/serve.yaml --log-format json >/dev/null
# podman 4.3's healthcheck run exits 0 when the check passed (it prints nothing then), 1 when not
healthy() { podman healthcheck run "$serve_ctr"; }
if ! await 180 healthy; then
  podman logs "$serve_ctr" 2>&1 | messages | tail -20
  fail "serve did not become healthy within 180 s"
fi
healthy_s=$(secs "$t0" "$(now)")
show podman healthcheck run $serve_ctr
podman healthcheck run "$serve_ctr" && echo "exit code 0: healthy"
echo "health status: $(podman inspect --format '{{.State.Healthcheck.Status}}' "$serve_ctr")"
figure "serve: podman run to HEALTHCHECK healthy" "$healthy_s s"
show "GET /observe/health/ready (podman exec, the container's loopback)"
http_get "$serve_ctr" /observe/health/ready | sed -n '1p;$p'; echo
show "GET /observe/metrics | grep ^dpone_job"
http_get "$serve_ctr" /observe/metrics >"$work/metrics.txt"
head -1 "$work/metrics.txt"
grep -E '^dpone_job_(runs_total|rows_moved_total|inflight_chunks)' "$work/metrics.txt" || fail "no dpone_job series in /observe/metrics"
echo "series in /observe/metrics: $(grep -cv '^#' "$work/metrics.txt")"
# the run starts 20 s after start: stop it once a chunk is in flight
in_flight() { http_get "$serve_ctr" /observe/metrics | grep -Eq '^dpone_job_inflight_chunks\{job="demo-sales",?\} [1-9]'; }
await 180 in_flight || { podman logs "$serve_ctr" 2>&1 | messages | tail -20; fail "no run in flight within 180 s"; }
http_get "$serve_ctr" /observe/metrics | grep -E '^dpone_job_inflight_(chunks|rows_scanned)'
show podman stop -t 60 $serve_ctr
t0=$(now)
podman stop -t 60 "$serve_ctr" >/dev/null
stop_s=$(secs "$t0" "$(now)")
figure "serve: podman stop (SIGTERM during a run) to exit" "$stop_s s, exit code $(podman inspect --format '{{.State.ExitCode}}' "$serve_ctr")"
podman logs "$serve_ctr" 2>&1 | messages >"$work/serve-1.log"
grep -E 'dpone serve started|heartbeat|route file|job demo-sales: run|dpone serve stop' "$work/serve-1.log" \
  | grep -v -e 'check heartbeat' -e ': chunk [0-9]* done' | head -20
echo "chunk lines: $(grep -c ': chunk [0-9]* done' "$work/serve-1.log" || true), the last: $(grep ': chunk [0-9]* done' "$work/serve-1.log" | tail -1)"
echo "heartbeat lines from the mounted route: $(grep -c 'dpone container check heartbeat' "$work/serve-1.log" || true)"
grep -q 'dpone container check heartbeat' "$work/serve-1.log" || fail "the mounted route did not run"
run_id=$(sed -nE 's/.*job demo-sales: run ([^ ]+) started.*/\1/p' "$work/serve-1.log" | head -1)
grep -Eq "job demo-sales: run $run_id interrupted" "$work/serve-1.log" || fail "no resumable stop (run $run_id interrupted) in the log"
grep -q 'dpone serve stopped' "$work/serve-1.log" || fail "serve did not log its stop"
show podman start $serve_ctr
podman start "$serve_ctr" >/dev/null
resumed() { podman logs "$serve_ctr" 2>&1 | messages | grep -Eq "job demo-sales: run $run_id passed"; }
await 240 resumed || { podman logs "$serve_ctr" 2>&1 | messages | tail -20; fail "the restart did not finish run $run_id"; }
podman logs "$serve_ctr" 2>&1 | messages | grep -E "job demo-sales: run $run_id (resumed|passed)"
podman stop -t 60 "$serve_ctr" >/dev/null
podman logs "$serve_ctr" 2>&1 | messages | grep -E 'dpone serve stop' | tail -2
podman rm "$serve_ctr" >/dev/null
podman volume rm "$home_volume" >/dev/null

# ---- 5. podman kube play deploy/k8s ----
step "podman kube play deploy/k8s (kustomize-rendered: ConfigMaps, Secret, PVC, Deployment)"
kube="$cache/kube"
rm -rf "$kube" && mkdir -p "$kube"
if command -v kubectl >/dev/null; then
  show kubectl kustomize deploy/k8s
  kubectl kustomize "$repo/deploy/k8s" >"$kube/rendered.yaml"
elif command -v kustomize >/dev/null; then
  show kustomize build deploy/k8s
  kustomize build "$repo/deploy/k8s" >"$kube/rendered.yaml"
else
  fail "neither kubectl nor kustomize is installed: cannot render deploy/k8s"
fi
# podman 4.3 runs the ConfigMaps, the claim and the Deployment; Service, PodDisruptionBudget and ServiceMonitor are
# the cluster's. kube-play-adapt.py says what it changes for podman's limits (host ports, the claim's owner, the
# Secret's two forms), never what the pod runs.
show kube-play-adapt.py rendered.yaml deploy/k8s/secret.example.yaml play.yaml env-secret.json
python3 "$here/kube-play-adapt.py" "$kube/rendered.yaml" "$repo/deploy/k8s/secret.example.yaml" "$kube/play.yaml" \
  "$kube/env-secret.json"
echo "kinds in the render: $(grep -E '^kind: ' "$kube/rendered.yaml" | awk '{print $2}' | sort | tr '\n' ' ')"
grep -q '^kind: Deployment' "$kube/play.yaml" || fail "no Deployment in the render"
podman pod rm -f dpone-pod-0 >/dev/null 2>&1 || true
podman volume rm -f dpone-state >/dev/null 2>&1 || true
podman secret rm dpone-connections-env >/dev/null 2>&1 || true
podman secret create dpone-connections-env "$kube/env-secret.json" >/dev/null
show podman kube play play.yaml
t0=$(now)
# to a file, not a pipe: the pod's processes inherit podman's stdout and would hold a pipe open
podman kube play "$kube/play.yaml" >"$kube/play.log" 2>&1 || { cat "$kube/play.log"; fail "podman kube play"; }
grep -v -e '^failed to connect to syslog' -e 'systemd connection' "$kube/play.log" | tr '\n' ' '; echo
ctr=$(podman ps -a --filter pod=dpone-pod-0 --format '{{.Names}}' | grep -v infra | head -1)
[ -n "$ctr" ] || fail "kube play started no container"
ready_path=$(awk '/readinessProbe:/ { r = 1 } r && /path:/ { sub(/.*path: */, ""); sub(/[,}].*/, ""); print; exit }' "$kube/rendered.yaml")
echo "container $ctr; the Deployment's readinessProbe path: $ready_path"
# (podman 4.3 turns the livenessProbe into a curl health check on port 0, the named port unresolved, and the image
# has no curl: its own health check of this container never passes, so the probe's path is asked here)
echo "podman's conversion of the livenessProbe: $(podman inspect --format '{{json .Config.Healthcheck.Test}}' "$ctr")"
ready() { http_get "$ctr" "$ready_path" | head -1 | grep -q ' 200 '; }
if ! await 180 ready; then
  podman logs "$ctr" 2>&1 | messages | tail -20
  fail "the pod did not answer 200 on $ready_path within 180 s"
fi
figure "kube play to readiness ($ready_path 200)" "$(secs "$t0" "$(now)") s"
http_get "$ctr" "$ready_path" | sed -n '1p;$p'; echo
podman pod ps --filter name=dpone-pod-0 --format '{{.Name}} {{.Status}}, {{.NumberOfContainers}} containers'
echo "the connection context from the Secret: $(podman exec "$ctr" sh -c 'ls /etc/dpone/secret; echo " $DPONE_RUNTIME_CONNECTION_CONTEXT"' | tr '\n' ' ')"
# before readiness waited for serve's start (dpone/serve-started), it answered before serve logged its start and a
# SIGTERM in that window ended the JVM without the graceful stop; the stop still waits for the line
started() { podman logs "$ctr" 2>&1 | grep -q 'dpone serve started'; }
await 120 started || fail "the pod's serve did not log its start within 120 s"
show podman pod stop -t 60 dpone-pod-0
t0=$(now)
podman pod stop -t 60 dpone-pod-0 >/dev/null
figure "kube play pod stop" "$(secs "$t0" "$(now)") s, exit code $(podman inspect --format '{{.State.ExitCode}}' "$ctr")"
podman logs "$ctr" 2>&1 | messages | grep -E 'dpone serve (started|stopping|stopped)' | cut -c1-200 || true
podman logs "$ctr" 2>&1 | grep -q 'dpone serve stopped' || fail "the pod's serve did not log its graceful stop"
show podman kube down play.yaml
podman kube down "$kube/play.yaml" >/dev/null
# podman 4.3's kube down leaves the ConfigMaps' volumes behind
for volume in dpone-state $(awk '/^kind: ConfigMap/ { c = 1 } c && /^  name: / { print $2; c = 0 }' "$kube/play.yaml"); do
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
done
podman secret rm dpone-connections-env >/dev/null

# ---- 6. docker-compose.yml's dpone service ----
step "docker-compose.yml: the dpone service alone (podman-compose)"
if [ "$skip_compose" = 1 ]; then
  echo "skipped (--skip-compose)"
elif ! command -v podman-compose >/dev/null; then
  echo "skipped: podman-compose is not installed (apt-get install -y podman-compose)"
else
  # docker-compose.yml as it is, but for three things of this machine: paths made absolute (the copy lives in the
  # cache), the published port moved off 8080 (other processes here may hold it; the checks use podman exec), and
  # the .env values given as placeholders (the other services, which would use them, do not start)
  compose_dir="$cache/compose"
  rm -rf "$compose_dir" && mkdir -p "$compose_dir"
  sed -e "s|build: \.$|build: $repo|" -e "s|\./deploy/|$repo/deploy/|" -e 's|"127.0.0.1:8080:8080"|"127.0.0.1:18089:8080"|' \
    "$repo/docker-compose.yml" >"$compose_dir/docker-compose.yml"
  diff "$repo/docker-compose.yml" "$compose_dir/docker-compose.yml" | grep '^>' | sed "s|$repo|<repo>|" || true
  export MSSQL_SA_PASSWORD=placeholder-unused CLICKHOUSE_PASSWORD=placeholder-unused \
    CLICKHOUSE_CLUSTER_SECRET=placeholder-unused DPONE_S3_SECRET_KEY=placeholder-unused \
    MINIO_ROOT_USER=placeholder MINIO_ROOT_PASSWORD=placeholder-unused
  compose=(podman-compose -f "$compose_dir/docker-compose.yml" -p dpone-checks)
  "${compose[@]}" down -v >/dev/null 2>&1 || true
  show podman-compose -f docker-compose.yml -p dpone-checks up -d --no-deps --no-build dpone
  t0=$(now)
  "${compose[@]}" up -d --no-deps --no-build dpone >"$compose_dir/up.log" 2>&1 || { tail -20 "$compose_dir/up.log"; fail "podman-compose up"; }
  cctr=$(podman ps -a --filter label=com.docker.compose.project=dpone-checks --format '{{.Names}}' | head -1)
  [ -n "$cctr" ] || { tail -20 "$compose_dir/up.log"; fail "podman-compose started no container"; }
  echo "containers of the project: $(podman ps -a --filter label=com.docker.compose.project=dpone-checks --format '{{.Names}}' | tr '\n' ' ')"
  chealthy() { podman healthcheck run "$cctr"; }
  if ! await 180 chealthy; then
    podman logs "$cctr" 2>&1 | messages | tail -20
    fail "the compose dpone service did not become healthy within 180 s"
  fi
  figure "compose dpone service: up to HEALTHCHECK healthy" "$(secs "$t0" "$(now)") s"
  echo "connection context: $(podman exec "$cctr" sh -c 'echo $DPONE_RUNTIME_CONNECTION_CONTEXT')"
  http_get "$cctr" /observe/health/ready | sed -n '1p;$p'; echo
  cstarted() { podman logs "$cctr" 2>&1 | grep -q 'dpone serve started'; }
  await 120 cstarted || fail "the compose service's serve did not log its start within 120 s"
  t0=$(now)
  podman stop -t 60 "$cctr" >/dev/null
  figure "compose dpone service: podman stop" "$(secs "$t0" "$(now)") s, exit code $(podman inspect --format '{{.State.ExitCode}}' "$cctr")"
  podman logs "$cctr" 2>&1 | messages | grep -E 'dpone serve (started|stopping|stopped)' | cut -c1-200 || true
  podman logs "$cctr" 2>&1 | grep -q 'dpone serve stopped' || fail "the compose service did not log its graceful stop"
  "${compose[@]}" down -v >/dev/null 2>&1 || true
fi

step "figures"
printf '%s\n' "${figures[@]}"
echo "all checks passed"
