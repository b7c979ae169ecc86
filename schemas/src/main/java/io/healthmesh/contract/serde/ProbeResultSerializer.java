package io.healthmesh.contract.serde;

import io.healthmesh.schema.ProbeResult;
import io.healthmesh.core.target.Limits;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryData;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * Writes a {@link ProbeResult} in the wire format byte for byte as {@link AvroSerializer} does, without Avro's
 * generic writer: every prober publishes one per probe, and the generic path (a datum writer walking the schema,
 * union resolution, an encoder and an output stream per record, a copy at the end) cost about 560 ns and 560 bytes of
 * garbage per result (SerdeBenchmark, docs/BENCHMARKS.md). The schema id is {@link AvroSerializer}'s: registered or
 * looked up once per topic.
 *
 * <p>The field order and types are those of {@code ProbeResult.avsc} as this class was written for it
 * ({@link #LAYOUT_FINGERPRINT}, the schema's parsing-form fingerprint). If the generated class ever carries another
 * schema, {@link #matchesSchema()} is false and {@link AvroSerde} keeps the generic writer, so a schema change
 * can make results slower, never wrong; {@code ProbeResultSerializerTest} fails until this class is brought in line.
 * With {@code use.latest.version} the generic writer is used too (the latest version may be another schema).
 */
final class ProbeResultSerializer implements Serializer<ProbeResult> {

    /** {@code SchemaNormalization.parsingFingerprint64} of the {@code ProbeResult} schema this class writes. */
    static final long LAYOUT_FINGERPRINT = 0xac8ce6951be197f0L;

    private final AvroSerializer<ProbeResult> ids;
    /**
     * One buffer per writing thread, as large as the contract lets a result be ({@link Limits#MAX_RESULT_BYTES}); a
     * longer result gets a larger buffer of its own, which is not kept.
     */
    private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[Limits.MAX_RESULT_BYTES]);

    /** @param ids the generic serializer of the same registry and settings, for the schema id per topic */
    ProbeResultSerializer(AvroSerializer<ProbeResult> ids) {
        this.ids = requireNonNull(ids, "ids");
    }

    /** Whether the generated {@code ProbeResult} carries the schema this class writes. */
    static boolean matchesSchema() {
        return SchemaNormalization.parsingFingerprint64(ProbeResult.getClassSchema()) == LAYOUT_FINGERPRINT;
    }

    @Override
    public byte[] serialize(String topic, ProbeResult r) {
        if (r == null) {
            return null;
        }
        int id = ids.schemaId(topic);
        try {
            byte[] buf = scratch.get();
            int most = mostBytes(r);
            if (most > buf.length) {
                buf = new byte[most];   // beyond the contract's bound: a buffer for this result only
            }
            buf[0] = WireFormat.MAGIC_BYTE;
            buf[1] = (byte) (id >>> 24);
            buf[2] = (byte) (id >>> 16);
            buf[3] = (byte) (id >>> 8);
            buf[4] = (byte) id;
            int pos = string(buf, WireFormat.HEADER_SIZE, r.getTargetId());
            pos = varLong(buf, pos, r.getGeneration());
            pos = string(buf, pos, r.getRegion());
            pos = string(buf, pos, r.getProberId());
            pos = varLong(buf, pos, r.getProtocol().ordinal());
            pos = varLong(buf, pos, r.getStartedAtMs());
            pos = varLong(buf, pos, r.getOutcome().ordinal());
            pos = varLong(buf, pos, r.getLatencyMicros());
            pos = optionalLong(buf, pos, r.getConnectMicros());
            pos = optionalLong(buf, pos, r.getTlsMicros());
            pos = optionalLong(buf, pos, r.getFirstByteMicros());
            Integer status = r.getHttpStatus();
            pos = status == null ? varLong(buf, pos, 0) : varLong(buf, varLong(buf, pos, 1), status);
            String detail = r.getDetail();
            pos = detail == null ? varLong(buf, pos, 0) : string(buf, varLong(buf, pos, 1), detail);
            pos = varLong(buf, pos, r.getSchedulingLagMicros());
            pos = optionalLong(buf, pos, r.getCertNotAfterMs());
            pos = optionalLong(buf, pos, r.getChainNotAfterMs());
            return Arrays.copyOf(buf, pos);
        } catch (RuntimeException e) {
            // a required field left null, as the generic writer reports it
            throw new SerializationException("Cannot write a ProbeResult as Avro: " + e, e);
        }
    }

    /**
     * The most bytes {@code r} can take: the header, ten for each of its 19 varints (six longs and enums, seven union
     * branches, six optional values) and, per string, five for its length and three per UTF-16 unit (a surrogate
     * pair makes four bytes, an unpaired one a single {@code ?}).
     */
    private static int mostBytes(ProbeResult r) {
        String detail = r.getDetail();
        return WireFormat.HEADER_SIZE + 19 * 10 + mostBytes(r.getTargetId()) + mostBytes(r.getRegion())
                + mostBytes(r.getProberId()) + (detail == null ? 0 : mostBytes(detail));
    }

    private static int mostBytes(String s) {
        return 5 + 3 * s.length();
    }

    /** A zig-zag varint ({@link BinaryData#encodeLong}); returns the position after it. */
    private static int varLong(byte[] buf, int pos, long value) {
        return pos + BinaryData.encodeLong(value, buf, pos);
    }

    /** A {@code ["null", "long"]} union: branch 0 for null, else branch 1 and the value. */
    private static int optionalLong(byte[] buf, int pos, Long value) {
        return value == null ? varLong(buf, pos, 0) : varLong(buf, varLong(buf, pos, 1), value);
    }

    /** As Avro writes a {@code String}: its UTF-8 bytes (unpaired surrogates as {@code ?}), length first. */
    private static int string(byte[] buf, int pos, String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                pos = varLong(buf, pos, utf8.length);
                System.arraycopy(utf8, 0, buf, pos, utf8.length);
                return pos + utf8.length;
            }
        }
        pos = varLong(buf, pos, n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) s.charAt(i);
        }
        return pos;
    }
}
