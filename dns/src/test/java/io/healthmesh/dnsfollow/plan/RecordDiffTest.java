package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.RecordType;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static io.healthmesh.dnsfollow.plan.Views.set;
import static io.healthmesh.dnsfollow.plan.Views.texts;
import static org.assertj.core.api.Assertions.assertThat;

class RecordDiffTest {

    private static final String NAME = "api.example.com.";
    private static final Set<RecordType> BOTH = Set.of(RecordType.A, RecordType.AAAA);

    private static ZoneRecords zone(RecordSet records, long ttl) {
        Map<RecordType, Long> ttls = new java.util.EnumMap<>(RecordType.class);
        for (RecordType t : RecordType.values()) {
            if (!records.addresses(t).isEmpty()) {
                ttls.put(t, ttl);
            }
        }
        return new ZoneRecords(records, ttls);
    }

    @Test
    void aZoneThatMatchesNeedsNoChange() {
        RecordDiff diff = RecordDiff.between(NAME, BOTH, 30, zone(set("10.0.0.1", "2001:db8::1"), 30),
                set("2001:db8::1", "10.0.0.1"));

        assertThat(diff.isEmpty()).isTrue();
    }

    @Test
    void additionsComeBeforeDeletions() {
        RecordDiff diff = RecordDiff.between(NAME, BOTH, 30, zone(set("10.0.0.1", "10.0.0.2", "2001:db8::9"), 30),
                set("10.0.0.2", "10.0.0.3", "2001:db8::1"));

        assertThat(texts(diff.changes())).containsExactly(
                "add api.example.com. 30 A 10.0.0.3",
                "add api.example.com. 30 AAAA 2001:db8:0:0:0:0:0:1",
                "delete api.example.com. A 10.0.0.1",
                "delete api.example.com. AAAA 2001:db8:0:0:0:0:0:9");
    }

    @Test
    void anEmptyZoneGetsEveryAddress() {
        RecordDiff diff = RecordDiff.between(NAME, BOTH, 60, ZoneRecords.NONE, set("10.0.0.2", "10.0.0.1"));

        assertThat(texts(diff.changes())).containsExactly("add api.example.com. 60 A 10.0.0.1",
                "add api.example.com. 60 A 10.0.0.2");
    }

    @Test
    void aTypeTheNameDoesNotManageIsLeftAlone() {
        RecordDiff diff = RecordDiff.between(NAME, Set.of(RecordType.A), 30, zone(set("10.0.0.1", "2001:db8::9"), 30),
                set("10.0.0.1"));

        assertThat(diff.isEmpty()).isTrue();
    }

    @Test
    void aWrongTtlIsRepairedByAddingTheRrsetAgain() {
        RecordDiff diff = RecordDiff.between(NAME, BOTH, 30, zone(set("10.0.0.1", "10.0.0.2"), 300),
                set("10.0.0.1", "10.0.0.2"));

        assertThat(texts(diff.changes())).containsExactly("add api.example.com. 30 A 10.0.0.1",
                "add api.example.com. 30 A 10.0.0.2");
    }
}
