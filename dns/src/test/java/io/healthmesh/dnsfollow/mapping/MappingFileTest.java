package io.healthmesh.dnsfollow.mapping;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MappingFileTest {

    private static final String SECRET = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    @TempDir
    Path dir;

    private DnsMapping parse(String records) throws IOException {
        return MappingFile.parse(keys() + records, dir);
    }

    private String keys() throws IOException {
        Files.writeString(dir.resolve("update.secret"), SECRET + "\n");
        return """
                keys:
                  - name: healthmesh-update
                    secretFile: update.secret
                """;
    }

    private void invalid(String records, String... messages) {
        assertThatThrownBy(() -> parse(records)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid mapping file: ").hasMessageContainingAll(messages)
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void aFullRowAndTheDefaults() throws IOException {
        DnsMapping m = parse("""
                records:
                  - group: api
                    zone: Example.COM
                    name: api
                    types: [A, AAAA]
                    ttl: 20
                    server: 192.0.2.53:5353
                    key: healthmesh-update
                  - group: web
                    zone: example.com.
                    name: "@"
                    server: "[2001:db8::53]"
                    key: healthmesh-update.
                  - group: v6
                    zone: example.com
                    name: v6.Example.com.
                    types: AAAA
                    server: ns1.example.com
                    key: healthmesh-update
                """);

        NameMapping api = m.names().get(0);
        assertThat(api.name()).isEqualTo("api.example.com.");
        assertThat(api.zone()).isEqualTo("example.com.");
        assertThat(api.ttlSeconds()).isEqualTo(20);
        assertThat(api.types()).isEqualTo(Set.of(RecordType.A, RecordType.AAAA));
        assertThat(api.server()).isEqualTo(new ServerAddress("192.0.2.53", 5353));
        assertThat(api.key().name()).isEqualTo("healthmesh-update.");
        assertThat(api.key().algorithm()).isEqualTo("hmac-sha256");
        assertThat(api.key().secret()).isEqualTo(Base64.getDecoder().decode(SECRET));
        assertThat(api.key().toString()).doesNotContain(SECRET);

        NameMapping web = m.names().get(1);
        assertThat(web.name()).isEqualTo("example.com.");
        assertThat(web.ttlSeconds()).isEqualTo(MappingFile.DEFAULT_TTL);
        assertThat(web.types()).isEqualTo(Set.of(RecordType.A, RecordType.AAAA));
        assertThat(web.server()).isEqualTo(new ServerAddress("2001:db8::53", 53));

        NameMapping v6 = m.names().get(2);
        assertThat(v6.name()).isEqualTo("v6.example.com.");
        assertThat(v6.types()).isEqualTo(Set.of(RecordType.AAAA));
        assertThat(v6.server()).isEqualTo(new ServerAddress("ns1.example.com", 53));
        assertThat(m.groups()).containsExactly("api", "v6", "web");
    }

    @Test
    void aSecretFileMayBeTheKeyClauseTsigKeygenPrints() throws IOException {
        Files.writeString(dir.resolve("tsig.key"), "key \"healthmesh-update\" {\n\talgorithm hmac-sha512;\n\tsecret \""
                + SECRET + "\";\n};\n");
        DnsMapping m = MappingFile.parse("""
                keys: [{name: healthmesh-update, algorithm: hmac-sha512, secretFile: tsig.key}]
                records: [{group: api, zone: example.com, name: api, server: 127.0.0.1, key: healthmesh-update}]
                """, dir);

        assertThat(m.names().get(0).key().secret()).isEqualTo(Base64.getDecoder().decode(SECRET));

        assertThatThrownBy(() -> MappingFile.parse("""
                keys: [{name: healthmesh-update, secretFile: tsig.key}]
                records: [{group: api, zone: example.com, name: api, server: 127.0.0.1, key: healthmesh-update}]
                """, dir)).hasMessageContaining("keys[0].secretFile: " + dir.resolve("tsig.key")
                + " declares algorithm hmac-sha512 (expected: hmac-sha256").hasMessageNotContaining(SECRET);
    }

    @Test
    void secretFileProblems() {
        assertThatThrownBy(() -> MappingFile.parse("""
                keys: [{name: k, secretFile: missing.secret}]
                records: [{group: api, zone: example.com, name: api, server: 127.0.0.1, key: k}]
                """, dir)).hasMessageContaining("keys[0].secretFile: " + dir.resolve("missing.secret")
                + " (expected: an existing file holding the secret)");
        assertThatThrownBy(() -> {
            Files.writeString(dir.resolve("bad.secret"), "not base64 at all!");
            MappingFile.parse("""
                    keys: [{name: k, secretFile: bad.secret}]
                    records: [{group: api, zone: example.com, name: api, server: 127.0.0.1, key: k}]
                    """, dir);
        }).hasMessageContaining("keys[0].secretFile: " + dir.resolve("bad.secret")
                + " (expected: a base64 secret, or a key clause as tsig-keygen prints it)")
                .hasMessageNotContaining("not base64 at all");
    }

    @Test
    void everyProblemOfARowIsNamedAtOnce() {
        invalid("""
                records:
                  - group: api
                    zone: example.com
                    name: api.example.org.
                    types: [A, MX]
                    ttl: 90000
                    server: "2001:db8::1"
                    key: nobody
                    weight: 3
                """,
                "records[0].name: api.example.org. (expected: a name in zone example.com.",
                "records[0].types: [\"A\",\"MX\"] (expected: A, AAAA or [A, AAAA])",
                "records[0].ttl: 90000 (expected: seconds, 0..86400)",
                "records[0].server: 2001:db8::1 (expected: host, host:port or [IPv6]:port",
                "records[0].key: nobody (expected: the name of a key in keys [healthmesh-update.])",
                "records[0].weight: unknown field (expected: one of [group, key, name, server, ttl, types, zone])");
    }

    @Test
    void requiredFieldsAndDuplicateNames() {
        invalid("""
                records:
                  - {zone: example.com, name: api, server: 127.0.0.1, key: healthmesh-update}
                  - {group: a, zone: example.com, name: x, server: 127.0.0.1, key: healthmesh-update}
                  - {group: b, zone: example.com, name: x.example.com., server: 127.0.0.1, key: healthmesh-update}
                  - {group: c, zone: "bad..zone", name: y, server: "127.0.0.1:0", key: healthmesh-update}
                """,
                "records[0].group: missing (expected: a value, this field is required)",
                "records[2].name: x.example.com. (expected: a name no other record has; records[1] has it)",
                "records[3].zone: bad..zone (expected: a domain name)",
                "records[3].server: 127.0.0.1:0");
    }

    @Test
    void theFileAsAWhole() {
        assertThatThrownBy(() -> MappingFile.parse("[1, 2]", dir))
                .hasMessageContaining("mapping file: [1,2] (expected: a mapping with keys and records lists)");
        assertThatThrownBy(() -> MappingFile.parse("records: [\n  - {", dir))
                .hasMessageStartingWith("mapping file: not YAML or JSON");
        assertThatThrownBy(() -> MappingFile.parse("keys: []\nrecords: []\nzones: {}", dir))
                .hasMessageContainingAll("keys: [] (expected: a list of 1..100 TSIG keys)",
                        "records: [] (expected: a list of 1..1000 records)",
                        "zones: unknown field (expected: one of [keys, records])");
        assertThatThrownBy(() -> MappingFile.load(dir.resolve("nope.yaml")))
                .hasMessageContaining("mapping.file: " + dir.resolve("nope.yaml") + " (expected: an existing mapping file)");
    }

    @Test
    void anUnknownAlgorithmIsRefused() {
        assertThatThrownBy(() -> MappingFile.parse("""
                keys: [{name: k, algorithm: hmac-sha3, secretFile: x}]
                records: [{group: api, zone: example.com, name: api, server: 127.0.0.1, key: k}]
                """, dir)).hasMessageContaining("keys[0].algorithm: hmac-sha3 (expected: one of [hmac-sha256,");
    }
}
