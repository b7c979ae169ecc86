package io.healthmesh.dnsfollow.update;

import io.healthmesh.testkit.LocalNamed;
import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.mapping.RecordType;
import io.healthmesh.dnsfollow.mapping.ServerAddress;
import io.healthmesh.dnsfollow.mapping.TsigKey;
import io.healthmesh.dnsfollow.plan.RecordChange;
import io.healthmesh.dnsfollow.plan.RecordChange.Op;
import io.healthmesh.dnsfollow.plan.RecordSet;
import io.healthmesh.dnsfollow.plan.ZoneRecords;
import io.healthmesh.dnsfollow.update.DnsUpdateException.Reason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Rfc2136Server} against a real BIND 9: it reads what a name holds, applies additions and deletions as one
 * signed update (a repeat changes nothing), repairs a TTL, and classifies what the server refuses: an unknown key
 * (BADKEY), a wrong secret (BADSIG), a key without the right to update (REFUSED), a zone the server does not serve
 * (NOT_AUTHORITATIVE), a server that is down (UNREACHABLE).
 */
class Rfc2136ServerIT {

    @TempDir
    static Path dir;
    static LocalNamed named;
    private final Rfc2136Server server = new Rfc2136Server(Duration.ofSeconds(3));

    @BeforeAll
    static void startNamed() throws Exception {
        named = LocalNamed.start(dir, Map.of("example.test", "old IN A 192.0.2.9", "empty.test", ""));
    }

    @AfterAll
    static void stopNamed() throws Exception {
        if (named != null) {
            named.close();
        }
    }

    private NameMapping row(String name, String zone, String keyName, byte[] secret) {
        TsigKey key = new TsigKey(keyName, "hmac-sha256", dir.resolve("unused"), secret);
        return new NameMapping("g", zone, name, 30, Set.of(RecordType.A, RecordType.AAAA),
                new ServerAddress("127.0.0.1", named.port()), key);
    }

    private NameMapping row(String name) {
        return row(name, "example.test.", LocalNamed.UPDATE_KEY, Base64.getDecoder().decode(named.updateSecret()));
    }

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void readsAddsAndDeletesInOneSignedUpdate() throws Exception {
        NameMapping api = row("api.example.test.");
        assertThat(server.read(api)).isEqualTo(ZoneRecords.NONE);

        List<RecordChange> add = List.of(new RecordChange(Op.ADD, api.name(), RecordType.A, ip("10.0.0.1"), 30),
                new RecordChange(Op.ADD, api.name(), RecordType.A, ip("10.0.0.2"), 30),
                new RecordChange(Op.ADD, api.name(), RecordType.AAAA, ip("2001:db8::1"), 30));
        server.update(api, add);
        ZoneRecords now = server.read(api);
        assertThat(now.records()).isEqualTo(RecordSet.of(List.of(ip("10.0.0.1"), ip("10.0.0.2"), ip("2001:db8::1"))));
        assertThat(now.ttls()).isEqualTo(Map.of(RecordType.A, 30L, RecordType.AAAA, 30L));

        server.update(api, add); // a repeat changes nothing
        assertThat(server.read(api)).isEqualTo(now);

        server.update(api, List.of(new RecordChange(Op.ADD, api.name(), RecordType.A, ip("10.0.0.3"), 30),
                new RecordChange(Op.DELETE, api.name(), RecordType.A, ip("10.0.0.1"), 30),
                new RecordChange(Op.DELETE, api.name(), RecordType.AAAA, ip("2001:db8::1"), 30)));
        assertThat(server.read(api).records()).isEqualTo(RecordSet.of(List.of(ip("10.0.0.2"), ip("10.0.0.3"))));
        assertThat(server.read(api).ttls()).isEqualTo(Map.of(RecordType.A, 30L));
    }

    @Test
    void addingAgainWithAnotherTtlChangesTheWholeRrset() throws Exception {
        NameMapping old = row("old.example.test.");
        assertThat(server.read(old).ttls()).isEqualTo(Map.of(RecordType.A, 300L));
        server.update(old, List.of(new RecordChange(Op.ADD, old.name(), RecordType.A, ip("192.0.2.9"), 30)));
        assertThat(server.read(old).ttls()).isEqualTo(Map.of(RecordType.A, 30L));
    }

    @Test
    void whatTheServerRefusesIsClassified() throws Exception {
        byte[] secret = Base64.getDecoder().decode(named.updateSecret());
        List<RecordChange> add = List.of(new RecordChange(Op.ADD, "x.example.test.", RecordType.A, ip("10.9.9.9"), 30));

        NameMapping unknownKey = row("x.example.test.", "example.test.", "nobody.", secret);
        assertThatThrownBy(() -> server.update(unknownKey, add)).isInstanceOf(DnsUpdateException.class)
                .satisfies(e -> assertThat(((DnsUpdateException) e).reason()).isEqualTo(Reason.BADKEY));

        byte[] wrong = secret.clone();
        wrong[0] ^= 1;
        NameMapping wrongSecret = row("x.example.test.", "example.test.", LocalNamed.UPDATE_KEY, wrong);
        assertThatThrownBy(() -> server.update(wrongSecret, add))
                .satisfies(e -> assertThat(((DnsUpdateException) e).reason()).isEqualTo(Reason.BADSIG))
                .hasMessageContaining(LocalNamed.UPDATE_KEY).hasMessageNotContaining(named.updateSecret());

        NameMapping notNotServed = row("x.other.test.", "other.test.", LocalNamed.UPDATE_KEY, secret);
        assertThatThrownBy(() -> server.update(notNotServed, List.of(new RecordChange(Op.ADD, "x.other.test.",
                RecordType.A, ip("10.9.9.9"), 30))))
                .satisfies(e -> assertThat(((DnsUpdateException) e).reason()).isEqualTo(Reason.NOT_AUTHORITATIVE))
                .hasMessageContaining("other.test.");
        assertThatThrownBy(() -> server.read(notNotServed))
                .satisfies(e -> assertThat(((DnsUpdateException) e).reason()).isEqualTo(Reason.NOT_AUTHORITATIVE));

        assertThat(server.read(row("x.example.test."))).isEqualTo(ZoneRecords.NONE);
    }

    @Test
    void aKeyWithoutTheRightToUpdateIsRefused() throws Exception {
        // named knows this key (its signature verifies) but no zone's allow-update lists it
        NameMapping readOnly = row("x.empty.test.", "empty.test.", LocalNamed.READ_ONLY_KEY,
                Base64.getDecoder().decode(named.readOnlySecret()));
        assertThatThrownBy(() -> server.update(readOnly, List.of(new RecordChange(Op.ADD, "x.empty.test.",
                RecordType.A, ip("10.9.9.9"), 30))))
                .satisfies(e -> assertThat(((DnsUpdateException) e).reason()).isEqualTo(Reason.REFUSED));
    }

    @Test
    void aServerThatIsNotThereIsUnreachable() throws Exception {
        NameMapping api = row("api.example.test.");
        NameMapping nowhere = new NameMapping(api.group(), api.zone(), api.name(), api.ttlSeconds(), api.types(),
                new ServerAddress("127.0.0.1", io.healthmesh.embedded.FreePorts.one()), api.key());
        assertThatThrownBy(() -> server.read(nowhere))
                .satisfies(e -> assertThat(((DnsUpdateException) e).reason()).isEqualTo(Reason.UNREACHABLE));
    }
}
