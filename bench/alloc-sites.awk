# bench/alloc-profile.sh: jfr print --events jdk.ObjectAllocationSample --stack-depth 64 F.jfr | awk -f bench/alloc-sites.awk
# sums sample weights by role (the stack's dpone entry point) and by site (class @ top frame <- first dpone frame)
/^jdk.ObjectAllocationSample/ { inst = 0; top = ""; dp = ""; role = "other" }
/objectClass = / { c = $3 }
/weight = / { w = $3; u = $4; m = (u ~ /kB/ ? 1024 : u ~ /MB/ ? 1048576 : u ~ /GB/ ? 1073741824 : 1); w *= m }
/stackTrace = \[/ { inst = 1; next }
inst && /line:/ { f = $0; gsub(/^[ \t]+/, "", f); sub(/\(.*/, "", f); if (top == "") top = f
  if (dp == "" && f ~ /^io\.dpone/) dp = f
  if (f ~ /RowPrefetcher.read$/) role = "source-thread"
  else if (f ~ /ChunkProducer.produce$/ && role == "other") role = "encoder-thread"
  else if (f ~ /FileStore.lambda.storeIt|MVStore/ && role == "other") role = "h2-store" }
inst && /^  \]/ { inst = 0; k = c " @ " top " <- " dp; s[role " | " k] += w; r[role] += w; all += w }
END {
  for (k in r) printf "role %.0f MB %s\n", r[k] / 1048576, k
  for (k in s) printf "%.0f MB %s\n", s[k] / 1048576, k | "sort -nr | head -40"
  close("sort -nr | head -40")
  printf "all %.0f MB\n", all / 1048576 }
