package io.healthmesh.core.target;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The generation of a target: a fingerprint of the parameters that define <em>what</em> is probed (protocol,
 * address, port and the protocol section). Thresholds, timing, group, weight, labels, regions and quorum are left
 * out on purpose: changing them keeps the counters (SPEC section 2). Prober and aggregator compute it independently
 * from the same definition and agree without talking.
 *
 * <p>Each field is hashed with a length prefix (and null apart from every string), so that no two different
 * definitions encode alike: without them, {@code send = "x|y", expect = null} and {@code send = "x",
 * expect = "y|null"} hashed the same text. The 64-bit FNV-1a hash is folded to {@value #BITS} bits, a value in
 * {@code [0, 2^53)}: every Avro {@code long} of the contract then fits a JavaScript number exactly, and any
 * Confluent client decodes the topics with its default settings.
 */
public final class ProbeFingerprint {

    /** Bits of a generation: the integers a JavaScript number holds exactly. */
    public static final int BITS = 53;
    /** The largest generation, {@code 2^53 - 1}. */
    public static final long MAX = (1L << BITS) - 1;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private ProbeFingerprint() {
    }

    /** The generation of {@code spec}, in {@code [0, 2^53)}. */
    public static long of(TargetSpec spec) {
        Canonical c = new Canonical();
        c.text(spec.protocol() == null ? null : spec.protocol().name()).text(spec.address()).number(spec.port());
        if (spec.protocol() != null) {
            switch (spec.protocol()) {
                case HTTP, HTTPS -> {
                    HttpSpec h = spec.http();
                    c.text(h.method() == null ? null : h.method().name()).text(h.path()).text(h.host());
                    c.number(h.expectedStatuses().size());
                    h.expectedStatuses().forEach(c::text);
                    c.number(h.followRedirects() ? 1 : 0);
                    Map<String, String> headers = new TreeMap<>(h.headers());
                    c.number(headers.size());
                    headers.forEach((name, value) -> c.text(name).text(value));
                    c.text(h.bodyContains()).number(h.tlsVerify() ? 1 : 0);
                }
                case UDP -> c.text(spec.udp().mode() == null ? null : spec.udp().mode().name())
                        .text(spec.udp().request()).text(spec.udp().expectedResponse())
                        .number(spec.udp().hex() ? 1 : 0).number(spec.udp().exactMatch() ? 1 : 0);
                case TCP -> c.text(spec.tcp().send()).text(spec.tcp().expect());
                case GRPC -> c.text(spec.grpc().service()).number(spec.grpc().tls() ? 1 : 0);
                case DNS -> {
                    DnsSpec d = spec.dns();
                    c.text(d.name()).text(d.type() == null ? null : d.type().name()).text(d.expectedRcode());
                    c.number(d.expectedAnswers().size());
                    d.expectedAnswers().forEach(c::text);
                    c.number(d.answerPatterns().size());
                    d.answerPatterns().forEach(c::text);
                }
                case ICMP -> { }
            }
            if (spec.usesTls() && !spec.tls().equals(TlsSpec.DEFAULTS)) {
                // only when set: a definition written before the tls section existed keeps its generation
                TlsSpec t = spec.tls();
                c.text("tls").number(t.insecureSkipVerify() ? 1 : 0).text(t.trustId()).text(t.clientKeyId())
                        .number(t.minCertDaysLeft());
            }
            if (spec.condition() != null) {
                // only when set, like tls: a definition without a condition keeps its generation
                c.text("condition").text(spec.condition());
            }
        }
        // a profile changes how the probe is made and scheduled
        c.text(spec.profile() == null ? null : spec.profile().name());
        return fold(c.hash());
    }

    /** 64 bits folded to 53: the top 11 bits are mixed into the low ones, then dropped. */
    static long fold(long hash) {
        return (hash ^ (hash >>> BITS)) & MAX;
    }

    /** The canonical bytes, hashed as they are written. */
    private static final class Canonical {
        private long hash = FNV_OFFSET;

        Canonical text(String value) {
            if (value == null) {
                number(-1);
                return this;
            }
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            number(utf8.length);
            bytes(utf8);
            return this;
        }

        Canonical number(int value) {
            bytes(new byte[] {(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
            return this;
        }

        private void bytes(byte[] data) {
            for (byte b : data) {
                hash ^= (b & 0xff);
                hash *= FNV_PRIME;
            }
        }

        long hash() {
            return hash;
        }
    }
}
