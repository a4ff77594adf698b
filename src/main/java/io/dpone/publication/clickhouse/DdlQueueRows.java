package io.dpone.publication.clickhouse;

import io.dpone.clickhouse.cluster.DistributedDdl.QueueRow;
import io.dpone.publication.MemberId;
import io.dpone.publication.protocol.DdlQueueEntry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One statement's entry from the rows of {@code system.distributed_ddl_queue} that
 * {@link io.dpone.clickhouse.cluster.DistributedDdl#entryRows} reads (bound by the {@code log_comment} marker). Each
 * row is one host of the entry: {@code host} is the host name and {@code port} the native port as the cluster definition
 * advertises them, which is exactly what {@link MemberId#of} digests.
 */
public final class DdlQueueRows {
    private DdlQueueRows() {
    }

    /**
     * The entry from its rows. Should a marker ever match two entries (it cannot unless the statement was sent
     * twice), the first entry is the bound one. Rows without a host (the entry is being written or removed) are
     * skipped; an entry without any host row is no entry.
     */
    public static Optional<DdlQueueEntry> entry(String cluster, String queryId, List<QueueRow> rows) {
        String first = null;
        Map<MemberId, DdlQueueEntry.Status> members = new TreeMap<>();
        for (QueueRow r : rows) {
            if (first == null) {
                first = r.entry();
            }
            if (!first.equals(r.entry()) || r.host() == null || r.host().isEmpty() || r.port() == null) {
                continue;
            }
            members.put(MemberId.of(cluster, r.host(), Integer.parseInt(r.port())),
                status(r.status(), r.exceptionCode()));
        }
        return members.isEmpty() ? Optional.empty() : Optional.of(new DdlQueueEntry(queryId, members));
    }

    /**
     * {@code Finished} with exception code 0 is FINISHED, with another code FAILED; {@code Active} is ACTIVE;
     * {@code Inactive}, {@code Unknown}, {@code Removing} or none is QUEUED (not known to have run).
     */
    static DdlQueueEntry.Status status(String status, String exceptionCode) {
        if ("Finished".equals(status)) {
            return exceptionCode == null || exceptionCode.isEmpty() || "0".equals(exceptionCode)
                || "\\N".equals(exceptionCode) ? DdlQueueEntry.Status.FINISHED : DdlQueueEntry.Status.FAILED;
        }
        if ("Active".equals(status)) {
            return DdlQueueEntry.Status.ACTIVE;
        }
        return DdlQueueEntry.Status.QUEUED;
    }
}
