package io.healthmesh.testkit.fuzz;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.ProbeFingerprint;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.schema.GrpcCheck;
import io.healthmesh.schema.HttpCheck;
import io.healthmesh.schema.HttpMethod;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import io.healthmesh.schema.DnsCheck;
import io.healthmesh.schema.Protocol;
import io.healthmesh.schema.QuorumPolicy;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.schema.TcpCheck;
import io.healthmesh.schema.TlsCheck;
import io.healthmesh.schema.UdpCheck;
import io.healthmesh.schema.UdpMode;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.ToIntBiFunction;

/**
 * Generates hostile inputs for the fuzz harness, reproducibly from a seed: target definitions mutated by bit flips,
 * truncations, appended garbage and structured mutations of every field toward its bound and past it; probe results
 * mutated the same way; records written under hostile writer schemas (registered in the given registry). Valid
 * definitions come out too (a mutation at a bound is valid), so the harness checks both ways.
 */
public final class FuzzCorpus {

    private final Random random;
    private final AvroSerde<TargetDefinition> definitions;
    private final AvroSerde<ProbeResult> results;
    private final ToIntBiFunction<String, String> registry;
    private final String targetsTopic;
    private final String resultsTopic;
    private final long seed;
    private int schemas;

    /**
     * @param registry registers a writer schema under a subject and returns its id (the registry the serdes of
     *     {@code serdeConfig} read)
     */
    public FuzzCorpus(long seed, Map<String, ?> serdeConfig, ToIntBiFunction<String, String> registry,
                      String targetsTopic, String resultsTopic) {
        this.seed = seed;
        this.random = new Random(seed);
        this.definitions = AvroSerde.forValues(TargetDefinition.class, serdeConfig);
        this.results = AvroSerde.forValues(ProbeResult.class, serdeConfig);
        this.registry = registry;
        this.targetsTopic = targetsTopic;
        this.resultsTopic = resultsTopic;
    }

