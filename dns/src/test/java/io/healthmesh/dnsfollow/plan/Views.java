package io.healthmesh.dnsfollow.plan;

import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.mapping.RecordType;
import io.healthmesh.dnsfollow.mapping.ServerAddress;
import io.healthmesh.dnsfollow.mapping.TsigKey;
import io.healthmesh.follow.Member;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** Hand-built members, rows and addresses for the plan's tests. */
public final class Views {

    private Views() {
    }

    public static Member served(String id, String address) {
        return new Member(id, address, 443, 10, null, Map.of(), HealthStatus.HEALTHY, true);
    }

    public static Member notServed(String id, String address, HealthStatus status) {
        return new Member(id, address, 443, 10, null, Map.of(), status, false);
    }

    public static NameMapping row(String group, String name, RecordType... types) {
        TsigKey key = new TsigKey("k.", "hmac-sha256", Path.of("k.secret"), new byte[] {1, 2, 3});
        return new NameMapping(group, "example.com.", name, 30,
                types.length == 0 ? Set.of(RecordType.A, RecordType.AAAA) : Set.of(types),
                new ServerAddress("127.0.0.1", 53), key);
    }

    public static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal); // literals only: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    public static RecordSet set(String... literals) {
        return RecordSet.of(Stream.of(literals).map(Views::ip).toList());
    }

    public static List<String> texts(List<RecordChange> changes) {
        return changes.stream().map(RecordChange::toString).toList();
    }
}
