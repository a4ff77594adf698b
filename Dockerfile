# dpone as a camel-main pod: `dpone serve` (see docs/operations.md, "Container").
#   docker build -t dpone:0.1.0 .
#   docker run --rm -p 8080:8080 -v $PWD/examples/serve:/etc/dpone:ro dpone:0.1.0 serve --config /etc/dpone/serve.yaml
# The image holds no credentials and no embedded ClickHouse engine: a pod reaches real servers through the
# connection context (DPONE_RUNTIME_CONNECTION_CONTEXT, mounted from a Secret). To use the embedded engine anyway,
# mount a libchdb.so and set DPONE_CHDB_LIBRARY.

# ---- build: the same ./mvnw package as the README (tests run in CI, not in the image build) ----
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY .mvn/ .mvn/
COPY mvnw pom.xml ./
RUN ./mvnw -q -B dependency:go-offline
COPY src/ src/
RUN ./mvnw -q -B package -DskipTests \
 && mkdir -p /out/lib \
 && cp target/lib/*.jar /out/lib/ \
 && cp "$(ls target/dpone-*.jar | grep -v -e sources -e tests | head -1)" /out/dpone.jar

# ---- run: JRE 17, non-root, state on a volume ----
FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 dpone \
 && useradd --system --uid 10001 --gid dpone --home-dir /var/lib/dpone --shell /usr/sbin/nologin dpone \
 && mkdir -p /opt/dpone /etc/dpone/routes /var/lib/dpone \
 && chown -R dpone:dpone /var/lib/dpone
COPY --from=build /out/ /opt/dpone/
ENV DPONE_HOME=/var/lib/dpone \
    DPONE_CACHE_DIR=/var/lib/dpone/cache \
    JAVA_OPTS="-Xmx1g -Xmn192m -XX:-UseAdaptiveSizePolicy -XX:SurvivorRatio=4 -XX:+UseParallelGC -XX:+ExitOnOutOfMemoryError"
VOLUME ["/var/lib/dpone"]
WORKDIR /var/lib/dpone
USER 10001:10001
# 8080: management HTTP (health /observe/health/live|ready, metrics /observe/metrics); 9010: JMX (when enabled)
EXPOSE 8080 9010
# exec form through sh so JAVA_OPTS expands; `exec` makes java PID 1, so SIGTERM reaches the JVM's shutdown hook
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -cp '/opt/dpone/dpone.jar:/opt/dpone/lib/*' io.dpone.cli.DponeCli \"$@\"", "dpone"]
CMD ["serve", "--config", "/etc/dpone/serve.yaml", "--log-format", "json"]
