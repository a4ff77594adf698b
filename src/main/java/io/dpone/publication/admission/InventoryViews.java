package io.dpone.publication.admission;

import io.dpone.error.Blocker;
import io.dpone.error.BlockerCode;
import io.dpone.publication.MemberId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares one admitted member's own {@code system.clusters} view of the publication cluster with the view read
 * through the sink connection (the inventory admission judged). A member that lists no rows is
 * {@code publication.inventory_incomplete}; one that lists other members, or places a member on another shard,
 * replica or {@code internal_replication} value, is {@code publication.inventory_views_differ}. Findings name
 * members only by their opaque ids.
 */
public final class InventoryViews {
    private InventoryViews() {
    }

    public static Optional<Blocker> compare(List<AdvertisedMember> entryView, MemberId member,
                                            List<AdvertisedMember> memberView) {
        if (memberView.isEmpty()) {
            return Optional.of(Blocker.of(BlockerCode.PUBLICATION_INVENTORY_INCOMPLETE, member.toString(),
                "system.clusters on member " + member + " holds no rows for the publication cluster",
                Map.of("member", member.toString())));
        }
        Map<MemberId, AdvertisedMember> expected = byId(entryView);
        Map<MemberId, AdvertisedMember> seen = byId(memberView);
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        List<String> placed = new ArrayList<>();
        expected.forEach((id, m) -> {
            AdvertisedMember s = seen.get(id);
            if (s == null) {
                missing.add(id.value());
            } else if (s.shardNum() != m.shardNum() || s.replicaNum() != m.replicaNum()
                || s.internalReplication() != m.internalReplication()) {
                placed.add(id.value());
            }
        });
        seen.keySet().stream().filter(id -> !expected.containsKey(id)).forEach(id -> extra.add(id.value()));
        if (missing.isEmpty() && extra.isEmpty() && placed.isEmpty() && memberView.size() == entryView.size()) {
            return Optional.empty();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("member", member.toString());
        details.put("members_in_admitted_view", entryView.size());
        details.put("members_in_member_view", memberView.size());
        details.put("missing_members", missing);
        details.put("extra_members", extra);
        details.put("differently_placed_members", placed);
        return Optional.of(Blocker.of(BlockerCode.PUBLICATION_INVENTORY_VIEWS_DIFFER, member.toString(),
            "member " + member + " defines the publication cluster differently from the sink connection ("
                + missing.size() + " missing, " + extra.size() + " extra, " + placed.size()
                + " on another shard, replica or internal_replication value)", details));
    }

    private static Map<MemberId, AdvertisedMember> byId(List<AdvertisedMember> view) {
        Map<MemberId, AdvertisedMember> map = new LinkedHashMap<>();
        view.forEach(m -> map.putIfAbsent(m.id(), m));
        return map;
    }
}