    /** A valid definition of id {@code id}, of a random protocol, with regions {@code eu} and {@code us}. */
    public TargetDefinition validDefinition(String id) {
        Protocol protocol = Protocol.values()[random.nextInt(Protocol.values().length)];
        TargetDefinition.Builder b = TargetDefinition.newBuilder().setId(id).setGroup("g-" + random.nextInt(5))
                .setAddress("10." + random.nextInt(256) + "." + random.nextInt(256) + ".1")
                .setPort(1 + random.nextInt(65_535)).setProtocol(protocol).setIntervalMs(5_000).setTimeoutMs(2_000)
                .setLabels(new HashMap<>(Map.of("team", "t" + random.nextInt(9))))
                .setRegions(new ArrayList<>(List.of("eu", "us")));
        switch (protocol) {
            case HTTP, HTTPS -> b.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/healthz")
                    .setHeaders(new HashMap<>(Map.of("X-Probe", "1"))).setTlsVerify(protocol == Protocol.HTTPS)
                    .build());
            case UDP -> b.setUdp(UdpCheck.newBuilder().setMode(UdpMode.PAYLOAD).setRequest("ping")
                    .setExpectedResponse("pong").build());
            case TCP -> b.setTcp(TcpCheck.newBuilder().setSend("PING\r\n").setExpect("PONG").build());
            case GRPC -> b.setGrpc(GrpcCheck.newBuilder().setService("pkg.Api").setTls(random.nextBoolean()).build());
            case DNS -> b.setDns(DnsCheck.newBuilder().setName("www.example.com").setType("A")
                    .setExpectedAnswers(new ArrayList<>(List.of("192.0.2.1")))
                    .setAnswerPatterns(new ArrayList<>(List.of("192\\.0\\.2\\.[0-9]+"))).build());
            default -> { }
        }
        if (protocol == Protocol.HTTPS || protocol == Protocol.GRPC && b.getGrpc().getTls()) {
            b.setTls(TlsCheck.newBuilder().setTrustId(random.nextBoolean() ? "internal-ca" : null)
                    .setMinCertDaysLeft(random.nextInt(31)).build());
        }
        return b.build();
    }

    public byte[] encode(TargetDefinition definition) {
        return definitions.serializer().serialize(targetsTopic, definition);
    }

    public byte[] encode(ProbeResult result) {
        return results.serializer().serialize(resultsTopic, result);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A mutated definition (its key usually its id). */
    public FuzzInput mutatedDefinition(int n) {
        String id = "fz-" + n;
        TargetDefinition base = validDefinition(id);
        int pick = random.nextInt(10);
        if (pick < 2) {
            return new FuzzInput("bitflip", false, utf8(id), flipBits(encode(base)));
        } else if (pick < 3) {
            byte[] bytes = encode(base);
            return new FuzzInput("truncate", false, utf8(id), Arrays.copyOf(bytes, random.nextInt(bytes.length)));
        } else if (pick < 4) {
            byte[] bytes = encode(base);
            byte[] longer = Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(64));
            for (int i = bytes.length; i < longer.length; i++) {
                longer[i] = (byte) random.nextInt(256);
            }
            return new FuzzInput("append", false, utf8(id), longer);
        } else if (pick < 5) {
            byte[] noise = new byte[random.nextInt(200)];
            random.nextBytes(noise);
            return new FuzzInput("noise", false, random.nextInt(20) == 0 ? new byte[0] : utf8(id), noise);
        }
        String[] kind = new String[1];
        TargetDefinition mutated = structured(base, kind);
        String key = random.nextInt(40) == 0 ? id + "-other" : id;
        return new FuzzInput(kind[0], false, utf8(key), encode(mutated));
    }

    private byte[] flipBits(byte[] bytes) {
        byte[] out = bytes.clone();
        int flips = 1 + random.nextInt(8);
        for (int i = 0; i < flips; i++) {
            int at = 5 + random.nextInt(Math.max(1, out.length - 5));
            if (at < out.length) {
                out[at] ^= (byte) (1 << random.nextInt(8));
            }
        }
        return out;
    }

    private String text(int length) {
        char[] c = new char[length];
        Arrays.fill(c, (char) ('a' + random.nextInt(26)));
        return new String(c);
    }

    /** Around a bound: below, at, just past and far past it. */
    private int around(int bound) {
        return switch (random.nextInt(5)) {
            case 0 -> Math.max(0, bound - 1);
            case 1 -> bound;
            case 2 -> bound + 1;
            case 3 -> bound * 2 + 1;
            default -> 70_000;
        };
    }

    private TargetDefinition structured(TargetDefinition base, String[] kind) {
        TargetDefinition d = TargetDefinition.newBuilder(base).build();
        int field = random.nextInt(24);
        int n;
        switch (field) {
            case 0 -> {
                n = around(255);
                d.setId(text(n));
                kind[0] = "id=" + n;
            }
            case 1 -> {
                n = around(255);
                d.setGroup(random.nextBoolean() ? text(n) : "g\u0000" + text(3));
                kind[0] = "group=" + n;
            }
            case 2 -> {
                n = around(64);
                List<String> regions = new ArrayList<>(List.of("eu"));
                regions.add(random.nextInt(4) == 0 ? "eu west" : text(n));
                d.setRegions(regions);
                kind[0] = "regions.name=" + n;
            }
            case 3 -> {
                n = around(16);
                List<String> regions = new ArrayList<>();
                for (int i = 0; i < Math.min(n, 20_000); i++) {
                    regions.add("r" + i);
                }
                d.setRegions(regions);
                kind[0] = "regions.count=" + n;
            }
            case 4 -> {
                n = around(32);
                Map<String, String> labels = new HashMap<>();
                for (int i = 0; i < Math.min(n, 5_000); i++) {
                    labels.put("k" + i, "v");
                }
                d.setLabels(labels);
                kind[0] = "labels.count=" + n;
            }
            case 5 -> {
                n = around(128);
                d.setLabels(new HashMap<>(Map.of(text(n), "v")));
                kind[0] = "labels.key=" + n;
            }
            case 6 -> {
                n = around(256);
                d.setLabels(new HashMap<>(Map.of("k", text(n))));
                kind[0] = "labels.value=" + n;
            }
            case 7 -> {
                n = around(1024);
                d.setProtocol(Protocol.HTTP);
                d.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/")
                        .setHeaders(new HashMap<>(Map.of("X-Token", text(n)))).build());
                kind[0] = "http.headers.value=" + n;
            }
            case 8 -> {
                n = around(8);
                Map<String, String> headers = new HashMap<>();
                for (int i = 0; i < Math.min(n, 5_000); i++) {
                    headers.put("X-" + i, "v");
                }
                d.setProtocol(Protocol.HTTP);
                d.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/").setHeaders(headers).build());
                kind[0] = "http.headers.count=" + n;
            }
            case 9 -> {
                n = around(500);
                d.setProtocol(Protocol.TCP);
                d.setTcp(TcpCheck.newBuilder().setSend(text(n)).setExpect(null).build());
                kind[0] = "tcp.send=" + n;
            }
            case 10 -> {
                n = around(80);
                d.setProtocol(Protocol.HTTPS);
                d.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/" + text(Math.max(0, n - 1)))
                        .build());
                kind[0] = "http.path=" + n;
            }
            case 11 -> {
                n = around(253);
                d.setAddress(text(n));
                kind[0] = "address=" + n;
            }
            case 12 -> {
                int[] ints = {0, -1, 1, 65_535, 65_536, Integer.MIN_VALUE, Integer.MAX_VALUE};
                int v = ints[random.nextInt(ints.length)];
                switch (random.nextInt(6)) {
                    case 0 -> d.setPort(v);
                    case 1 -> d.setIntervalMs(v);
                    case 2 -> d.setTimeoutMs(v);
                    case 3 -> d.setHealthyThreshold(v);
                    case 4 -> d.setWeight(v);
                    default -> d.setQuorumAtLeast(v);
                }
                kind[0] = "int=" + v;
            }
            case 13 -> {
                n = around(16);
                List<String> statuses = new ArrayList<>();
                for (int i = 0; i < Math.min(n, 5_000); i++) {
                    statuses.add(random.nextInt(10) == 0 ? "6xx" : "2xx");
                }
                d.setProtocol(Protocol.HTTP);
                d.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/").setExpectedStatuses(statuses)
                        .build());
                kind[0] = "http.expectedStatuses=" + n;
            }
            case 14 -> {
                d.setId(d.getId() + (random.nextBoolean() ? "\uD800" : "\n"));
                kind[0] = "id.characters";
            }
            case 15 -> {
                n = around(200);
                d.setProtocol(Protocol.GRPC);
                d.setHttp(null);
                d.setGrpc(GrpcCheck.newBuilder().setService(random.nextInt(4) == 0 ? "a b" : text(n)).build());
                kind[0] = "grpc.service=" + n;
            }
            case 16 -> {
                n = around(64);
                d.setProtocol(Protocol.HTTPS);
                d.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/").build());
                d.setTls(TlsCheck.newBuilder().setTrustId(random.nextInt(4) == 0 ? "../ca.pem" : text(n))
                        .setClientKeyId(random.nextBoolean() ? null : text(n)).build());
                kind[0] = "tls.ids=" + n;
            }
            case 17 -> {
                int[] days = {-1, 0, 3_650, 3_651, Integer.MIN_VALUE, Integer.MAX_VALUE};
                int v = days[random.nextInt(days.length)];
                d.setProtocol(Protocol.GRPC);
                d.setHttp(null);
                d.setGrpc(GrpcCheck.newBuilder().setTls(true).build());
                d.setTls(TlsCheck.newBuilder().setMinCertDaysLeft(v).setInsecureSkipVerify(random.nextBoolean())
                        .build());
                kind[0] = "tls.minCertDaysLeft=" + v;
            }
            case 18 -> {
                // TLS settings where no TLS is spoken: plaintext GRPC, TCP
                d.setProtocol(random.nextBoolean() ? Protocol.GRPC : Protocol.TCP);
                d.setHttp(null);
                d.setTls(TlsCheck.newBuilder().setInsecureSkipVerify(true).setTrustId("ca").build());
                kind[0] = "tls.misplaced";
            }
            case 19 -> {
                n = around(16);
                List<String> answers = new ArrayList<>();
                for (int i = 0; i < Math.min(n, 5_000); i++) {
                    // an entry just over its bound, not 70,000 characters: thousands of those would make a record larger than a
                    // producer may send (the record-size bound is exercised by the other cases)
                    answers.add(random.nextInt(10) == 0 ? text(Math.min(around(512), 1_025)) : "192.0.2." + i);
                }
                d.setProtocol(Protocol.DNS);
                d.setDns(DnsCheck.newBuilder().setName(random.nextBoolean() ? "example.com" : text(around(253)))
                        .setType(random.nextInt(8) == 0 ? "PTR" : "A")
                        .setExpectedRcode(random.nextInt(8) == 0 ? "BOGUS" : "NOERROR").setExpectedAnswers(answers)
                        .build());
                kind[0] = "dns.expectedAnswers=" + n;
            }
            case 20 -> {
                n = around(8);
                // patterns a backtracking engine would choke on, unbalanced ones, and long ones
                String[] shapes = {"(a+)+$", "(a|aa)*b", "(x+x+)+y", "(unclosed", "(a)\\1", "[0-9]+"};
                List<String> patterns = new ArrayList<>();
                for (int i = 0; i < Math.min(n, 5_000); i++) {
                    patterns.add(random.nextInt(6) == 0 ? text(Math.min(around(256), 513))
                            : shapes[random.nextInt(shapes.length)]);
                }
                d.setProtocol(Protocol.DNS);
                d.setDns(DnsCheck.newBuilder().setName("example.com").setAnswerPatterns(patterns).build());
                kind[0] = "dns.answerPatterns=" + n;
            }
            case 21 -> {
                // conditions: valid ones, syntax and type errors, deep nesting, and lengths around the bound
                String[] shapes = {"status == 200 && json.status == 'ok'", "dns.answers.exists(a, a == '192.0.2.1')",
                    "status == ", "status == 'ok'", "body", "undeclared > 1", "(".repeat(200) + "true"
                        + ")".repeat(200), "json.items.all(a, json.items.all(b, a == b))"};
                n = around(2_048);
                String condition = random.nextInt(3) == 0 ? "status == 200" + " ".repeat(Math.max(0, n - 13))
                        : shapes[random.nextInt(shapes.length)];
                d.setCondition(condition);
                kind[0] = "condition=" + condition.length();
            }
            case 22 -> {
                // TLS verification as every writer may have stated it: the old default (tlsVerify false and no
                // tls section, valid and probed unverified), verified, skipped, and the contradiction of both
                boolean verify = random.nextBoolean();
                boolean skip = random.nextBoolean();
                d.setProtocol(Protocol.HTTPS);
                d.setHttp(HttpCheck.newBuilder().setMethod(HttpMethod.GET).setPath("/").setTlsVerify(verify).build());
                d.setTls(skip || random.nextBoolean() ? TlsCheck.newBuilder().setInsecureSkipVerify(skip)
                        .setTrustId(!skip && random.nextBoolean() ? "internal-ca" : null).build() : null);
                d.setProfile(random.nextInt(4) == 0 ? io.healthmesh.schema.TargetProfile.TENCENT_CLB
                        : io.healthmesh.schema.TargetProfile.GENERIC);
                kind[0] = "tls.verify=" + verify + ",skip=" + skip;
            }
            default -> {
                d.setQuorum(QuorumPolicy.AT_LEAST);
                d.setQuorumAtLeast(random.nextInt(4));
                kind[0] = "quorumAtLeast";
            }
        }
        return d;
    }

    /** A result for one of {@code known} (the valid targets), mutated. */
    public FuzzInput mutatedResult(List<TargetSpec> known, long nowMs) {
        TargetSpec target = known.get(random.nextInt(known.size()));
        ProbeResult.Builder b = ProbeResult.newBuilder().setTargetId(target.id())
                .setGeneration(ProbeFingerprint.of(target)).setRegion(random.nextBoolean() ? "eu" : "us")
                .setProberId("p-1").setProtocol(Protocol.valueOf(target.protocol().name())).setStartedAtMs(nowMs - 50)
                .setOutcome(ProbeOutcome.values()[random.nextInt(ProbeOutcome.values().length)])
                .setLatencyMicros(random.nextInt(2_000_000));
        String key = target.id();
        String kind;
        switch (random.nextInt(13)) {
            case 0 -> {
                b.setRegion(text(around(64)));
                kind = "region.length";
            }
            case 1 -> {
                b.setRegion(random.nextBoolean() ? "ap" : "eu west");
                kind = "region.unlisted";
            }
            case 2 -> {
                long[] times = {nowMs + 300_001, nowMs + 86_400_000L, -1, Long.MAX_VALUE, Long.MIN_VALUE};
                b.setStartedAtMs(times[random.nextInt(times.length)]);
                kind = "startedAtMs";
            }
            case 3 -> {
                long[] latencies = {-1, 1L << 53, Long.MAX_VALUE};
                b.setLatencyMicros(latencies[random.nextInt(latencies.length)]);
                kind = "latencyMicros";
            }
            case 4 -> {
                b.setGeneration(random.nextBoolean() ? random.nextLong() : -1);
                kind = "generation";
            }
            case 5 -> {
                b.setDetail(text(around(200)));
                kind = "detail";
            }
            case 6 -> {
                b.setProberId(text(around(255)));
                kind = "proberId";
            }
            case 7 -> {
                key = target.id() + "-x";
                kind = "key";
            }
            case 8 -> {
                return new FuzzInput("result.bitflip", true, utf8(key), flipBits(encode(b.build())));
            }
            case 9 -> {
                byte[] bytes = encode(b.build());
                return new FuzzInput("result.truncate", true, utf8(key),
                        Arrays.copyOf(bytes, random.nextInt(bytes.length)));
            }
            case 10 -> {
                long[] times = {nowMs + 86_400_000L, nowMs - 1, 0, -1, Long.MAX_VALUE, Long.MIN_VALUE};
                b.setCertNotAfterMs(times[random.nextInt(times.length)]);
                b.setChainNotAfterMs(random.nextBoolean() ? null : times[random.nextInt(times.length)]);
                kind = "certNotAfterMs";
            }
            default -> kind = "result.valid";
        }
        return new FuzzInput(kind, true, utf8(key), encode(b.build()));
    }

    /**
     * A definition written under a newly registered hostile writer schema: the reader's schema plus one last field
     * of a hostile shape, and bytes for it.
     */
    public FuzzInput hostileSchemaRecord(int n) {
        String id = "hs-" + n;
        String junkType;
        byte[] junk;
        String kind;
        switch (random.nextInt(7)) {
            case 0 -> {
                junkType = "{\"type\":\"record\",\"name\":\"Node" + n + "\",\"fields\":[{\"name\":\"next\","
                        + "\"type\":[\"null\",\"Node" + n + "\"]}]}";
                int depth = random.nextBoolean() ? 3 : 1_000 + random.nextInt(9_000);
                junk = new byte[depth + 1];
                Arrays.fill(junk, (byte) 2);
                junk[depth] = 0;
                kind = "schema.recursive";
            }
            case 1 -> {
                junkType = "{\"type\":\"array\",\"items\":\"null\"}";
                long[] counts = {1L << 62, 1L << 31, 1_000_000, 5};
                junk = concat(varint(counts[random.nextInt(counts.length)]), new byte[] {0});
                kind = "schema.blockCount";
            }
            case 2 -> {
                junkType = "{\"type\":\"map\",\"values\":\"null\"}";
                junk = concat(varint(-(1L << 40)), varint(Long.MAX_VALUE));
                kind = "schema.mapBlock";
            }
            case 3 -> {
                junkType = random.nextBoolean() ? "\"string\"" : "\"bytes\"";
                long[] lengths = {Integer.MAX_VALUE, -7, 1L << 40};
                junk = varint(lengths[random.nextInt(lengths.length)]);
                kind = "schema.length";
            }
            case 4 -> {
                int depth = 20 + random.nextInt(60);
                junkType = "{\"type\":\"array\",\"items\":".repeat(depth) + "\"int\"" + "}".repeat(depth);
                junk = new byte[depth + 1];
                Arrays.fill(junk, (byte) 2);
                kind = "schema.deep";
            }
            case 5 -> {
                junkType = "{\"type\":\"fixed\",\"name\":\"F" + n + "\",\"size\":" + (1 << 30) + "}";
                junk = new byte[] {1, 2, 3};
                kind = "schema.fixed";
            }
            default -> {
                junkType = "[\"null\",\"int\"]";
                junk = varint(random.nextBoolean() ? 7 : -1);
                kind = "schema.unionIndex";
            }
        }
        String reader = TargetDefinition.getClassSchema().toString();
        String writer = reader.substring(0, reader.lastIndexOf(']')) + ",{\"name\":\"junk" + "\",\"type\":" + junkType
                + "}]}";
        int schemaId = registry.applyAsInt("fuzz-hostile-" + seed + "-" + (schemas++) + "-value", writer);
        return new FuzzInput(kind, false, utf8(id), concat(body(schemaId, validDefinition(id)), junk));
    }

    private static byte[] body(int schemaId, TargetDefinition definition) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
        try {
            var encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            new SpecificDatumWriter<>(TargetDefinition.class).write(definition, encoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] varint(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long raw = (value << 1) ^ (value >> 63);
        while ((raw & ~0x7fL) != 0) {
            out.write((int) ((raw & 0x7f) | 0x80));
            raw >>>= 7;
        }
        out.write((int) raw);
        return out.toByteArray();
    }

    /**
     * Whether a definition record should be accepted, judged independently of the worker code under test: decodes,
     * maps, validates, fits the encoded bound and has its id as key. Used as the oracle of the harness.
     */
    public boolean acceptable(FuzzInput input) {
        if (input.key() == null || input.value() == null) {
            return false;
        }
        try {
            if (!TargetValidator.validateEncodedSize(input.value().length).isEmpty()) {
                return false;
            }
            TargetDefinition d = definitions.deserializer().deserialize(targetsTopic, input.value());
            TargetSpec spec = TargetSpecs.fromAvro(d);
            return TargetValidator.validate(spec).isEmpty() && Arrays.equals(input.key(), utf8(spec.id()))
                    && new String(input.key(), StandardCharsets.UTF_8).equals(spec.id());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Runs {@code each} for every input of a full corpus of the given sizes, interleaved. */
    public void forEach(int definitionsCount, int hostileCount, Consumer<FuzzInput> each) {
        for (int i = 0; i < definitionsCount; i++) {
            each.accept(mutatedDefinition(i));
            if (hostileCount > 0 && i % Math.max(1, definitionsCount / hostileCount) == 0 && i / Math.max(1,
                    definitionsCount / hostileCount) < hostileCount) {
                each.accept(hostileSchemaRecord(i));
            }
        }
    }
}
