package io.healthmesh.haproxy.plan;

import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;
import io.healthmesh.haproxy.mapping.BackendMapping;
import io.healthmesh.haproxy.mapping.HaproxyMapping;
import io.healthmesh.haproxy.mapping.ServerNames;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The pure mapping from what the follower read to what each backend should hold: every member of the group is a
 * server (so that a member coming back is a state change, not a new server), READY when the group's view serves it
 * ({@link Member#served()}, decided by the aggregator's rule, fail-open included), MAINT otherwise. A group the
 * state does not know (yet, or any more) gives no entry: its backend is left as it is rather than emptied.
 */
public final class DesiredServers {

    /** HAProxy's weight range. */
    public static final int MAX_WEIGHT = 256;
    /** What {@code add server} and {@code set server addr} can take without quoting: IPs and host names. */
    private static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9.:%_-]{1,255}");

    private DesiredServers() {
    }

    /** The desired servers of every mapped backend whose group the state holds, in mapping order. */
    public static Map<String, DesiredBackend> of(FollowedState state, HaproxyMapping mapping) {
        Map<String, DesiredBackend> desired = new LinkedHashMap<>();
        for (BackendMapping b : mapping.backends()) {
            Optional<GroupView> view = state.group(b.group());
            view.filter(v -> !v.members().isEmpty()).ifPresent(v -> desired.put(b.backend(), backend(v, b)));
        }
        return desired;
    }

    static DesiredBackend backend(GroupView view, BackendMapping mapping) {
        Map<String, DesiredServer> byName = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Member m : view.members()) {
            String name = ServerNames.name(mapping.serverName(), m.targetId());
            DesiredServer taken = byName.get(name);
            if (taken != null) {
                problems.add("target " + m.targetId() + " would be server " + name + " as " + taken.targetId()
                        + " is; left out (give one of them another id)");
                continue;
            }
            if (!ADDRESS.matcher(m.address()).matches() || m.port() < 1 || m.port() > 65_535) {
                problems.add("target " + m.targetId() + ": address " + m.address() + ":" + m.port()
                        + " cannot be a HAProxy server; left out");
                continue;
            }
            byName.put(name, new DesiredServer(name, m.targetId(), m.address(), m.port(), weight(m, mapping, problems),
                    stateOf(m)));
        }
        List<DesiredServer> servers = new ArrayList<>(byName.values());
        servers.sort(Comparator.comparing(DesiredServer::name));
        return new DesiredBackend(mapping.backend(), view.groupId(), servers, problems);
    }

    /**
     * The admin state of a member's server: a served member under a DRAIN window is {@link ServerState#DRAIN} (no new
     * connections, the existing ones and persistent sessions finish; HAProxy's {@code set server ... state drain}),
     * and the diff moves servers to and from it; not served stays MAINT, drained or not.
     */
    static ServerState stateOf(Member member) {
        if (!member.served()) {
            return ServerState.MAINT;
        }
        return member.draining() ? ServerState.DRAIN : ServerState.READY;
    }

    /**
     * The weight label's value when the mapping names one and the member carries it (a whole number 0..256; anything
     * else is a problem and the definition's weight applies), else the definition's weight.
     */
    static int weight(Member member, BackendMapping mapping, List<String> problems) {
        String text = mapping.weightLabel() == null ? null : member.labels().get(mapping.weightLabel());
        if (text != null) {
            try {
                int w = Integer.parseInt(text.trim());
                if (w >= 0 && w <= MAX_WEIGHT) {
                    return w;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add("target " + member.targetId() + ": label " + mapping.weightLabel() + "=" + text
                    + " is not a weight 0.." + MAX_WEIGHT + "; its definition's weight applies");
        }
        return Math.max(0, Math.min(MAX_WEIGHT, member.weight()));
    }
}
