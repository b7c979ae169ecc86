package io.healthmesh.contract.serde;

import io.healthmesh.schema.ProbeResult;
import org.apache.avro.SchemaNormalization;
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
    static final long LAYOUT_FINGERPRINT = 0x18e0f7a04012a7e4L;

    /** Large enough for a result at the prober's own bounds; grown for anything longer. */
    private static final int FIRST_CAPACITY = 512;

    private final AvroSerializer<ProbeResult> ids;
    private final ThreadLocal<byte[]> scratch = ThreadLocal.withInitial(() -> new byte[FIRST_CAPACITY]);

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
        byte[] start = scratch.get();
        try {
            Writer w = new Writer(start);
            w.header(id);
            w.string(r.getTargetId());
            w.varLong(r.getGeneration());
            w.string(r.getRegion());
            w.string(r.getProberId());
            w.varLong(r.getProtocol().ordinal());
            w.varLong(r.getStartedAtMs());
            w.varLong(r.getOutcome().ordinal());
            w.varLong(r.getLatencyMicros());
            w.optionalLong(r.getConnectMicros());
            w.optionalLong(r.getTlsMicros());
            w.optionalLong(r.getFirstByteMicros());
            w.optionalLong(r.getHttpStatus() == null ? null : r.getHttpStatus().longValue());
            w.optionalString(r.getDetail());
            w.varLong(r.getSchedulingLagMicros());
            if (w.buf != start) {
                scratch.set(w.buf);   // keep the grown buffer for the next result
            }
            return Arrays.copyOf(w.buf, w.pos);
        } catch (RuntimeException e) {
            // a required field left null, as the generic writer reports it
            throw new SerializationException("Cannot write a ProbeResult as Avro: " + e, e);
        }
    }

    /** Avro's binary encoding into a growing array: zig-zag varints, length-prefixed UTF-8, union branch indexes. */
    private static final class Writer {
        byte[] buf;
        int pos;

        Writer(byte[] buf) {
            this.buf = buf;
        }

        void header(int id) {
            ensure(WireFormat.HEADER_SIZE);
            buf[pos++] = WireFormat.MAGIC_BYTE;
            buf[pos++] = (byte) (id >>> 24);
            buf[pos++] = (byte) (id >>> 16);
            buf[pos++] = (byte) (id >>> 8);
            buf[pos++] = (byte) id;
        }

        void varLong(long value) {
            ensure(10);
            long n = (value << 1) ^ (value >> 63);
            while ((n & ~0x7FL) != 0) {
                buf[pos++] = (byte) ((n & 0x7F) | 0x80);
                n >>>= 7;
            }
            buf[pos++] = (byte) n;
        }

        void optionalLong(Long value) {
            if (value == null) {
                varLong(0);
            } else {
                varLong(1);
                varLong(value);
            }
        }

        void optionalString(String value) {
            if (value == null) {
                varLong(0);
            } else {
                varLong(1);
                string(value);
            }
        }

        /** As Avro writes a {@code String}: its UTF-8 bytes (unpaired surrogates as {@code ?}), length first. */
        void string(String s) {
            requireNonNull(s, "a required string field is null");
            int n = s.length();
            for (int i = 0; i < n; i++) {
                if (s.charAt(i) >= 0x80) {
                    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                    varLong(utf8.length);
                    ensure(utf8.length);
                    System.arraycopy(utf8, 0, buf, pos, utf8.length);
                    pos += utf8.length;
                    return;
                }
            }
            varLong(n);
            ensure(n);
            for (int i = 0; i < n; i++) {
                buf[pos++] = (byte) s.charAt(i);
            }
        }

        private void ensure(int more) {
            if (pos + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + more));
            }
        }
    }
}
