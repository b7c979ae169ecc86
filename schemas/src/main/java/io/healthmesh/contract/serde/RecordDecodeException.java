package io.healthmesh.contract.serde;

import org.apache.kafka.common.errors.SerializationException;

import static java.util.Objects.requireNonNull;

/**
 * Bytes that are not a record of the expected type: the caller routes them to the rejected topic
 * with {@link #reason()} in a header and goes on. A registry that cannot be reached is not this
 * (that is a plain {@link SerializationException}): the record may be fine, only the lookup failed.
 */
public final class RecordDecodeException extends SerializationException {

    private static final long serialVersionUID = 1L;

    /** Why the bytes could not be decoded. */
    public enum Reason {
        /** The wire header is fine and the schema known, but the Avro body does not decode to the reader's type. */
        UNDECODABLE,
        /** The schema id in the header is not known to the registry. */
        UNKNOWN_SCHEMA,
        /** No Confluent wire header: shorter than 5 bytes or a first byte other than 0. */
        NOT_AVRO_WIRE_FORMAT
    }

    private final Reason reason;

    public RecordDecodeException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = requireNonNull(reason, "reason");
    }

    public RecordDecodeException(Reason reason, String message) {
        this(reason, message, null);
    }

    /** Why the bytes could not be decoded. */
    public Reason reason() {
        return reason;
    }
}
