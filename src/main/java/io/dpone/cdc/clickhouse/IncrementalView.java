package io.dpone.cdc.clickhouse;

import io.dpone.cdc.CdcHashes;
import io.dpone.cdc.clickhouse.CdcMaterializer.Incremental;
import io.dpone.cdc.clickhouse.CdcMaterializer.Options;
import io.dpone.clickhouse.ClickHouseEndpoint;
import io.dpone.clickhouse.TableAdmin;
import io.dpone.clickhouse.cdc.ServingView;
import io.dpone.error.Blocker;
import io.dpone.error.DponeException;
import java.util.Map;
import java.util.Optional;

/**
 * How an incremental target is published: as a view over the versioned table ({@link ServingView} builds its
 * {@code SELECT} and runs the statements), created when the target is missing, replaced over the materializer's own
 * view when its query changed, or exchanged with the rebuild's table (which is then dropped).
 */
final class IncrementalView {
    private final ClickHouseEndpoint ch;
    private final Options o;
    private final String[] target;
    private final ServingView.Source source;

    IncrementalView(ClickHouseEndpoint ch, Options o, String[] target, ServingView.Source source) {
        this.ch = ch;
        this.o = o;
        this.target = target;
        this.source = source;
    }

    /**
     * Whether the view reads with {@code SELECT ... FINAL} ({@code auto} or {@code final}, the default: measured many
     * times faster on chDB, see docs/performance.md) rather than grouping by key with {@code argMax} of the row
     * ({@code argmax}).
     */
    static boolean useFinal(Incremental settings) {
        String v = settings.servingView() == null ? "auto" : settings.servingView();
        return switch (v) {
            case "auto", "final" -> true;
            case "argmax" -> false;
            default -> throw new DponeException(new Blocker(CdcMaterializer.INVALID_ARGUMENT, "--serving-view",
                "auto, final or argmax", Map.of()));
        };
    }

    /**
     * Publishes the view: {@code CREATE VIEW} when the target is missing, {@code CREATE OR REPLACE VIEW} over the
     * materializer's own view, {@code EXCHANGE} with the rebuild's table (which is then dropped).
     */
    String publish(boolean useFinal) {
        String select = ServingView.select(source, useFinal);
        // the comment carries a digest of the view's query: an unchanged view is not replaced (one statement less
        // per run)
        String comment = CdcMaterializer.TARGET_MARKER + " source=" + o.cdcDataset() + " delete_mode="
            + o.deleteMode().name() + " mode=incremental view=" + CdcHashes.sha256Hex(select).substring(0, 16);
        ServingView views = new ServingView(ch, target[0]);
        Optional<ServingView.Existing> existing = views.existing(target[1]);
        if (existing.isEmpty()) {
            views.create(target[1], select, comment);
            return "view_created";
        }
        if ("View".equals(existing.get().engine())) {
            if (comment.equals(existing.get().comment())) {
                return "view_unchanged";
            }
            views.replace(target[1], select, comment);
            return "view_replaced";
        }
        TableAdmin admin = new TableAdmin(ch);
        String stage = IncrementalServing.name(target[1] + CdcMaterializer.STAGE_SUFFIX);
        admin.drop(target[0], stage);
        views.create(stage, select, comment);
        admin.exchange(target[0], stage, target[0], target[1]);
        admin.drop(target[0], stage);
        return "view_exchanged";
    }
}
