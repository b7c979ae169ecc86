package io.healthmesh.dnsfollow;

import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.mapping.RecordType;
import io.healthmesh.dnsfollow.mapping.ServerAddress;
import io.healthmesh.dnsfollow.plan.RecordChange;
import io.healthmesh.dnsfollow.plan.RecordSet;
import io.healthmesh.dnsfollow.plan.ZoneRecords;
import io.healthmesh.dnsfollow.update.DnsUpdateException;
import io.healthmesh.dnsfollow.update.ZoneServer;
import io.healthmesh.follow.ChangeBudget;
import io.healthmesh.follow.FollowedState;
import io.healthmesh.follow.GroupView;
import io.healthmesh.follow.Member;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static io.healthmesh.dnsfollow.plan.Views.row;
import static io.healthmesh.dnsfollow.plan.Views.served;
import static io.healthmesh.dnsfollow.plan.Views.set;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reconciler against an in-memory zone (the real server is {@code Rfc2136ServerIT}'s and {@code DnsFollowIT}'s):
 * one update per zone and pass, none when the zone matches, the change budget's cut (additions first, the rest
 * waiting), the "never empty" rule, and a failing zone that does not hold up the others.
 */
class ZoneReconcilerTest {

    /** Zones in memory: name -> addresses, every update recorded. */
    static final class MemoryZones implements ZoneServer {
        final Map<String, Set<InetAddress>> names = new HashMap<>();
        final List<List<RecordChange>> updates = new ArrayList<>();
        final Map<String, DnsUpdateException.Reason> failingZones = new HashMap<>();

        @Override
        public ZoneRecords read(NameMapping name) throws DnsUpdateException {
            fail(name);
            Set<InetAddress> held = names.getOrDefault(name.name(), Set.of());
            Map<RecordType, Long> ttls = new EnumMap<>(RecordType.class);
            held.forEach(a -> ttls.put(RecordType.of(a), name.ttlSeconds()));
            return new ZoneRecords(RecordSet.of(held), ttls);
        }

        @Override
        public void update(NameMapping zone, List<RecordChange> changes) throws DnsUpdateException {
            fail(zone);
            updates.add(List.copyOf(changes));
            for (RecordChange c : changes) {
                Set<InetAddress> held = names.computeIfAbsent(c.name(), n -> new HashSet<>());
                if (c.op() == RecordChange.Op.ADD) {
                    held.add(c.address());
                } else {
                    held.remove(c.address());
                }
            }
        }

        private void fail(NameMapping name) throws DnsUpdateException {
            DnsUpdateException.Reason reason = failingZones.get(name.zone());
            if (reason != null) {
                throw new DnsUpdateException(reason, "zone " + name.zone() + " fails");
            }
        }

        RecordSet of(String name) {
            return RecordSet.of(names.getOrDefault(name, Set.of()));
        }
    }

    private final MemoryZones zones = new MemoryZones();
    private final AtomicLong nanos = new AtomicLong();
    private final PrometheusRegistry registry = new PrometheusRegistry();

    private ZoneReconciler reconciler(double perSecond, int burst) {
        return new ZoneReconciler(zones, new ChangeBudget(perSecond, burst, nanos::get), new DnsFollowMetrics(registry),
                () -> 1_700_000_000_000L);
    }

    private static FollowedState state(String group, Member... members) {
        return FollowedState.of(List.of(GroupView.of(group, false, List.of(members), false)));
    }

    private static NameMapping other(String group, String name, String zone) {
        NameMapping r = row(group, name);
        return new NameMapping(r.group(), zone, name, r.ttlSeconds(), r.types(), new ServerAddress("127.0.0.2", 53),
                r.key());
    }

    @Test
    void aPassWritesTheDifferenceOnceAndAReplayWritesNothing() {
        ZoneReconciler reconciler = reconciler(100, 100);
        List<NameMapping> rows = List.of(row("api", "api.example.com."), row("api", "api2.example.com."));
        FollowedState s = state("api", served("a", "10.0.0.1"), served("b", "10.0.0.2"));

        ZoneReconciler.Outcome first = reconciler.pass(s, rows);
        ZoneReconciler.Outcome replay = reconciler.pass(s, rows);

        assertThat(zones.updates).as("one update for both names of the zone").hasSize(1);
        assertThat(zones.updates.get(0)).hasSize(4);
        assertThat(zones.of("api.example.com.")).isEqualTo(set("10.0.0.1", "10.0.0.2"));
        assertThat(first.inSync()).containsExactlyInAnyOrder("api.example.com.", "api2.example.com.");
        assertThat(replay.inSync()).containsExactlyInAnyOrder("api.example.com.", "api2.example.com.");
        assertThat(DnsFollowIT.counter(registry, "healthmesh_dns_applied")).isEqualTo(1);
    }

