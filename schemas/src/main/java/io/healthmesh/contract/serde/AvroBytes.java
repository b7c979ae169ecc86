package io.healthmesh.contract.serde;

import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Writes a value as a fixed header followed by its Avro binary form, through a buffered encoder and an output
 * buffer that each thread reuses. Avro's direct encoder hands every varint and string length to the stream a byte at
 * a time; into a {@link java.io.ByteArrayOutputStream} each such byte is a synchronized call that checks the capacity,
 * which made up a noticeable share of the CPU of every record a role writes. Here the encoder fills its own block and
 * copies it to the thread's buffer in one call, and only the result is allocated.
 *
 * <p>A buffer that grew past {@link #RETAINED_BYTES} for one large value is dropped after it, so a thread keeps at most
 * that much. A write that fails leaves nothing behind for the next one on the thread. Thread-safe: each thread has its
 * own buffer and encoder, and a writer that itself writes a value through this class gets a fresh pair.
 */
public final class AvroBytes {

    /** The largest buffer a thread keeps between writes. */
    static final int RETAINED_BYTES = 64 * 1024;
    private static final int INITIAL_BYTES = 512;

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private AvroBytes() {
    }

    /**
     * {@code header} (may be empty) followed by {@code value} as {@code writer} writes it in Avro binary.
     *
     * @throws IOException when the writer fails (an invalid value, e.g. a null in a field that allows none)
     */
    public static <D> byte[] write(byte[] header, DatumWriter<D> writer, D value) throws IOException {
        Buffers buffers = BUFFERS.get();
        if (buffers.inUse) {
            return new Buffers().write(header, writer, value);   // a nested write on this thread
        }
        buffers.inUse = true;
        try {
            return buffers.write(header, writer, value);
        } catch (IOException | RuntimeException | Error e) {
            BUFFERS.remove();   // whatever the encoder held of the failed value goes with it
            throw e;
        } finally {
            buffers.inUse = false;
            buffers.out.shrink();
        }
    }

    /** One thread's output buffer and the encoder that writes into it. */
    private static final class Buffers {
        final Growable out = new Growable();
        BinaryEncoder encoder;
        boolean inUse;

        <D> byte[] write(byte[] header, DatumWriter<D> writer, D value) throws IOException {
            encoder = EncoderFactory.get().binaryEncoder(out, encoder);
            out.reset();
            out.write(header, 0, header.length);
            writer.write(value, encoder);
            encoder.flush();
            return out.toByteArray();
        }
    }

    /** An unsynchronized byte buffer that grows as written to. */
    static final class Growable extends OutputStream {
        private byte[] bytes = new byte[INITIAL_BYTES];
        private int count;

        @Override
        public void write(int b) {
            ensure(1);
            bytes[count++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, count, len);
            count += len;
        }

        void reset() {
            count = 0;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, count);
        }

        int capacity() {
            return bytes.length;
        }

        /** Drops a buffer grown past what a thread keeps. */
        void shrink() {
            if (bytes.length > RETAINED_BYTES) {
                bytes = new byte[INITIAL_BYTES];
                count = 0;
            }
        }

        private void ensure(int more) {
            int needed = count + more;
            if (needed < 0) {
                throw new OutOfMemoryError("an Avro value of more than 2 GiB");
            }
            if (needed > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(needed, Math.min(Integer.MAX_VALUE - 8, bytes.length * 2)));
            }
        }
    }
}
