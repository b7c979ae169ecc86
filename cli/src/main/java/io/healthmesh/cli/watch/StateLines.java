package io.healthmesh.cli.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.healthmesh.cli.output.AvroJson;
import io.healthmesh.core.health.GroupCounts;
import io.healthmesh.schema.GroupHealth;
import io.healthmesh.schema.RegionHealth;
import io.healthmesh.schema.TargetHealth;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Renders {@link StateEvent}s as one line each, for people ({@code 12:00:03.120  target web  group pool
 * DETECTING -> HEALTHY  reason SUCCESS}) or as JSON lines for tools. Changes show {@code old -> new}; the state
 * found at start shows {@code = STATUS (current ...)}.
 */
public final class StateLines {

    private final Clock clock;
    private final DateTimeFormatter time;
    private final boolean json;

    /** Times are shown in {@code clock}'s zone; removals, which carry no time, are stamped with {@code clock}. */
    public StateLines(Clock clock, boolean json) {
        this.clock = requireNonNull(clock, "clock");
        this.time = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(clock.getZone());
        this.json = json;
    }

    /** The line for {@code event}, or {@code null} when there is nothing to show. */
    public String render(StateEvent event) {
        return json ? renderJson(event) : renderText(event);
    }

    private String renderText(StateEvent event) {
        if (event instanceof StateEvent.Target t) {
            return target(t.health(), t.previous(), t.current());
        }
        if (event instanceof StateEvent.Group g) {
            return group(g.health(), g.previous(), g.current());
        }
        if (event instanceof StateEvent.Removed r) {
            return at(clock.millis()) + "  " + (r.kind() == StateEvent.Kind.TARGET ? "target " : "group  ")
                    + r.id() + "  removed";
        }
        if (event instanceof StateEvent.CaughtUp c) {
            return "-- " + c.targets() + " target(s) and " + c.groups() + " group(s) so far; watching for changes --";
        }
        StateEvent.Undecodable u = (StateEvent.Undecodable) event;
        return "warning: undecodable record in " + u.topic() + " key " + u.key() + ": " + u.reason();
    }

    private String target(TargetHealth h, TargetHealth previous, boolean current) {
        StringBuilder line = new StringBuilder(160);
        boolean transition = !current && h.getPreviousStatus() != h.getStatus();
        // a transition is dated when the target entered its new status (by its results), not when the event was
        // written: an aggregator catching up on a backlog writes many events in the same millisecond
        line.append(at(transition ? h.getSinceMs() : h.getUpdatedAtMs())).append("  target ").append(pad(h.getTargetId(), 20))
                .append("  group ").append(pad(h.getGroup(), 16)).append("  ");
        if (current) {
            line.append("= ").append(h.getStatus()).append(" (current, since ").append(at(h.getSinceMs())).append(')');
        } else if (h.getPreviousStatus() == null) {
            line.append("new -> ").append(h.getStatus());
        } else if (h.getPreviousStatus() != h.getStatus()) {
            line.append(h.getPreviousStatus()).append(" -> ").append(h.getStatus());
        } else {
            line.append(h.getStatus());
        }
        if (h.getReason() != null) {
            line.append("  reason ").append(h.getReason());
            if (h.getReasonDetail() != null && !h.getReasonDetail().isBlank()) {
                line.append(" (").append(h.getReasonDetail()).append(')');
            }
        }
        if (h.getStale()) {
            line.append("  STALE (no recent results; status kept)");
        } else if (!current && !transition && previous != null) {
            line.append(sameStatusChange(h, previous));
        }
        List<RegionHealth> regions = h.getRegions();
        if (regions.size() > 1) {
            line.append("  regions");
            for (RegionHealth r : regions) {
                line.append(' ').append(r.getRegion()).append('=').append(r.getStatus());
                if (r.getStale()) {
                    line.append("(stale)");
                }
            }
            line.append(" quorum ").append(h.getQuorum());
        }
        return line.toString();
    }

    /** What an event that kept the status changed, as far as the previous event tells. */
    private static String sameStatusChange(TargetHealth h, TargetHealth previous) {
        if (previous.getStale()) {
            return "  fresh (results resumed)";
        }
        if (!previous.getGroup().equals(h.getGroup())) {
            return "  moved from group " + previous.getGroup();
        }
        if (previous.getGeneration() != h.getGeneration()) {
            return "  re-configured (new probe definition)";
        }
        return h.getRegions().size() > 1 ? "  region breakdown changed" : "";
    }

    private String group(GroupHealth g, GroupHealth previous, boolean current) {
        StringBuilder line = new StringBuilder(160);
        line.append(at(g.getUpdatedAtMs())).append("  group  ").append(pad(g.getGroupId(), 20)).append("  ");
        if (current || previous == null || previous.getFailOpen() == g.getFailOpen()) {
            line.append("failOpen ").append(g.getFailOpen());
        } else {
            line.append("failOpen ").append(previous.getFailOpen()).append(" -> ").append(g.getFailOpen());
        }
        if (current) {
            line.append(" (current)");
        }
        int routable = !g.getRoutableTruncated() ? g.getRoutable().size()
                : GroupCounts.servedCount(g.getFailOpen(), g.getMembers(), g.getHealthy() + g.getDisabled());
        line.append("  routable ").append(routable).append('/').append(g.getMembers())
                .append(' ').append(g.getRoutable());
        if (g.getRoutableTruncated()) {
            line.append(" (first ").append(g.getRoutable().size()).append(" ids; the aggregator's"
                    + " GET /groups/{id}/routable pages the rest)");
        }
        line
                .append("  healthy ").append(g.getHealthy()).append(", unhealthy ").append(g.getUnhealthy())
                .append(", detecting ").append(g.getDetecting()).append(", disabled ").append(g.getDisabled());
        if (g.getFailOpen()) {
            line.append("  FAIL-OPEN: no member healthy, every member routable");
        }
        return line.toString();
    }

    private String renderJson(StateEvent event) {
        ObjectNode node;
        if (event instanceof StateEvent.Target t) {
            node = AvroJson.of(t.health(), false);
            node.put("kind", "target");
        } else if (event instanceof StateEvent.Group g) {
            node = AvroJson.of(g.health(), false);
            node.put("kind", "group");
            if (g.previous() != null) {
                node.put("previousFailOpen", g.previous().getFailOpen());
            }
        } else if (event instanceof StateEvent.Removed r) {
            node = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            node.put("kind", r.kind() == StateEvent.Kind.TARGET ? "targetRemoved" : "groupRemoved");
            node.put("id", r.id());
        } else {
            return null; // caught-up markers and warnings are for people; JSON consumers get data only
        }
        node.put("current", event.current());
        return node.toString();
    }

    private String at(long epochMs) {
        return time.format(Instant.ofEpochMilli(epochMs));
    }

    private static String pad(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }
}