    @Test
    void theBudgetCutsAPassAdditionsFirstAndTheRestWaits() {
        ZoneReconciler reconciler = reconciler(1, 2);
        NameMapping api = row("api", "api.example.com.");
        zones.names.put(api.name(), new HashSet<>(set("10.0.0.1", "10.0.0.2").addresses(RecordType.A)));
        FollowedState s = state("api", served("c", "10.0.0.3"), served("d", "10.0.0.4"));

        ZoneReconciler.Outcome cut = reconciler.pass(s, List.of(api));

        assertThat(zones.of(api.name())).as("the new members went in first; nothing removed yet")
                .isEqualTo(set("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"));
        assertThat(cut.waiting()).containsExactly(api.name());
        assertThat(cut.pendingChanges()).isEqualTo(2);
        assertThat(reconciler.nanosUntilBudget()).isEqualTo(1_000_000_000L);

        nanos.addAndGet(1_000_000_000L);
        ZoneReconciler.Outcome next = reconciler.pass(s, List.of(api));
        assertThat(next.waiting()).containsExactly(api.name());
        assertThat(zones.of(api.name())).hasToString("{A 10.0.0.2, A 10.0.0.3, A 10.0.0.4}");

        nanos.addAndGet(1_000_000_000L);
        ZoneReconciler.Outcome done = reconciler.pass(s, List.of(api));
        assertThat(done.inSync()).containsExactly(api.name());
        assertThat(zones.of(api.name())).isEqualTo(set("10.0.0.3", "10.0.0.4"));
    }

    @Test
    void aNameWhoseGroupHasNothingToServeKeepsItsLastSet() {
        ZoneReconciler reconciler = reconciler(100, 100);
        NameMapping api = row("api", "api.example.com.");
        reconciler.pass(state("api", served("a", "10.0.0.1")), List.of(api));

        ZoneReconciler.Outcome gone = reconciler.pass(FollowedState.EMPTY, List.of(api));
        ZoneReconciler.Outcome hostNames = reconciler.pass(state("api", served("a", "api-1.internal")), List.of(api));

        assertThat(zones.of(api.name())).isEqualTo(set("10.0.0.1"));
        assertThat(gone.inSync()).containsExactly(api.name());
        assertThat(hostNames.inSync()).containsExactly(api.name());
        assertThat(DnsFollowIT.counter(registry, "healthmesh_dns_kept_last")).isEqualTo(1);
    }

    @Test
    void aRestartedRoleWithNothingToServeLeavesTheZoneAlone() {
        NameMapping api = row("api", "api.example.com.");
        zones.names.put(api.name(), new HashSet<>(set("10.0.0.9").addresses(RecordType.A)));

        reconciler(100, 100).pass(FollowedState.EMPTY, List.of(api));

        assertThat(zones.updates).isEmpty();
        assertThat(zones.of(api.name())).isEqualTo(set("10.0.0.9"));
    }

    @Test
    void aFailingZoneIsCountedByReasonAndTheOthersGoOn() {
        ZoneReconciler reconciler = reconciler(100, 100);
        NameMapping good = row("api", "api.example.com.");
        NameMapping bad = other("api", "api.other.org.", "other.org.");
        zones.failingZones.put("other.org.", DnsUpdateException.Reason.NOT_AUTHORITATIVE);

        ZoneReconciler.Outcome outcome = reconciler.pass(state("api", served("a", "10.0.0.1")), List.of(bad, good));

        assertThat(outcome.failed()).containsExactly(bad.name());
        assertThat(outcome.inSync()).containsExactly(good.name());
        assertThat(zones.of(good.name())).isEqualTo(set("10.0.0.1"));
        assertThat(DnsFollowIT.counter(registry, "healthmesh_dns_failed", "not_authoritative")).isEqualTo(1);
    }
}
