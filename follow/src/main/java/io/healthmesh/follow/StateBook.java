package io.healthmesh.follow;

import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.schema.MaintenanceMode;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TargetHealth;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The pure part of following: the latest record of each key of the three state topics in, one {@link GroupView} per
 * group out. No Kafka, no threads; the {@link StateFollower} feeds it from its consumer and tests feed it by hand.
 * <p>
 * A group's members are the targets whose definition names it. A member is served when it is in the routable set of
 * the group's latest event (SPEC section 13): the event's own list of routable ids when the event carries it whole;
 * when the list was truncated (a huge group), the aggregator's rule applied to the members' state events and the
 * event's fail-open flag. Before a group's first event, no member is served unless its state makes it routable. When
 * that yields no member although the group served some before (events of one group and of its members arrive
 * on different partitions, so a follower can read one before the other), the view keeps the members it served last
 * that are still defined, and says so in {@link GroupView#keptLastServed()}.
 * <p>
 * Changes are gathered: each {@code apply} marks the groups it touches, and {@link #update()} recomputes only those.
 * Not thread-safe: one thread applies and updates.
 */
public final class StateBook {

    private record Definition(String group, String address, int port, int weight, String region,
                              Map<String, String> labels) {
    }

    /** A group event: its fail-open flag and, when complete, its routable ids (null when truncated). */
    private record GroupEvent(boolean failOpen, String failOpenReason, Set<String> routable) {
    }

    /** The result of {@link #update()}: the whole state, and the groups whose view changed since the last update. */
    public record Update(FollowedState state, Set<String> changedGroups) {
    }

    private final Map<String, Definition> definitions = new HashMap<>();
    private final Map<String, HealthStatus> statuses = new HashMap<>();
    /** Targets whose latest state event carries a DRAIN maintenance window. */
    private final Set<String> draining = new HashSet<>();
    private final Map<String, GroupEvent> events = new HashMap<>();
    private final Map<String, Set<String>> membersByGroup = new HashMap<>();
    private final TreeMap<String, GroupView> views = new TreeMap<>();
    private final Set<String> dirty = new HashSet<>();
    private FollowedState state = FollowedState.EMPTY;
    private long keptLastEpisodes;

    /** A definition, or its tombstone (null). Returns the groups it touched. */
    public Set<String> applyTarget(String targetId, TargetDefinition definition) {
        requireNonNull(targetId, "targetId");
        Set<String> touched = new HashSet<>(2);
        Definition before = definition == null ? definitions.remove(targetId) : definitions.get(targetId);
        if (before != null) {
            touched.add(before.group());
        }
        if (definition != null) {
            Definition after = definitionOf(definition);
            definitions.put(targetId, after);
            touched.add(after.group());
            if (before != null && !before.group().equals(after.group())) {
                leave(before.group(), targetId);
            }
            membersByGroup.computeIfAbsent(after.group(), g -> new HashSet<>()).add(targetId);
        } else if (before != null) {
            leave(before.group(), targetId);
        }
        dirty.addAll(touched);
        return touched;
    }

    /** A target's state event, or its tombstone (null). Returns the groups it touched. */
    public Set<String> applyHealth(String targetId, TargetHealth event) {
        requireNonNull(targetId, "targetId");
        if (event == null) {
            statuses.remove(targetId);
            draining.remove(targetId);
        } else {
            statuses.put(targetId, HealthStatus.valueOf(event.getStatus().name()));
            if (event.getMaintenance() != null && event.getMaintenance().getMode() == MaintenanceMode.DRAIN) {
                draining.add(targetId);
            } else {
                draining.remove(targetId);
            }
        }
        Definition d = definitions.get(targetId);
        if (d == null) {
            return Set.of();
        }
        dirty.add(d.group());
        return Set.of(d.group());
    }

    /** A group event, or its tombstone (null). Returns the group. */
    public Set<String> applyGroup(String groupId, GroupHealth event) {
        requireNonNull(groupId, "groupId");
        if (event == null) {
            events.remove(groupId);
        } else {
            Set<String> routable = event.getRoutableTruncated() ? null : Set.copyOf(event.getRoutable());
            events.put(groupId, new GroupEvent(event.getFailOpen(), event.getFailOpenReason(), routable));
        }
        dirty.add(groupId);
        return Set.of(groupId);
    }

    /** Recomputes the groups touched since the last update; returns the state and the groups whose view changed. */
    public Update update() {
        if (dirty.isEmpty()) {
            return new Update(state, Set.of());
        }
        Set<String> changed = new TreeSet<>();
        TreeMap<String, GroupView> next = new TreeMap<>(views);
        for (String group : dirty) {
            GroupView before = views.get(group);
            GroupView after = compute(group, before);
            if (after == null) {
                if (next.remove(group) != null) {
                    changed.add(group);
                }
            } else if (before == null || !before.version().equals(after.version())) {
                next.put(group, after);
                changed.add(group);
                if (after.keptLastServed() && (before == null || !before.keptLastServed())) {
                    keptLastEpisodes++;
                }
            } else if (!java.util.Objects.equals(before.failOpenReason(), after.failOpenReason())) {
                // only the reason changed: kept for logs and metrics, and the roles are told, but the version (what
                // is served) is the same, so a data plane that compares versions sends nothing
                next.put(group, after);
                changed.add(group);
            }
        }
        dirty.clear();
        views.clear();
        views.putAll(next);
        state = FollowedState.ofSorted(next);
        return new Update(state, changed);
    }

    /** The state as of the last {@link #update()}. */
    public FollowedState state() {
        return state;
    }

    /** How often a group started keeping its last served members (see {@link GroupView#keptLastServed()}). */
    public long keptLastEpisodes() {
        return keptLastEpisodes;
    }

    private GroupView compute(String group, GroupView before) {
        Set<String> ids = membersByGroup.getOrDefault(group, Set.of());
        GroupEvent event = events.get(group);
        if (ids.isEmpty() && event == null) {
            return null;
        }
        boolean failOpen = event != null && event.failOpen();
        List<Member> members = new ArrayList<>(ids.size());
        boolean anyServed = false;
        for (String id : ids) {
            Definition d = definitions.get(id);
            HealthStatus status = statuses.getOrDefault(id, HealthStatus.DETECTING);
            boolean served = event != null && event.routable() != null
                    ? event.routable().contains(id)
                    : GroupCounts.served(status, failOpen);
            anyServed |= served;
            members.add(new Member(id, d.address(), d.port(), d.weight(), d.region(), d.labels(), status, served,
                    draining.contains(id)));
        }
        boolean kept = false;
        if (!anyServed && before != null) {
            Set<String> last = new HashSet<>();
            before.served().forEach(m -> last.add(m.targetId()));
            for (int i = 0; i < members.size(); i++) {
                if (last.contains(members.get(i).targetId())) {
                    members.set(i, members.get(i).withServed(true));
                    kept = true;
                }
            }
        }
        return GroupView.of(group, failOpen, event == null ? null : event.failOpenReason(), members, kept);
    }

    private void leave(String group, String targetId) {
        Set<String> ids = membersByGroup.get(group);
        if (ids != null) {
            ids.remove(targetId);
            if (ids.isEmpty()) {
                membersByGroup.remove(group);
            }
        }
    }

    private static Definition definitionOf(TargetDefinition d) {
        Map<String, String> labels = new HashMap<>();
        d.getLabels().forEach((k, v) -> labels.put(k.toString(), v.toString()));
        List<String> regions = d.getRegions();
        String region = regions == null || regions.isEmpty() ? null : regions.get(0);
        return new Definition(d.getGroup(), d.getAddress(), d.getPort(), d.getWeight(), region, labels);
    }
}
