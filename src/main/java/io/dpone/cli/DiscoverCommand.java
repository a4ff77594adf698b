package io.dpone.cli;

import io.dpone.connect.ConnectionContext;
import io.dpone.discover.Catalog;
import io.dpone.discover.Discovery;
import io.dpone.error.DponeException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dpone discover --connection SRC --sink SINK --output DIR}: the source's catalogue (never a row) as
 * {@code catalog.json}, one manifest per movable table, a serve configuration and a summary (docs/discover.md).
 */
@Command(name = "discover", mixinStandardHelpOptions = true,
    description = "Read a source database's catalogue (no rows) and write a catalog, one manifest per movable table, "
        + "a serve configuration and a summary.")
public final class DiscoverCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--connection", required = true, paramLabel = "SRC", description = "The source (mssql) alias.")
    String source;

    @Option(names = "--sink", required = true, paramLabel = "SINK", description = "The ClickHouse alias the "
        + "manifests load into.")
    String sink;

    @Option(names = "--target-database", paramLabel = "DB", description = "The ClickHouse database of every table "
        + "(default: each table's schema name).")
    String targetDatabase;

    @Option(names = "--include", paramLabel = "PATTERN", description = "Only tables matching this glob on "
        + "schema.table (or table); repeatable.")
    List<String> include = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "PATTERN", description = "Leave out tables matching this glob; "
        + "repeatable.")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--output", required = true, paramLabel = "DIR", description = "Where the catalog, manifests, "
        + "serve configuration and summary are written; a rerun keeps hand-edited files.")
    Path output;

    @Option(names = "--format", defaultValue = "text", description = "json or text (default: ${DEFAULT-VALUE})")
    Format format;

    @Override
    public Integer call() {
        Discovery.Result result;
        try {
            result = Discovery.run(new Discovery.Request(source, sink, targetDatabase, include, exclude, output),
                ConnectionContext.fromEnvironment());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (DponeException e) {
            return Output.emit(false, Map.of("schema", Catalog.SCHEMA, "passed", false, "blockers", e.blockers()),
                "discover blocked:\n" + Output.blockersText(e.blockers()), format);
        }
        Catalog.Counts n = result.catalog().counts();
        long kept = result.catalog().files().stream().filter(f -> f.state().equals("kept_edited")).count();
        String text = "discover: " + n.tables() + " table(s): " + n.exact() + " exact, " + n.policy()
            + " under a value policy, " + n.blocked() + " blocked" + (n.excluded() > 0 ? ", " + n.excluded()
            + " excluded" : "") + "; " + n.manifests() + " manifest(s)"
            + (kept > 0 ? "; " + kept + " hand-edited file(s) kept, proposals beside them (*.proposed)" : "")
            + "\n  catalog " + Discovery.CATALOG_FILE + ", summary " + Discovery.SUMMARY_FILE + ", serve "
            + Discovery.SERVE_FILE + " in the output directory\n";
        return Output.emit(true, result.catalog(), text, format);
    }
}
