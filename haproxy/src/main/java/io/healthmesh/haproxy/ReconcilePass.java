package io.healthmesh.haproxy;

import io.healthmesh.follow.ChangeBudget;
import io.healthmesh.haproxy.plan.ActualServer;
import io.healthmesh.haproxy.plan.DesiredBackend;
import io.healthmesh.haproxy.plan.ServerChange;
import io.healthmesh.haproxy.plan.ServerDiff;
import io.healthmesh.haproxy.runtime.RuntimeSession;
import io.healthmesh.haproxy.runtime.ServersStateTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One pass over one HAProxy instance, in one Runtime API session: read every mapped backend
 * ({@code show servers state <backend>}), diff those whose group the state holds with what they should hold, and
 * apply the changes the change budget allows. What the budget holds back is left for a later pass (the next pass
 * recomputes it from the then latest state, so a queued change that is no longer wanted is simply never made).
 */
final class ReconcilePass {

    private static final Logger LOG = LoggerFactory.getLogger(ReconcilePass.class);
    /** Answers of accepted commands that are not empty. */
    private static final List<String> ACCEPTED = List.of("New server registered", "Server deleted", "IP changed",
            "port changed", "no need to change");
    private static final String STILL_CONNECTED = "still has connections";
    /** Another driver added the server between this pass's read and its add: nothing to fight over. */
    private static final String ADDED_MEANWHILE = "Already exists";

    /** What a pass did. */
    record Outcome(int applied, int failed, int queued, int waiting, Set<String> unknownBackends) { }

    private final String instance;
    private final HaproxyMetrics metrics;
    /** Commands refused in the previous pass: refused again, they are counted but not logged again. */
    private Set<String> refusedBefore = Set.of();

    ReconcilePass(String instance, HaproxyMetrics metrics) {
        this.instance = instance;
        this.metrics = metrics;
    }

    /**
     * Runs a pass.
     *
     * @throws IOException when the session breaks (nothing after the break was applied; the next pass starts over)
     */
    Outcome run(RuntimeSession session, List<String> mapped, Map<String, DesiredBackend> desired, ChangeBudget budget)
            throws IOException {
        List<ServerChange> changes = new ArrayList<>();
        Set<String> unknown = new TreeSet<>();
        // every mapped backend is read, those of groups the state does not hold too: a missing one is reported
        for (String backend : mapped) {
            Optional<List<ActualServer>> actual =
                    ServersStateTable.parse(session.command("show servers state " + backend));
            if (actual.isEmpty()) {
                unknown.add(backend);
            } else if (desired.containsKey(backend)) {
                changes.addAll(ServerDiff.of(desired.get(backend), actual.get()));
            }
        }
        int takingOut = (int) changes.stream().filter(ServerChange::takesOut).count();
        int allowed = takingOut == 0 ? 0 : budget.take(takingOut);
        int applied = 0;
        int failed = 0;
        int waiting = 0;
        int outTaken = 0;
        Set<String> refused = new TreeSet<>();
        for (ServerChange change : changes) {
            if (change.takesOut() && outTaken++ >= allowed) {
                continue;
            }
            for (String command : change.commands()) {
                String answer = session.command(command);
                if (accepted(answer)) {
                    applied++;
                    metrics.applied(instance);
                    LOG.debug("{}: {}", instance, command);
                } else if (answer.contains(STILL_CONNECTED) || answer.startsWith(ADDED_MEANWHILE)) {
                    // in maintenance already, deleted by a later pass once its connections are gone; or added by
                    // another driver, checked by the next pass
                    waiting++;
                    LOG.debug("{}: '{}' later: {}", instance, command, answer);
                    break;
                } else {
                    failed++;
                    metrics.failed(instance);
                    refused.add(command);
                    if (!refusedBefore.contains(command)) {
                        LOG.warn("{}: HAProxy refused '{}': {}", instance, command, answer);
                    }
                    break;
                }
            }
        }
        refusedBefore = refused;
        return new Outcome(applied, failed, takingOut - allowed, waiting, unknown);
    }

    private static boolean accepted(String answer) {
        return answer.isEmpty() || ACCEPTED.stream().anyMatch(answer::startsWith);
    }
}
