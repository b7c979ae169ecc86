package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceWindow;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import static java.util.Objects.requireNonNull;

/**
 * Reads the maintenance topic users write and passes each record on: a valid window (or a tombstone) as it is to the
 * accepted windows that every instance's global store reads, anything else to the rejected topic with its exact
 * bytes ({@link RejectedCopy}), in the same transaction. No record can stop the partition: whatever handling throws,
 * except a registry that cannot be reached and Kafka Streams' own exceptions, ends as a rejected record.
 */
final class MaintenanceCheckProcessor implements Processor<byte[], byte[], byte[], MaintenanceCheckProcessor.Output> {

    /** What the check forwards: an accepted record's value (null for a tombstone), or a rejected one's. */
    record Output(boolean accepted, byte[] value) {
    }

    private final MaintenanceDecoder decoder;
    private final long maxRejectedBytes;
    private ProcessorContext<byte[], Output> context;
    private AggregatorMetrics metrics;

    MaintenanceCheckProcessor(MaintenanceDecoder decoder, long maxRejectedBytes) {
        this.decoder = requireNonNull(decoder, "decoder");
        this.maxRejectedBytes = maxRejectedBytes;
    }

    @Override
    public void init(ProcessorContext<byte[], Output> context) {
        this.context = context;
        this.metrics = new AggregatorMetrics(context.metrics());
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        try {
            Decoded<String> key = InputDecoder.key(record.key());
            if (key.isRejected()) {
                reject(record, key.rejection());
                return;
            }
            if (record.value() == null) {
                context.forward(record.withValue(new Output(true, null)));
                return;
            }
            String topic = context.recordMetadata().map(m -> m.topic()).orElse("");
            Decoded<MaintenanceWindow> window = decoder.decode(topic, key.value(), record.value());
            if (window.isRejected()) {
                reject(record, window.rejection());
            } else {
                context.forward(record.withValue(new Output(true, record.value())));
            }
        } catch (RegistryUnavailableException | StreamsException e) {
            throw e;
        } catch (Throwable t) {
            if (RecordSafeHandlers.isFatal(t)) {
                throw t;
            }
            reject(record, new Rejection(Rejection.PROCESSING_FAILED, "processing: " + RecordSafeHandlers.describe(t)));
        }
    }

    private void reject(Record<byte[], byte[]> record, Rejection rejection) {
        RejectedCopy copy = RejectedCopy.of(record.key(), record.value(), record.headers(), rejection,
                maxRejectedBytes, context.recordMetadata().orElse(null));
        context.forward(new Record<>(copy.key(), new Output(false, copy.value()), record.timestamp(), copy.headers()));
        metrics.rejected(copy.reason());
    }
}
