#!/usr/bin/env bash
# CPU seconds of one process by thread group, from the kernel's per-thread accounting (/proc/PID/task/TID/stat,
# utime + stime): the figure that holds on a pod whose SQL Server and ClickHouse live elsewhere is dpone's own CPU
# per row, apart from the source driver's and the engine's. bench/routes.sh uses it for every route run.
#
#   bench/thread-cpu.sh sample PID OUT          every 0.5 s until PID exits, append each thread's CPU ticks to OUT
#   bench/thread-cpu.sh sample-java PID OUT     the same for the first java process at or below PID (time -v ...
#                                               bin/dpone: time, then bash unless it exec'd, then java)
#   bench/thread-cpu.sh summarize OUT ROWS [TOTAL_CPU_S [FROM_MS TO_MS]]
#                                               one line: CPU seconds per group, and dpone's own per million rows;
#                                               with FROM_MS TO_MS (epoch milliseconds: the report's started_at and
#                                               finished_at) also window_cpu_s, the process's CPU between the last
#                                               sample at or before FROM_MS and the first at or after TO_MS (so at
#                                               most 0.5 s of JVM start or exit on either side)
#
# A thread is counted at its last sample, so a thread that ends between two samples loses at most 0.5 s of CPU;
# a pooled thread that runs several tasks is split by the name it had at each sample.
# TOTAL_CPU_S (user + sys of the whole process, from time -v) shows what no sample saw as "unsampled".
# Groups, by the thread's kernel name (Java sets it from the thread name, cut to 15 characters):
#   source   dpone-source-fetch*: the JDBC driver (here the embedded H2 engine runs on this thread too)
#   encoder  dpone-chunk-encoder: RowBinary/TSV/Parquet encoding, the source-side hashes, spooling
#   route    the thread that runs the route ("java", the CLI's main thread, or a Camel thread): loads, gates and
#            the embedded engine's work done inside its calls
#   jit      C1/C2 compiler threads;  gc  GC and VM threads
#   java     every other JVM thread (Camel, HTTP, logging, S3 client and the in-process S3 server, ...)
#   engine   every thread the JVM did not name: the embedded ClickHouse's own pools
# dpone's own = encoder + route + jit + gc + java (the route group includes the engine's in-call work, so this is
# an upper bound); it excludes source and engine.
set -euo pipefail

case "${1:-}" in
  sample-java)
    pid="$2"
    for _ in $(seq 1 100); do
      [ "$(cat /proc/"$pid"/comm 2>/dev/null || true)" = java ] && exec "$0" sample "$pid" "$3"
      child="$(pgrep -P "$pid" | head -1 || true)"
      if [ -n "$child" ]; then pid="$child"; else sleep 0.1; fi
      kill -0 "$pid" 2>/dev/null || exit 0
    done
    ;;
  sample)
    pid="$2" out="$3"
    : >"$out"
    while kill -0 "$pid" 2>/dev/null; do
      printf '#T\t%s\n' "$(date +%s%3N)" >>"$out"
      # comm sits between the first "(" and the last ")"; utime and stime are fields 14 and 15
      awk '{ line = $0; o = index(line, "("); c = 0
             for (i = length(line); i > o; i--) if (substr(line, i, 1) == ")") { c = i; break }
             comm = substr(line, o + 1, c - o - 1); n = split(substr(line, c + 2), f, " ")
             printf "%s\t%d\t%s\n", $1, f[12] + f[13], comm }' /proc/"$pid"/task/*/stat 2>/dev/null >>"$out" || true
      sleep 0.5
    done
    ;;
  summarize)
    out="$2" rows="$3" total="${4:-}" from="${5:-}" to="${6:-}"
    hz="$(getconf CLK_TCK)"
    awk -F'\t' -v hz="$hz" -v rows="$rows" -v total="$total" -v from="$from" -v to="$to" '
      # a sample block starts with its time; the window takes the ticks of each thread at the last block at or before
      # FROM (0 for a thread born later) from its ticks at the first block at or after TO
      $1 == "#T" { t = $2 + 0; next }
      from != "" && t <= from + 0 { base[$1] = $2 }
      from != "" && (!ended || t == endt) { fin[$1] = $2; if (t >= to + 0) { ended = 1; endt = t } }
      # a pooled thread changes its name with its task (a source fetch, then Camel work): each interval between
      # two samples goes to the name the thread had at the start of it
      { name = ($1 in comm) ? comm[$1] : $3; d = $2 - ticks[$1]
        if (d > 0) { cpu[group(name)] += d / hz; sum += d / hz; ticks[$1] = $2 }
        comm[$1] = $3 }
      function group(c) {
        if (c ~ /^dpone-source-f/) return "source"
        if (c ~ /^dpone-chunk-en/) return "encoder"
        if (c ~ /^C[12] CompilerThre/) return "jit"
        if (c ~ /^(GC Thread|G1 |VM Thread|VM Periodic|ParGC|Service Thread|Monitor Deflati|Sweeper)/) return "gc"
        if (c == "java" || c ~ /^Camel \(/) return "route"
        if (c ~ /^(dpone-|Camel|main|Reference Handl|Finalizer|Signal Dispatch|Common-Cleaner|Notification Th|Attach Listener|JNA|pool-|ForkJoinPool|Timer|process reaper|RMI|JMX|logback|HttpClient|sdk-|aws-|Thread-|qtp|s3proxy|idle-timeout|Scheduler|Connector|jetty|Jetty|H2 |DestroyJavaVM|Keep-Alive|Cleaner|Log4j|Okio|OkHttp|netty|Java2D)/) return "java"
        return "engine"
      }
      END {
        own = cpu["encoder"] + cpu["route"] + cpu["jit"] + cpu["gc"] + cpu["java"]
        printf "cpu_s source=%.1f encoder=%.1f route=%.1f engine=%.1f jit=%.1f gc=%.1f java=%.1f", cpu["source"],
          cpu["encoder"], cpu["route"], cpu["engine"], cpu["jit"], cpu["gc"], cpu["java"]
        if (total != "") printf " unsampled=%.1f", (total - sum > 0 ? total - sum : 0)
        if (from != "") {
          for (id in fin) w += (fin[id] - base[id]) / hz
          printf " window_cpu_s=%.1f", w
        }
        printf " dpone_own_per_M_rows=%.2f source_per_M_rows=%.2f\n", (rows > 0 ? own * 1e6 / rows : 0),
          (rows > 0 ? cpu["source"] * 1e6 / rows : 0)
      }' "$out"
    ;;
  *)
    echo "usage: bench/thread-cpu.sh sample PID OUT | summarize OUT ROWS [TOTAL_CPU_S]" >&2
    exit 2
    ;;
esac
