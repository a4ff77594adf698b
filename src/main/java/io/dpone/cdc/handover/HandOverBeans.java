package io.dpone.cdc.handover;

import io.dpone.camel.DponeBeans;
import java.util.Map;

/** The CDC hand-over's steps of the {@code full_refresh} route, bound by name ({@code META-INF/services}). */
public final class HandOverBeans implements DponeBeans {
    @Override
    public Map<String, Object> beans() {
        return Map.of("handOverPosition", new HandOverPositionProcessor(),
            "handOverCommit", new HandOverCommitProcessor());
    }
}
