package io.healthmesh.contract.target;

import io.healthmesh.core.target.HttpMethod;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.QuorumPolicy;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.UdpMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading target files: shapes, defaults, and every error reported with file, target and field. */
class TargetFileReaderTest {

    private static TargetFileReader.Batch yaml(String text) {
        return TargetFileReader.readText("t.yaml", text, false);
    }

    @Test
    void theExamplesFileIsValidAndCoversEveryProtocol() {
        Path examples = Path.of("..", "examples", "targets.yaml");
        TargetFileReader.Batch batch = TargetFileReader.read(List.of(examples), InputStreamOfNothing.INSTANCE);
        assertThat(batch.errors()).isEmpty();
        Set<Protocol> protocols = batch.specs().stream().map(TargetSpec::protocol)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Protocol.class)));
        assertThat(protocols).containsExactlyInAnyOrder(Protocol.values());
        assertThat(batch.specs()).anySatisfy(s -> assertThat(s.udp().mode()).isEqualTo(UdpMode.PAYLOAD));
        assertThat(batch.specs()).anySatisfy(s -> assertThat(s.tcp().hasPayload()).isTrue());
    }

    @Test
    void absentFieldsTakeTheContractDefaults() {
        TargetFileReader.Batch batch = yaml("- {id: a, address: 10.0.0.1, protocol: http}\n");
        assertThat(batch.errors()).isEmpty();
        TargetSpec s = batch.specs().get(0);
        assertThat(s.group()).isEqualTo("default");
        assertThat(s.port()).isEqualTo(80);
        assertThat(s.intervalMs()).isEqualTo(5000);
        assertThat(s.timeoutMs()).isEqualTo(2000);
        assertThat(s.healthyThreshold()).isEqualTo(3);
        assertThat(s.unhealthyThreshold()).isEqualTo(3);
        assertThat(s.weight()).isEqualTo(10);
        assertThat(s.enabled()).isTrue();
        assertThat(s.quorum()).isEqualTo(QuorumPolicy.MAJORITY);
        assertThat(s.http().method()).isEqualTo(HttpMethod.HEAD);
        assertThat(s.http().path()).isEqualTo("/");
        assertThat(s.http().expectedStatuses()).containsExactly("2xx");
    }

    @Test
    void acceptsAListATargetsMapOneTargetAndSeveralDocuments() {
        assertThat(yaml("targets:\n  - {id: a, address: h1, protocol: TCP, port: 1}\n").specs()).hasSize(1);
        assertThat(yaml("{id: a, address: h1, protocol: TCP, port: 1}\n").specs()).hasSize(1);
        assertThat(yaml("- {id: a, address: h1, protocol: TCP, port: 1}\n---\n"
                + "targets: [{id: b, address: h2, protocol: ICMP}]\n").specs())
                .extracting(TargetSpec::id).containsExactly("a", "b");
    }

    @Test
    void readsJson() {
        TargetFileReader.Batch batch = TargetFileReader.readText("t.json",
                "{\"targets\": [{\"id\": \"a\", \"address\": \"10.0.0.1\", \"protocol\": \"UDP\", \"port\": 53,"
                        + " \"udp\": {\"mode\": \"PAYLOAD\", \"request\": \"q\", \"expectedResponse\": \"r\"}}]}", true);
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.specs().get(0).udp().request()).isEqualTo("q");
    }

    @Test
    void yamlNumbersInTextFieldsAndStatusCodesAreTakenAsText() {
        TargetFileReader.Batch batch = yaml("- {id: 42, address: h, protocol: HTTP, http: {expectedStatuses: [200, 3xx]}}\n");
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.specs().get(0).id()).isEqualTo("42");
        assertThat(batch.specs().get(0).http().expectedStatuses()).containsExactly("200", "3xx");
    }

    @Test
    void unknownFieldsAreRejectedAtEveryLevel() {
        TargetFileReader.Batch batch = yaml("- id: a\n  address: h\n  protocol: HTTP\n  intervall: 5000\n"
                + "  http: {paht: /x}\n");
        assertThat(batch.entries()).isEmpty();
        assertThat(batch.errors()).containsExactly(
                "t.yaml: target a: intervall: unknown field (expected one of: id, group, address, port, protocol, "
                        + "intervalMs, timeoutMs, healthyThreshold, unhealthyThreshold, enabled, weight, labels, http, "
                        + "udp, tcp, regions, quorum, quorumAtLeast, profile, fastIntervalMs, downIntervalMs, grpc, tls,"
                        + " dns, condition)",
                "t.yaml: target a: http.paht: unknown field (expected one of: method, path, host, expectedStatuses, "
                        + "followRedirects, headers, bodyContains, tlsVerify)");
    }

    @Test
    void wrongTypesAreReportedOnceEach() {
        TargetFileReader.Batch batch = yaml("- {id: a, address: h, protocol: TCP, port: web, intervalMs: 1.5,"
                + " enabled: maybe, quorum: SOME, regions: eu, labels: [x]}\n");
        assertThat(batch.errors()).containsExactly(
                "t.yaml: target a: port: \"web\" (expected: an integer)",
                "t.yaml: target a: intervalMs: 1.5 (expected: an integer)",
                "t.yaml: target a: enabled: \"maybe\" (expected: true or false)",
                "t.yaml: target a: labels: a list (expected: a map of names to strings)",
                "t.yaml: target a: regions: \"eu\" (expected: a list)",
                "t.yaml: target a: quorum: \"SOME\" (expected: one of ANY, MAJORITY, ALL, AT_LEAST)");
    }

    @Test
    void aSectionOfAnotherProtocolIsAnError() {
        assertThat(yaml("- {id: a, address: h, protocol: TCP, http: {path: /}}\n").errors()).containsExactly(
                "t.yaml: target a: http: a section for protocol TCP (expected: only with protocol HTTP or HTTPS)");
    }

    @Test
    void validationErrorsOfEveryTargetAreListedWithFileTargetAndField() {
        TargetFileReader.Batch batch = yaml("""
                - {id: ok, address: 10.0.0.1, protocol: TCP, port: 1}
                - {id: bad, address: 10.0.0.1, protocol: HTTP, unhealthyThreshold: 0, http: {path: nope}}
                - {address: 10.0.0.1, protocol: UDP, port: 53, udp: {mode: PAYLOAD}}
                """);
        assertThat(batch.entries()).isEmpty();
        assertThat(batch.errors()).containsExactly(
                "t.yaml: target bad: unhealthyThreshold: 0 (expected: 1..10)",
                "t.yaml: target bad: http.path: \"nope\" (expected: starts with '/', 1..80 characters of letters,"
                        + " digits and -/.%?#&=_;~!()*[]@$^:',+)",
                "t.yaml: target #3: id: null (expected: non-empty)",
                "t.yaml: target #3: udp.request: null (expected: 1..500 characters in PAYLOAD mode)",
                "t.yaml: target #3: udp.expectedResponse: null (expected: 1..500 characters in PAYLOAD mode)");
    }

    @Test
    void aDnsTargetAsksPort53UnlessToldAndItsSectionBelongsToDnsOnly() {
        TargetFileReader.Batch batch = yaml("- {id: ns, address: 192.0.2.53, protocol: DNS, dns: {name: example.com,"
                + " type: mx, expectedRcode: nxdomain}}\n");
        assertThat(batch.errors()).isEmpty();
        TargetSpec ns = batch.specs().get(0);
        assertThat(ns.port()).isEqualTo(53);
        assertThat(ns.dns()).isEqualTo(new io.healthmesh.core.target.DnsSpec("example.com",
                io.healthmesh.core.target.DnsRecordType.MX, "NXDOMAIN", List.of(), List.of()));
        assertThat(yaml("- {id: t, address: h, protocol: TCP, dns: {name: example.com}}\n").errors())
                .containsExactly("t.yaml: target t: dns: a section for protocol TCP (expected: only with protocol DNS)");
        assertThat(yaml("- {id: ns, address: h, protocol: DNS, dns: {name: example.com, typ: A}}\n").errors())
                .singleElement().asString().startsWith("t.yaml: target ns: dns.typ: unknown field");
    }

    @Test
    void aConditionIsReadAndABadOneIsReportedWithItsPosition() {
        TargetFileReader.Batch batch = yaml("- id: api\n  address: h\n  protocol: HTTP\n"
                + "  condition: 'status == 200 && json.status == \"ok\"'\n");
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.specs().get(0).condition()).isEqualTo("status == 200 && json.status == \"ok\"");
        assertThat(yaml("- {id: api, address: h, protocol: HTTP, condition: 'status == \"ok\"'}\n").errors())
                .singleElement().asString()
                .startsWith("t.yaml: target api: condition: 1:8: found no matching overload for '_==_'");
    }

    @Test
    void missingProtocolAndUnknownProtocolAreReported() {
        assertThat(yaml("- {id: a, address: h}\n- {id: b, address: h, protocol: SCTP}\n").errors()).containsExactly(
                "t.yaml: target a: protocol: null (expected: one of TCP, UDP, HTTP, HTTPS, ICMP, GRPC, DNS)",
                "t.yaml: target b: protocol: \"SCTP\" (expected: one of TCP, UDP, HTTP, HTTPS, ICMP, GRPC, DNS)");
    }

    @Test
    void duplicateIdsAcrossFilesAreAnError(@TempDir Path dir) throws IOException {
        Path one = Files.writeString(dir.resolve("one.yaml"), "- {id: a, address: h, protocol: ICMP}\n");
        Path two = Files.writeString(dir.resolve("two.json"), "[{\"id\": \"a\", \"address\": \"h\", \"protocol\": \"ICMP\"}]");
        TargetFileReader.Batch batch = TargetFileReader.read(List.of(one, two), InputStreamOfNothing.INSTANCE);
        assertThat(batch.errors()).containsExactly(two + ": target a: id: \"a\" twice (expected: unique ids; first in "
                + one + " target #1)");
    }

    @Test
    void syntaxErrorsNameTheLine() {
        List<String> errors = yaml("- id: a\n  address: [unclosed\n").errors();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).startsWith("t.yaml: line ").contains("not valid YAML");
    }

    @Test
    void duplicateKeysAreAnError() {
        List<String> errors = yaml("- {id: a, id: b, address: h, protocol: ICMP}\n").errors();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).contains("Duplicate field 'id'");
    }

    @Test
    void missingFileAndEmptyFileAreErrors(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.yaml"), "# nothing\n");
        assertThat(TargetFileReader.read(List.of(dir.resolve("nope.yaml")), InputStreamOfNothing.INSTANCE).errors())
                .containsExactly(dir.resolve("nope.yaml") + ": file not found");
        assertThat(TargetFileReader.read(List.of(empty), InputStreamOfNothing.INSTANCE).errors())
                .containsExactly(empty + ": no targets found");
    }

    @Test
    void dashReadsStandardInput() {
        TargetFileReader.Batch batch = TargetFileReader.read(List.of(Path.of("-")),
                new ByteArrayInputStream("- {id: a, address: h, protocol: ICMP}\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(batch.specs()).extracting(TargetSpec::id).containsExactly("a");
    }

    @Test
    void aScalarDocumentIsNotTargets() {
        assertThat(yaml("just text\n").errors()).containsExactly(
                "t.yaml: \"just text\" (expected: a list of targets, a map with a 'targets' list, or one target)");
        assertThat(yaml("- 5\n").errors()).containsExactly("t.yaml: target #1: 5 (expected: a map of target fields)");
    }

    /** A JSON list of {@code count} TCP targets {@code t-0, t-1, ...}; {@code bad(i)} gives target i port 0. */
    private static String manyTargets(int count, java.util.function.IntPredicate bad,
                                      java.util.function.IntPredicate notAMap) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < count; i++) {
            json.append(i == 0 ? "" : ",\n");
            if (notAMap.test(i)) {
                json.append(i);
            } else {
                json.append("{\"id\": \"t-").append(i).append("\", \"address\": \"10.0.0.1\", \"protocol\": \"TCP\","
                        + " \"port\": ").append(bad.test(i) ? 0 : 80).append('}');
            }
        }
        return json.append(']').toString();
    }

    @Test
    void manyTargetsComeOutInFileOrderEachWithTheBytesItWillBeWrittenAs() {
        int count = 20_000;
        TargetFileReader.Batch batch = TargetFileReader.readText("t.json", manyTargets(count, i -> false, i -> false),
                true);
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.entries()).hasSize(count);
        for (int i = 0; i < count; i++) {
            TargetFileReader.Entry e = batch.entries().get(i);
            assertThat(e.spec().id()).isEqualTo("t-" + i);
            assertThat(e.position()).isEqualTo(i + 1);
            assertThat(e.encoded()).isEqualTo(TargetSpecs.encode(e.spec()));
        }
    }

    @Test
    void everyProblemOfManyTargetsIsListedOnceInFileOrder() {
        int count = 20_000;
        java.util.function.IntPredicate bad = i -> i % 997 == 3;
        java.util.function.IntPredicate notAMap = i -> i % 1_499 == 7;
        TargetFileReader.Batch batch = TargetFileReader.readText("t.json", manyTargets(count, bad, notAMap), true);
        List<String> expected = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (notAMap.test(i)) {
                expected.add("t.json: target #" + (i + 1) + ": " + i + " (expected: a map of target fields)");
            } else if (bad.test(i)) {
                expected.add("t.json: target t-" + i + ": port");
            }
        }
        assertThat(batch.entries()).isEmpty();
        assertThat(batch.errors()).hasSize(expected.size());
        for (int k = 0; k < expected.size(); k++) {
            assertThat(batch.errors().get(k)).startsWith(expected.get(k));
        }
    }

    /** Standard input that is never read in these tests. */
    static final class InputStreamOfNothing {
        static final ByteArrayInputStream INSTANCE = new ByteArrayInputStream(new byte[0]);

        private InputStreamOfNothing() {
        }
    }
}
