package io.dpone.discover;

import io.dpone.source.TablePatterns;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpone.connect.ConnectionContext;
import io.dpone.connect.ConnectionType;
import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.error.DponeException;
import io.dpone.manifest.Identifier;
import io.dpone.report.BuildInfo;
import io.dpone.report.Json;
import io.dpone.report.ReportWriter;
import io.dpone.source.JdbcSourceReader;
import io.dpone.source.SourceCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code dpone discover}: reads a source's catalogue (never a row) and writes, under the output directory,
 * {@code catalog.json} ({@link Catalog}), one batch manifest per movable table under {@code manifests/}, a serve
 * configuration {@code serve.yaml} running them, and {@code summary.md}. Generated files edited by hand are kept
 * ({@link GeneratedFiles}).
 */
public final class Discovery {
    public static final String CATALOG_FILE = "catalog.json";
    public static final String SUMMARY_FILE = "summary.md";
    public static final String SERVE_FILE = "serve.yaml";
    public static final String MANIFESTS = "manifests";
    /** The longest catalog.json a rerun reads back for its digests. */
    static final long MAX_CATALOG_BYTES = 64L * 1024 * 1024;

    /** What to discover and where to write it. {@code targetDatabase} null: each table into its schema's name. */
    public record Request(String sourceAlias, String sinkAlias, String targetDatabase, List<String> include,
                          List<String> exclude, Path output) {
        public Request {
            include = List.copyOf(include);
            exclude = List.copyOf(exclude);
        }
    }

    /** The catalog written and the summary's text. */
    public record Result(Catalog catalog, String summary) {
    }

    private Discovery() {
    }

    /**
     * Runs discover. Throws {@link DponeException} for what stops it before anything is written (an unknown or
     * mistyped alias, an invalid target database, an unreadable catalogue) and {@link IllegalArgumentException} for
     * a malformed pattern.
     */
    public static Result run(Request req, ConnectionContext ctx) {
        TablePatterns patterns = TablePatterns.of(req.include(), req.exclude());
        List<Blocker> blockers = new ArrayList<>();
        ctx.check(req.sourceAlias(), ConnectionType.MSSQL, "--connection").ifPresent(blockers::add);
        ctx.check(req.sinkAlias(), ConnectionType.CLICKHOUSE, "--sink").ifPresent(blockers::add);
        if (req.targetDatabase() != null && !Identifier.valid(req.targetDatabase())) {
            blockers.add(Blocker.of(BlockerCode.MANIFEST_INVALID_IDENTIFIER, "--target-database",
                "target database must be letters, digits and '_', starting with a letter or '_', at most 128"));
        }
        if (Files.exists(req.output()) && !Files.isDirectory(req.output())) {
            blockers.add(Blocker.of(BlockerCode.DISCOVER_OUTPUT_INVALID, "--output",
                "the output path exists and is not a directory"));
        }
        if (!blockers.isEmpty()) {
            throw new DponeException(blockers);
        }
        Map<String, Catalog.FileEntry> before = previousFiles(req.output());
        Map<String, String> digests = new HashMap<>();
        before.values().forEach(f -> {
            if (f.sha256() != null) {
                digests.put(f.path(), f.sha256());
            }
        });
        List<TableClassifier.Outcome> outcomes = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        SourceCatalog.Listing listing;
        try (JdbcSourceReader reader = JdbcSourceReader.open(ctx.resolve(req.sourceAlias(), ConnectionType.MSSQL,
            "--connection"))) {
            SourceCatalog catalog = reader.catalog();
            listing = catalog.list();
            List<SourceCatalog.Table> selected = new ArrayList<>();
            for (SourceCatalog.Table t : listing.tables()) {
                if (patterns.selects(t.schema(), t.name())) {
                    selected.add(t);
                } else {
                    excluded.add(t.schema() + "." + t.name());
                }
            }
            Map<String, Catalog.Target> targets = targets(selected, req.targetDatabase());
            for (SourceCatalog.Table t : selected) {
                outcomes.add(TableClassifier.classify(reader, catalog, t, targets.get(key(t))));
            }
        }
        try {
            Files.createDirectories(req.output().resolve(MANIFESTS));
        } catch (IOException e) {
            throw new DponeException(BlockerCode.DISCOVER_OUTPUT_INVALID, "--output",
                "cannot create the output directory (" + e.getClass().getSimpleName() + ")");
        }
        GeneratedFiles files = new GeneratedFiles(req.output(), digests);
        List<Catalog.TableEntry> tables = new ArrayList<>();
        List<String[]> jobs = new ArrayList<>();
        for (TableClassifier.Outcome o : outcomes) {
            Catalog.TableEntry t = o.entry();
            if (t.verdict().equals("blocked")) {
                tables.add(t);
                continue;
            }
            String name = jobName(t.schema(), t.name());
            String path = MANIFESTS + "/" + t.schema() + "." + t.name() + ".batch.yaml";
            files.write(path, "manifest", t.schema() + "." + t.name(), GeneratedText.manifest(t, name,
                req.sourceAlias(), req.sinkAlias(), o.policies()));
            jobs.add(new String[] {name, path});
            tables.add(new Catalog.TableEntry(t.schema(), t.name(), t.verdict(), t.columns(), t.primaryKey(),
                t.uniqueKeys(), t.estimatedRows(), t.estimatedBytes(), t.cdc(), t.recommended(), t.target(),
                t.blockers(), t.notes(), path));
        }
        files.write(SERVE_FILE, "serve_config", null, GeneratedText.serveConfig(jobs));
        files.retire(before);
        int exact = (int) tables.stream().filter(t -> t.verdict().equals("exact")).count();
        int policy = (int) tables.stream().filter(t -> t.verdict().equals("policy")).count();
        int blocked = (int) tables.stream().filter(t -> t.verdict().equals("blocked")).count();
        SourceCatalog.Provenance p = listing.provenance();
        Catalog catalog = new Catalog(Catalog.SCHEMA, BuildInfo.version(), req.sourceAlias(), req.sinkAlias(),
            req.targetDatabase(), req.include(), req.exclude(), new Catalog.Provenance(p.tables(), p.rows(),
                p.bytes(), p.cdc(), p.changeTracking()),
            new Catalog.Counts(tables.size(), exact, policy, blocked, excluded.size(), jobs.size()), tables, excluded,
            files.entries());
        ReportWriter.writeJson(req.output().resolve(CATALOG_FILE), catalog);
        String summary = Summary.markdown(catalog);
        ReportWriter.writeMarkdown(req.output().resolve(SUMMARY_FILE), summary);
        return new Result(catalog, summary);
    }

