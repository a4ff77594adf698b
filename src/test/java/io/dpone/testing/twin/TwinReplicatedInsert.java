package io.dpone.testing.twin;

import io.dpone.clickhouse.chdb.ChdbConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A data insert into a replicated table on the replica that receives it, as ClickHouse's replicated sink: the
 * insert is one block whose id is {@code all_<hash>} of its {@code insert_deduplication_token} (of its statement
 * and rows when it has none; a random id with {@code insert_deduplicate = 0}). A block id already in the table's
 * {@code blocks/} is an insert already made: nothing is inserted and the insert succeeds. Otherwise the block is
 * inserted locally, kept for the other replicas to fetch, and committed in one Keeper transaction with its log entry.
 * Stopped between the local insert and the commit, the client sees a failure; its retry inserts locally again (the
 * table's local deduplication window makes that a no-op) and commits.
 */
final class TwinReplicatedInsert {
    private TwinReplicatedInsert() {
    }

    static ChdbConnection.Result insert(TwinReplication rep, TwinRequest request, String statement,
                                        TwinReplicationSql.Name target, TwinReplicatedTables.Replica r,
                                        InputStream body) throws Exception {
        Path spool = rep.tables().spool(r.uuid());
        try {
            try (OutputStream out = Files.newOutputStream(spool)) {
                body.transferTo(out);
            }
            String block = blockId(request, statement, spool);
            if (rep.log().hasBlock(r.zkPath(), block)) {
                // "Block with ID ... already exists locally as part ...; ignoring it": a success that writes nothing
                return new ChdbConnection.Result(new byte[0], 0, 0, 0, 0, 0);
            }
            synchronized (rep.lock()) {
                ChdbConnection.Result result;
                try (InputStream in = Files.newInputStream(spool)) {
                    result = rep.engine().insert(request, statement, in);
                }
                Path kept = rep.tables().block(r.uuid(), block);
                Files.createDirectories(kept.getParent());
                Files.move(spool, kept, StandardCopyOption.REPLACE_EXISTING);
                Map<String, String> settings = new LinkedHashMap<>(request.settings());
                settings.remove("readonly");
                rep.log().commit(r.zkPath(), block, new TwinReplicaLog.Entry(-1, block, r.name(),
                    statement.substring(0, target.start()), statement.substring(target.end()), settings));
                return result;
            }
        } finally {
            Files.deleteIfExists(spool);
        }
    }

    /** {@code all_} and 32 hex digits: of the token, else of the statement without its table and the rows. */
    static String blockId(TwinRequest request, String statement, Path rows) throws IOException {
        if ("0".equals(TwinReplicationSql.setting(request, statement, "insert_deduplicate"))) {
            return "all_" + UUID.randomUUID().toString().replace("-", "");
        }
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        String token = TwinReplicationSql.setting(request, statement, "insert_deduplication_token");
        if (token != null && !token.isEmpty()) {
            sha.update(("token\n" + token).getBytes(StandardCharsets.UTF_8));
        } else {
            TwinReplicationSql.insertTarget(statement, request.database()).ifPresent(t ->
                sha.update(("data\n" + statement.substring(t.end())).getBytes(StandardCharsets.UTF_8)));
            try (InputStream in = Files.newInputStream(rows)) {
                byte[] buf = new byte[65536];
                for (int n; (n = in.read(buf)) > 0;) {
                    sha.update(buf, 0, n);
                }
            }
        }
        return "all_" + HexFormat.of().formatHex(sha.digest()).substring(0, 32);
    }
}
