# Sourced by the benches that run a bench/*.java file on the test classpath (cdc-freshness.sh, cdc-incremental.sh,
# cdc-verify.sh, soak.sh); expects the working directory at the project root. Compiles the tests, writes the test
# classpath once per pom change, sets test_cp, and prints the header line every such bench starts with.
./mvnw -q -B -o test-compile
[ -s target/cp-test.txt ] && [ target/cp-test.txt -nt pom.xml ] \
  || ./mvnw -q -B -o dependency:build-classpath -Dmdep.outputFile=target/cp-test.txt -Dmdep.includeScope=test >/dev/null
test_cp="target/classes:target/test-classes:$(cat target/cp-test.txt)"
echo "commit $(git rev-parse --short HEAD)$(git status --porcelain -- src | grep -q . && echo ' (src differs)' || true)," \
  "$(nproc) cores, $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