    /**
     * The ClickHouse table of each selected table: its name in {@code database} (default: its schema's name); two
     * tables that would land on one name both take {@code <schema>_<table>}.
     */
    static Map<String, Catalog.Target> targets(List<SourceCatalog.Table> tables, String database) {
        Map<String, Integer> uses = new HashMap<>();
        for (SourceCatalog.Table t : tables) {
            uses.merge(((database == null ? t.schema() : database) + "." + t.name()).toLowerCase(Locale.ROOT), 1,
                Integer::sum);
        }
        Map<String, Catalog.Target> out = new LinkedHashMap<>();
        for (SourceCatalog.Table t : tables) {
            String db = database == null ? t.schema() : database;
            boolean clash = uses.get((db + "." + t.name()).toLowerCase(Locale.ROOT)) > 1;
            out.put(key(t), new Catalog.Target(db, clash ? t.schema() + "_" + t.name() : t.name()));
        }
        return out;
    }

    /** A serve job and pipeline name for a table: {@code schema-table}, shortened with a digest past 64. */
    static String jobName(String schema, String table) {
        String name = (schema + "-" + table).replaceAll("[^A-Za-z0-9_-]", "_");
        if (!Character.isLetterOrDigit(name.charAt(0))) {
            name = "t" + name;
        }
        if (name.length() > 64) {
            String digest = GeneratedFiles.sha256((schema + "." + table).getBytes(StandardCharsets.UTF_8));
            name = name.substring(0, 55) + "-" + digest.substring(0, 8);
        }
        return name;
    }

    private static String key(SourceCatalog.Table t) {
        return (t.schema() + "." + t.name()).toLowerCase(Locale.ROOT);
    }

    /**
     * The files the previous catalog.json in {@code output} records, by path; none when there is no readable one
     * (then every existing file counts as edited and is kept: the safe side).
     */
    static Map<String, Catalog.FileEntry> previousFiles(Path output) {
        Map<String, Catalog.FileEntry> files = new LinkedHashMap<>();
        Path file = output.resolve(CATALOG_FILE);
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_CATALOG_BYTES) {
                return files;
            }
            JsonNode root = Json.MAPPER.readTree(file.toFile());
            if (!Catalog.SCHEMA.equals(root.path("schema").asText()) || !root.path("files").isArray()) {
                return files;
            }
            for (JsonNode f : root.path("files")) {
                String path = f.path("path").asText(null);
                if (GeneratedFiles.safe(path)) {
                    files.put(path, new Catalog.FileEntry(path, f.path("kind").asText(null),
                        f.path("table").asText(null), f.path("sha256").isTextual() ? f.path("sha256").asText() : null,
                        f.path("state").asText(null), null));
                }
            }
        } catch (IOException | RuntimeException e) {
            files.clear(); // unreadable: keep every existing file
        }
        return files;
    }
}
