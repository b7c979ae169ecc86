package io.healthmesh.aggregator.query;

import io.healthmesh.aggregator.domain.TargetHistory;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSON shape of a target's recent history: its entries at or after {@code since}, oldest first, each a result
 * applied ({@code kind: "result"}: region, outcome, latency, detail) or a status change ({@code kind: "status"}:
 * from, to).
 */
public record HistoryView(String targetId, long sinceMs, int kept, List<EntryView> entries) {

    /** One entry; fields that do not apply to its kind are {@code null}. */
    public record EntryView(String kind, long atMs, String region, String outcome, Long latencyMicros, String detail,
                            String from, String to) {
    }

    /** The view of {@code history} from {@code sinceMs} on. */
    public static HistoryView of(String targetId, TargetHistory history, long sinceMs) {
        List<EntryView> entries = new ArrayList<>();
        for (TargetHistory.Entry e : history.since(sinceMs)) {
            if (e instanceof TargetHistory.Result r) {
                entries.add(new EntryView("result", r.atMs(), r.region(), r.outcome().name(), r.latencyMicros(),
                        r.detail(), null, null));
            } else if (e instanceof TargetHistory.StatusChange c) {
                entries.add(new EntryView("status", c.atMs(), null, null, null, null,
                        c.from() == null ? null : c.from().name(), c.to().name()));
            }
        }
        return new HistoryView(targetId, sinceMs, history.entries().size(), entries);
    }
}
