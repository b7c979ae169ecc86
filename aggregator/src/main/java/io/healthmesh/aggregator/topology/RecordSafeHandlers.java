package io.healthmesh.aggregator.topology;

import io.healthmesh.contract.registry.RegistryException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Map;

/**
 * What keeps one record from stopping a partition (BEHAVIOUR.md section 9, "no poison pill"). The target processor catches
 * every failure of one record itself and sends that record, with its exact bytes, to the rejected topic
 * ({@code PROCESSING_FAILED}, or {@code TOO_LARGE} when the bytes would not fit in a produce request). The two Kafka
 * Streams handlers here decide for whatever still reaches Kafka Streams:
 * <ul>
 *   <li>{@link Processing}: a registry that cannot be reached fails the task, so that the record is retried once the
 *       registry is back (the record may be fine); any other failure is logged and the record skipped, never
 *       retried: retrying a deterministic failure is what made the poison pill.</li>
 *   <li>{@link Production}: an output record that cannot be produced (too large, or its serializer refuses it) is
 *       logged and skipped, except while the registry cannot be reached (retried).</li>
 * </ul>
 * Logs name the node, topic, partition and offset, never the record's contents.
 */
public final class RecordSafeHandlers {

    /** A rejected record's key is kept up to this size when its value must be dropped (TOO_LARGE). */
    static final int MAX_KEPT_KEY_BYTES = 1024;
    /** Longest detail header, in characters. */
    static final int MAX_DETAIL_CHARS = 1024;
    /** Room left in a produce request for the rejection headers and the batch overhead. */
    static final int REQUEST_MARGIN_BYTES = 8 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(RecordSafeHandlers.class);

    private RecordSafeHandlers() {
    }

    /** Failures that must end the process rather than a record: out of memory, a broken JVM. */
    static boolean isFatal(Throwable t) {
        return t instanceof VirtualMachineError && !(t instanceof StackOverflowError);
    }

    /** A short, single-line description of a failure for a header or a log line. */
    static String describe(Throwable t) {
        return cut(t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage()));
    }

    /** At most {@link #MAX_DETAIL_CHARS} characters, with the original length when cut. */
    static String cut(String text) {
        if (text == null) {
            return "null";
        }
        return text.length() <= MAX_DETAIL_CHARS ? text
                : text.substring(0, MAX_DETAIL_CHARS) + "... (" + text.length() + " characters)";
    }

    /** Bytes of a record's key, value and headers. */
    static long size(byte[] key, byte[] value, Headers headers) {
        long size = (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        for (Header h : headers) {
            size += h.key().length() + (h.value() == null ? 0 : h.value().length);
        }
        return size;
    }

    /**
     * The largest rejected record copied with its exact bytes: the producer's {@code max.request.size} (as set
     * through {@code kafka.producer.max.request.size} or {@code kafka.max.request.size}, default 1 MiB) less room for
     * the rejection headers.
     */
    static long maxRejectedBytes(Map<String, String> kafka) {
        String set = kafka.getOrDefault(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                kafka.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        long request = 1024 * 1024;
        if (set != null) {
            try {
                request = Long.parseLong(set.trim());
            } catch (NumberFormatException e) {
                // Kafka itself refuses the setting at start; keep the default here
            }
        }
        return Math.max(1024, request - REQUEST_MARGIN_BYTES);
    }

    private static boolean registryUnavailable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof RegistryUnavailableException) {
                return true;
            }
        }
        return false;
    }

    private static boolean causedByRegistry(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof RegistryException) {
                return true;
            }
        }
        return false;
    }

    private static String where(ErrorHandlerContext c) {
        return "node " + c.processorNodeId() + ", " + c.topic() + "-" + c.partition() + "@" + c.offset();
    }

    /** The processing exception handler ({@code processing.exception.handler}). */
    public static final class Processing implements ProcessingExceptionHandler {

        @Override
        public ProcessingHandlerResponse handle(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
            if (registryUnavailable(exception)) {
                LOG.warn("schema registry unavailable at {}: the task retries the record ({})", where(context),
                        describe(exception));
                return ProcessingHandlerResponse.FAIL;
            }
            LOG.error("record skipped after a processing failure at {}: {}", where(context), describe(exception));
            return ProcessingHandlerResponse.CONTINUE;
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }
    }

    /** The production exception handler ({@code production.exception.handler}). */
    public static final class Production implements ProductionExceptionHandler {

        @Override
        public ProductionExceptionHandlerResponse handle(ErrorHandlerContext context,
                                                         ProducerRecord<byte[], byte[]> record, Exception exception) {
            if (exception instanceof RecordTooLargeException) {
                LOG.error("output record to {} skipped, too large for a produce request ({}): {}", record.topic(),
                        where(context), describe(exception));
                return ProductionExceptionHandlerResponse.CONTINUE;
            }
            // anything else (broker unavailable, timeouts): as Kafka Streams does by default
            return ProductionExceptionHandlerResponse.FAIL;
        }

        @SuppressWarnings("rawtypes")
        @Override
        public ProductionExceptionHandlerResponse handleSerializationException(ErrorHandlerContext context,
                                                                               ProducerRecord record,
                                                                               Exception exception,
                                                                               SerializationExceptionOrigin origin) {
            if (registryUnavailable(exception) || causedByRegistry(exception)) {
                LOG.warn("schema registry unavailable while producing to {} ({}): the task retries",
                        record.topic(), where(context));
                return ProductionExceptionHandlerResponse.FAIL;
            }
            LOG.error("output record to {} skipped, its {} cannot be serialized ({}): {}", record.topic(),
                    origin.name().toLowerCase(Locale.ROOT), where(context), describe(exception));
            return ProductionExceptionHandlerResponse.CONTINUE;
        }

        @Override
        public void configure(Map<String, ?> configs) {
        }
    }
}
