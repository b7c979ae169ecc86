package io.healthmesh.prober;

import io.healthmesh.contract.endpoints.Announcement;
import io.healthmesh.contract.endpoints.Announcements;
import io.healthmesh.contract.read.CompactedTopicReader;
import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.prober.assign.RejectedRecords;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads the endpoints topic whole (a {@link CompactedTopicReader}: from the beginning, no consumer group) into
 * {@link AnnouncedEndpoints}, and asks for a refresh of the denied set once it has caught up and whenever it then
 * reads a change. A record that is not an announcement (bad bytes, a bound broken, a key too long) goes to the
 * rejected topic with its reason and is otherwise ignored: it never stops the reader and never removes a denial.
 */
final class AnnouncementFeed implements AutoCloseable {

    /** The rejected topic's reason for a record of the endpoints topic that is not an announcement. */
    static final String REJECTED_REASON = "BAD_ANNOUNCEMENT";
    private static final Logger LOG = LoggerFactory.getLogger(AnnouncementFeed.class);

    private final AnnouncedEndpoints announced;
    private final RejectedRecords rejected;
    private final Runnable changed;
    private final CompactedTopicReader reader;
    private boolean pending;
    private boolean warnedFull;

    /**
     * @param kafka   Kafka client settings for the reader
     * @param changed called on the reader's thread when the announcements changed (the refresher's pass)
     */
    AnnouncementFeed(Map<String, ?> kafka, String topic, AnnouncedEndpoints announced, RejectedRecords rejected,
                     Runnable changed) {
        this.announced = requireNonNull(announced, "announced");
        this.rejected = requireNonNull(rejected, "rejected");
        this.changed = requireNonNull(changed, "changed");
        this.reader = CompactedTopicReader.start("healthmesh-endpoints-feed", kafka, List.of(topic), new Handler());
    }

    /** True once the topic was read to its end as of the start. */
    boolean caughtUp() {
        return reader.caughtUp();
    }

    private final class Handler implements CompactedTopicReader.Handler {

        @Override
        public void record(ConsumerRecord<byte[], byte[]> record) {
            try {
                String worker = Announcements.key(record.key());
                Announcement announcement = record.value() == null ? null : Announcements.decode(record.value());
                if (!announced.apply(worker, announcement) && !warnedFull) {
                    warnedFull = true;
                    LOG.warn("more than {} workers announce endpoints: the announcements of further workers are not "
                            + "denied (counted in healthmesh_prober_endpoints_workers_refused)",
                            AnnouncedEndpoints.MAX_WORKERS);
                }
                pending = true;
            } catch (RecordDecodeException e) {
                rejected.reject(record, REJECTED_REASON, e.getMessage());
            } catch (RuntimeException e) {
                rejected.reject(record, REJECTED_REASON, e.toString());
            }
        }

        @Override
        public void polled(boolean caughtUp) {
            if (caughtUp && pending) {
                pending = false;
                changed.run();
            }
        }
    }

    @Override
    public void close() {
        reader.close();
    }
}
