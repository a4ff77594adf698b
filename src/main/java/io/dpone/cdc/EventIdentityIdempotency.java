package io.dpone.cdc;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The default idempotency service. An event's identity is SHA-256 of the canonical JSON
 * {@code [backend, "schema.table", canonical position, sequence, operation]}; the position is canonical
 * ({@code 0x11} = {@code 0x0011}), so one change exported twice with different zero padding is still one change.
 */
public final class EventIdentityIdempotency implements CdcIdempotencyService {
    /**
     * The ids of the last {@link #check}'s apply set, by event instance: the sink applier of the same tick asks for
     * the same (immutable) events again and gets them without rehashing. Built fully, then published.
     */
    private volatile Memo memo;

    @Override
    public String eventId(StreamIdentity stream, CdcEvent event) {
        Memo m = memo;
        if (m != null && (m.stream() == stream || m.stream().equals(stream))) {
            String id = m.ids().get(event);
            if (id != null) {
                return id;
            }
        }
        return computeId(stream, event);
    }

    private static String computeId(StreamIdentity stream, CdcEvent event) {
        return computeId(idPrefix(stream, event), event);
    }

    /**
     * The canonical JSON of an event's identity up to its position: {@code ["<backend>","<schema.table>",} (the same
     * text {@link CdcHashes#canonicalJson} writes for those two strings, escapes included). The rest (canonical
     * position, sequence, operation name) never needs escaping, so {@link #computeId(String, CdcEvent)} appends it
     * directly: the same text as the canonical JSON of the whole five-element list ({@code CdcIdentityPinTest}).
     */
    private static String idPrefix(StreamIdentity stream, CdcEvent event) {
        String pair = CdcHashes.canonicalJson(List.of(stream.backend(),
            event.sourceSchema() + "." + event.sourceTable()));
        return pair.substring(0, pair.length() - 1) + ",\"";
    }

    private static String computeId(String prefix, CdcEvent event) {
        String canonical = event.positionValue().canonical();
        String op = event.operation().name();
        StringBuilder text = new StringBuilder(prefix.length() + canonical.length() + op.length() + 26);
        text.append(prefix).append(canonical).append("\",").append(event.sequence()).append(",\"").append(op)
            .append("\"]");
        return CdcHashes.sha256Hex(text.toString());
    }

    @Override
    public IdempotencyResult check(StreamIdentity stream, CdcBatch batch, Optional<CdcOffset> committed) {
        List<CdcEvent> changes = batch.changes();
        // a batch in strict change order (each event after the one before it: what the live readers return) cannot
        // repeat an identity: the order compares (position value, sequence, operation rank) and a different rank is a
        // different operation. Such a batch needs no map of the ids seen and no sort; any other batch takes both
        boolean strictlyOrdered = strictlyOrdered(changes);
        Map<String, Integer> firstSeen = strictlyOrdered ? null
            : new HashMap<>(Math.max(16, changes.size() * 4 / 3 + 1));
        List<Map<String, Object>> duplicates = new ArrayList<>();
        List<Identified> toApply = new ArrayList<>(changes.size());
        BigInteger committedAt = committed.map(c -> c.position().value()).orElse(null);
        int replayed = 0;
        String[] ids = ids(stream, changes);
        for (int i = 0; i < changes.size(); i++) {
            CdcEvent e = changes.get(i);
            String id = ids[i];
            Integer first = firstSeen == null ? null : firstSeen.putIfAbsent(id, i);
            if (first != null) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("event", "changes[" + i + "]");
                d.put("duplicate_of", "changes[" + first + "]");
                d.put("event_id", id);
                duplicates.add(d);
                continue;
            }
            if (committedAt != null && e.positionValue().value().compareTo(committedAt) <= 0) {
                replayed++;
            } else {
                toApply.add(new Identified(e, id));
            }
        }
        if (!strictlyOrdered) {
            // each id is computed once: the apply order sorts the (event, id) pairs
            toApply.sort(Comparator.comparing(Identified::event, CdcEvent.ORDER));
        }
        List<CdcEvent> events = new ArrayList<>(toApply.size());
        IdentityHashMap<CdcEvent, String> byEvent = new IdentityHashMap<>(toApply.size());
        for (Identified x : toApply) {
            events.add(x.event());
            byEvent.put(x.event(), x.id());
        }
        memo = new Memo(stream, byEvent);
        return new IdempotencyResult(batchId(stream, batch, committed, toApply), events, replayed, duplicates);
    }

    /**
     * The id of every change, in batch order: the hashing is per event and independent of the others, so slices of
     * the batch hash at once ({@link ParallelSlices}).
     */
    private static String[] ids(StreamIdentity stream, List<CdcEvent> changes) {
        String[] ids = new String[changes.size()];
        ParallelSlices.map(changes.size(), (from, to) -> {
            String prefix = null;
            CdcEvent prefixOf = null;
            for (int i = from; i < to; i++) {
                CdcEvent e = changes.get(i);
                if (prefixOf == null || !prefixOf.sourceSchema().equals(e.sourceSchema())
                    || !prefixOf.sourceTable().equals(e.sourceTable())) {
                    prefix = idPrefix(stream, e);
                    prefixOf = e;
                }
                ids[i] = computeId(prefix, e);
            }
            return to - from;
        });
        return ids;
    }

    /** True when every event comes strictly after the one before it in {@link CdcEvent#ORDER}. */
    private static boolean strictlyOrdered(List<CdcEvent> changes) {
        CdcEvent previous = null;
        BigInteger previousPosition = null;
        for (CdcEvent e : changes) {
            BigInteger p = e.positionValue().value();
            if (previous != null && CdcEvent.compare(previousPosition, previous, p, e) >= 0) {
                return false;
            }
            previous = e;
            previousPosition = p;
        }
        return true;
    }

    /**
     * The first 32 hex digits of SHA-256 of the canonical JSON {@code [stream id, committed token, next token, [apply
     * ids]]}: the prefix through the tokens as {@link CdcHashes#canonicalJson} writes it, then the ids (lower-case hex,
     * nothing to escape) fed to the digest as they are written, instead of one string of the whole batch.
     */
    private static String batchId(StreamIdentity stream, CdcBatch batch, Optional<CdcOffset> committed,
                                  List<Identified> toApply) {
        String head = CdcHashes.canonicalJson(List.of(stream.streamId(), committed.map(CdcOffset::token).orElse(""),
            batch.nextOffset() == null ? "" : batch.nextOffset().token()));
        MessageDigest md = CdcHashes.sha256();
        md.update(head.substring(0, head.length() - 1).getBytes(StandardCharsets.UTF_8));
        byte[] chunk = new byte[8192];
        int n = 0;
        chunk[n++] = ',';
        chunk[n++] = '[';
        for (int i = 0; i < toApply.size(); i++) {
            byte[] id = toApply.get(i).id().getBytes(StandardCharsets.ISO_8859_1); // hex digits: one byte each
            if (n + id.length + 4 > chunk.length) {
                md.update(chunk, 0, n);
                n = 0;
            }
            if (i > 0) {
                chunk[n++] = ',';
            }
            chunk[n++] = '"';
            System.arraycopy(id, 0, chunk, n, id.length);
            n += id.length;
            chunk[n++] = '"';
        }
        chunk[n++] = ']';
        chunk[n++] = ']';
        md.update(chunk, 0, n);
        return HexFormat.of().formatHex(md.digest()).substring(0, 32);
    }

    private record Identified(CdcEvent event, String id) {
    }

    private record Memo(StreamIdentity stream, IdentityHashMap<CdcEvent, String> ids) {
    }
}
