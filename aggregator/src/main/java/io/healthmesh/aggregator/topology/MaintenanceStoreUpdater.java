package io.healthmesh.aggregator.topology;

import io.healthmesh.core.maintenance.MaintenanceWindow;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.util.Objects.requireNonNull;

/**
 * The global store's processor: reads the accepted maintenance windows (every partition, on every instance, when the
 * store is restored as when it follows) into the store and into the instance's {@link MaintenanceWindows}. The
 * records were checked by {@link MaintenanceCheckProcessor} before they were accepted; one that still does not
 * decode (written there by something else) is skipped and logged, never fatal.
 */
final class MaintenanceStoreUpdater implements Processor<String, byte[], Void, Void> {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceStoreUpdater.class);

    private final MaintenanceWindows windows;
    private final MaintenanceDecoder decoder;
    private final String topic;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, byte[]> store;

    MaintenanceStoreUpdater(MaintenanceWindows windows, MaintenanceDecoder decoder, String topic) {
        this.windows = requireNonNull(windows, "windows");
        this.decoder = requireNonNull(decoder, "decoder");
        this.topic = requireNonNull(topic, "topic");
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.store = context.getStateStore(AggregatorTopology.MAINTENANCE_STORE);
    }

    @Override
    public void process(Record<String, byte[]> record) {
        String id = record.key();
        if (id == null) {
            return;
        }
        if (record.value() == null) {
            store.delete(id);
            windows.remove(id);
            return;
        }
        Decoded<MaintenanceWindow> window = decoder.decode(topic, id, record.value());
        if (window.isRejected()) {
            LOG.warn("accepted maintenance record {} skipped: {}", RecordSafeHandlers.cut(id),
                    RecordSafeHandlers.cut(window.rejection().detail()));
            return;
        }
        if (windows.put(window.value(), context.currentSystemTimeMs())) {
            store.put(id, record.value());
        }
    }
}
