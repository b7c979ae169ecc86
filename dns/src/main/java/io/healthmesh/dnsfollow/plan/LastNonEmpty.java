package io.healthmesh.dnsfollow.plan;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The "never empty" rule of the dns role, in one place: a name whose target is empty (no served member with a
 * usable address, or its group not, or no longer, in the followed state) keeps the last non-empty set this process
 * gave it; before any, the zone keeps what it holds (a restarted role does not know better than the zone). A DNS
 * name that answers nothing sends every client to an error, which no health verdict justifies. When the group's
 * view itself kept its last served members (the follower's part of the same rule), the name follows that set and
 * the episode is counted here too, so that one metric and one log line tell of every name held at a last set.
 * <p>
 * Not thread-safe: the reconciler's thread owns it.
 */
public final class LastNonEmpty {

    /**
     * What to hold a name to.
     *
     * @param records the set to hold the name to, or null to leave the zone as it is
     * @param kept true when the target was empty and an earlier set (or the zone's) is kept instead
     * @param episodeStarted true on the first decision of a kept episode (log it and count it once)
     * @param episodeEnded true on the first decision with a non-empty target after a kept episode
     */
    public record Decision(RecordSet records, boolean kept, boolean episodeStarted, boolean episodeEnded) {
    }

    private final Map<String, RecordSet> last = new HashMap<>();
    private final Set<String> keeping = new HashSet<>();

    public Decision decide(NameTarget target) {
        String name = target.mapping().name();
        if (!target.records().isEmpty()) {
            last.put(name, target.records());
            if (target.viewKeptLast()) {
                return new Decision(target.records(), true, keeping.add(name), false);
            }
            boolean ended = keeping.remove(name);
            return new Decision(target.records(), false, false, ended);
        }
        boolean started = keeping.add(name);
        return new Decision(last.get(name), true, started, false);
    }

    /** How many names are being kept at their last set now. */
    public int keeping() {
        return keeping.size();
    }
}
