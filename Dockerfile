# dpone as a camel-main pod: `dpone serve` (see docs/operations.md, "Container"). The image carries the embedded
# ClickHouse engine and the examples, so the README's embedded demo runs with no mount and no credentials:
#   docker build -t dpone:0.1.0 .
#   docker run --rm -v dpone-home:/var/lib/dpone dpone:0.1.0 demo seed
#   docker run --rm -v dpone-home:/var/lib/dpone dpone:0.1.0 run /opt/dpone/examples/batch/embedded-full-refresh.batch.yaml --run-id demo-001
#   docker run --rm -p 8080:8080 -v dpone-home:/var/lib/dpone dpone:0.1.0 serve --config /opt/dpone/examples/serve/embedded-serve.yaml --http-host 0.0.0.0
# A pod reaches real servers through the connection context (DPONE_RUNTIME_CONNECTION_CONTEXT, mounted from a
# Secret); the image holds no credentials. The default command serves /etc/dpone/serve.yaml (deploy/k8s mounts it).
#
# The two base images are build arguments: any Debian or Ubuntu image with a JDK 17 (build stage; apt-get brings npm
# and curl) and with a JRE 17 (run stage). Without a registry, make both here (dev/container/run-checks.sh does:
# debootstrap, podman import, Debian's openjdk-17) and name them:
#   podman build --format docker --build-arg BUILD_BASE=localhost/dpone-base-jdk:bookworm \
#     --build-arg RUNTIME_BASE=localhost/dpone-base-jre:bookworm -t dpone:0.1.0 .
# `podman build --from IMAGE` replaces only the first FROM (the build stage); the run stage still takes RUNTIME_BASE.
# --format docker keeps the HEALTHCHECK (podman's default OCI format drops it).
ARG BUILD_BASE=eclipse-temurin:17-jdk
ARG RUNTIME_BASE=eclipse-temurin:17-jre

# ---- build: the same ./mvnw package as the README (tests run in CI, not in the image build) ----
FROM ${BUILD_BASE} AS build
# npm: the engine's pinned package (below); curl: ./mvnw fetches Maven itself
RUN apt-get update && apt-get install -y --no-install-recommends npm curl ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN ./mvnw -q -B dependency:go-offline
COPY src/ src/
RUN ./mvnw -q -B package -DskipTests \
 && mkdir -p /out/lib \
 && cp target/lib/*.jar /out/lib/ \
 && cp "$(ls target/dpone-*.jar | grep -v -e sources -e tests | head -1)" /out/dpone.jar \
 && mkdir -p /out/jolokia && cp target/jolokia/jolokia-agent.jar /out/jolokia/
# the embedded engine: the pinned npm package, checked against its integrity hash (ChdbInstaller), as at run time
RUN DPONE_CACHE_DIR=/tmp/dpone-cache java -cp '/out/dpone.jar:/out/lib/*' io.dpone.clickhouse.chdb.ChdbInstaller /out/chdb \
 && rm -rf /tmp/dpone-cache
COPY examples/ /out/examples/

# ---- run: JRE 17, non-root, state on a volume ----
FROM ${RUNTIME_BASE}
RUN groupadd --system --gid 10001 dpone \
 && useradd --system --uid 10001 --gid dpone --home-dir /var/lib/dpone --shell /usr/sbin/nologin dpone \
 && mkdir -p /opt/dpone /etc/dpone/routes /var/lib/dpone \
 && chown -R dpone:dpone /var/lib/dpone \
 && printf '%s\n' '#!/bin/sh' '# dpone in the image: JAVA_OPTS (the image default, or -e JAVA_OPTS=...) and the CLI' \
      'exec java $JAVA_OPTS -cp "/opt/dpone/dpone.jar:/opt/dpone/lib/*" io.dpone.cli.DponeCli "$@"' \
      > /usr/local/bin/dpone \
 && chmod 755 /usr/local/bin/dpone
COPY --from=build /out/ /opt/dpone/
ENV DPONE_HOME=/var/lib/dpone \
    DPONE_CACHE_DIR=/var/lib/dpone/cache \
    DPONE_CHDB_LIBRARY=/opt/dpone/chdb/libchdb.so \
    JAVA_OPTS="-Xmx1g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC -XX:+ExitOnOutOfMemoryError"
VOLUME ["/var/lib/dpone"]
WORKDIR /var/lib/dpone
USER 10001:10001
# 8080: management HTTP (health /observe/health/live|ready, metrics /observe/metrics); 9010: JMX (when enabled)
EXPOSE 8080 9010
# liveness of a serving container, without curl in the image: bash's /dev/tcp asks the management port
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /observe/health/live HTTP/1.0\\r\\n\\r\\n' >&3 && head -1 <&3 | grep -q ' 200 '"]
# /usr/local/bin/dpone is a sh script so JAVA_OPTS expands; its `exec` makes java PID 1, so SIGTERM reaches the JVM's
# shutdown hook. Several commands in one container (the README's demo, no volume): --entrypoint sh ... -c 'dpone ...'
ENTRYPOINT ["/usr/local/bin/dpone"]
CMD ["serve", "--config", "/etc/dpone/serve.yaml", "--log-format", "json"]
