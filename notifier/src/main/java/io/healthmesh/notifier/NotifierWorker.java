package io.healthmesh.notifier;

import io.healthmesh.ops.ListeningWorker;
import io.healthmesh.core.secret.Redact;
import io.healthmesh.notifier.deliver.JdkTransport;
import io.healthmesh.notifier.deliver.RouteDelivery;
import io.healthmesh.notifier.deliver.Transport;
import io.healthmesh.notifier.domain.AlertBook;
import io.healthmesh.notifier.domain.CommitLedger;
import io.healthmesh.notifier.domain.Notification;
import io.healthmesh.notifier.domain.Observation;
import io.healthmesh.notifier.domain.Position.PartitionRef;
import io.healthmesh.notifier.route.RouteConfig;
import io.healthmesh.ops.OpsServer;
import io.healthmesh.contract.serde.RecordDecodeException;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import static java.util.Objects.requireNonNull;

/**
 * A notifier instance: one consumer (group {@code group.id}) of {@code health-state} and {@code group-state}, the
 * {@link AlertBook} it feeds, one {@link RouteDelivery} per route, a reader of the targets topic for labels, and the
 * operations endpoint. The consumer thread alone touches the book and the {@link CommitLedger}; delivery threads
 * report back through a queue. Offsets are committed (synchronously, when they moved) only up to the first record
 * with an undelivered notification, so a restart or a partition moving to another replica resends what was not
 * acknowledged and nothing else beyond the in-flight attempt.
 */
public final class NotifierWorker implements AutoCloseable, ListeningWorker {

    private static final Logger LOG = LoggerFactory.getLogger(NotifierWorker.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final NotifierConfig config;
    private final Clock clock;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final CommitLedger ledger = new CommitLedger();
    private final AlertBook book;
    private final Map<String, RouteDelivery> deliveries = new LinkedHashMap<>();
    private final ConcurrentLinkedQueue<Notification> completed = new ConcurrentLinkedQueue<>();
    private final NotifierMetrics metrics;
    private final TargetLabels labels;
    private final StateDecoder decoder;
    private final OpsServer ops;
    private final Thread thread;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile boolean assigned;
    /** False once the consumer thread ended on an unexpected error: /readyz says 503 so that it is restarted. */
    private volatile boolean consuming = true;
    private volatile boolean closed;

    private NotifierWorker(NotifierConfig config, Clock clock, Transport transport) {
        this.config = config;
        this.clock = clock;
        this.book = new AlertBook(config.routes().stream().map(RouteConfig::policy).toList(), ledger);
        List<String> names = config.routes().stream().map(RouteConfig::name).toList();
        this.metrics = new NotifierMetrics(registry, names, () -> new NotifierMetrics.RouteGauges() {
            @Override
            public int pending(String route) {
                return deliveries.get(route).pending();
            }

            @Override
            public boolean retrying(String route) {
                return deliveries.get(route).retrying();
            }

            @Override
            public double lagSeconds(String route) {
                return deliveries.get(route).lagSeconds();
            }

            @Override
            public int openAlerts(String route) {
                return openAlerts.getOrDefault(route, 0);
            }
        });
        for (RouteConfig route : config.routes()) {
            deliveries.put(route.name(), new RouteDelivery(route, transport, config.backoff(), clock, metrics,
                    completed::add));
        }
        this.labels = new TargetLabels(config, metrics);
        this.decoder = new StateDecoder(config, labels::of);
        try {
            this.ops = OpsServer.start(new InetSocketAddress(config.httpHost(), config.httpPort()), registry,
                    this::ready);
        } catch (IOException e) {
            closeDeliveries();
            labels.close();
            throw new UncheckedIOException("cannot bind " + config.httpHost() + ":" + config.httpPort(), e);
        }
        this.thread = new Thread(this::run, "healthmesh-notifier-consumer");
    }

    /** Open alerts per route, published by the consumer thread for the metrics. */
    private volatile Map<String, Integer> openAlerts = Map.of();

    /** Starts a notifier with the system clock and the JDK HTTP client. */
    public static NotifierWorker start(NotifierConfig config) {
        return start(config, Clock.systemUTC(), new JdkTransport());
    }

    /** Starts a notifier with the given clock and transport (tests). */
    public static NotifierWorker start(NotifierConfig config, Clock clock, Transport transport) {
        NotifierWorker worker = new NotifierWorker(requireNonNull(config, "config"), requireNonNull(clock, "clock"),
                requireNonNull(transport, "transport"));
        worker.thread.start();
        LOG.info("notifier started: {}", config);
        return worker;
    }

    /**
     * Ready once the labels are read and the group gave this instance an assignment (possibly empty); not ready
     * again if the consumer thread stopped on an unexpected error.
     */
    public boolean ready() {
        return labels.caughtUp() && assigned && consuming && !closed;
    }

    public int httpPort() {
        return ops.port();
    }

    @Override
    public List<BoundListener> boundListeners() {
        return List.of(new BoundListener("http", config.httpHost(), ops.port()));
    }

    @Override
    public PrometheusRegistry metrics() {
        return registry;
    }

    @Override
    public List<String> topicPrefixes() {
        return List.of(config.topics().prefix());
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    private void run() {
        try {
            while (!closed && !labels.caughtUp()) {
                Thread.sleep(50);
            }
            if (closed) {
                return;
            }
            consumer = new KafkaConsumer<>(KafkaProps.stateConsumer(config));
            consumer.subscribe(List.of(config.topics().healthState(), config.topics().groupState()), new Rebalance());
            while (!closed) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                Set<TopicPartition> rewound = new HashSet<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (!rewound.contains(tp) && !handle(r)) {
                        consumer.seek(tp, r.offset());
                        rewound.add(tp);
                    }
                }
                dispatch(book.tick(clock.millis()));
                settle();
                if (!rewound.isEmpty()) {
                    Thread.sleep(500);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            consuming = false;
            LOG.error("notifier consumer stopped; not ready from now on (nothing is committed past what was delivered)",
                    e);
        } finally {
            KafkaConsumer<byte[], byte[]> c = consumer;
            if (c != null) {
                try {
                    settle();
                } catch (RuntimeException e) {
                    LOG.debug("last commit failed: {}", e.toString());
                }
                c.close(Duration.ofSeconds(5));
            }
        }
    }

    /** Handles one record; false when the registry could not be reached (the record is read again). */
    private boolean handle(ConsumerRecord<byte[], byte[]> r) {
        metrics.record();
        Observation o;
        try {
            o = decoder.decode(r);
        } catch (RecordDecodeException e) {
            metrics.undecodable();
            LOG.warn("{}-{}@{}: not a state event ({}); skipped", r.topic(), r.partition(), r.offset(), e.reason());
            ledger.processed(new io.healthmesh.notifier.domain.Position(r.topic(), r.partition(), r.offset()));
            return true;
        } catch (SerializationException e) {
            LOG.warn("{}-{}: registry unreachable ({}); reading again", r.topic(), r.partition(),
                    Redact.userInfo(e.getMessage()));
            return false;
        }
        if (o == null) {
            ledger.processed(new io.healthmesh.notifier.domain.Position(r.topic(), r.partition(), r.offset()));
            return true;
        }
        dispatch(book.apply(o, clock.millis()));
        return true;
    }

    private void dispatch(List<Notification> notifications) {
        for (Notification n : notifications) {
            deliveries.get(n.route()).offer(n);
        }
    }

    /** Releases what was delivered and commits what may be committed. */
    private void settle() {
        for (Notification n; (n = completed.poll()) != null; ) {
            if (n.held() != null) {
                ledger.release(n.held());
            }
        }
        Map<String, Integer> open = new HashMap<>();
        config.routes().forEach(r -> open.put(r.name(), book.open(r.name())));
        openAlerts = Map.copyOf(open);
        commit(ledger.partitions());
    }

    private void commit(Collection<PartitionRef> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (PartitionRef p : partitions) {
            ledger.toCommit(p).ifPresent(o -> offsets.put(new TopicPartition(p.topic(), p.partition()),
                    new OffsetAndMetadata(o)));
        }
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets, Duration.ofSeconds(10));
            offsets.forEach((tp, o) -> ledger.committed(new PartitionRef(tp.topic(), tp.partition()), o.offset()));
        } catch (CommitFailedException | RebalanceInProgressException e) {
            LOG.info("commit deferred: {}", e.getMessage());
        } catch (KafkaException e) {
            LOG.warn("commit failed ({}); retried with the next batch", e.toString());
        }
    }

    /** Rebuilds what partitions assigned to this instance know, and hands over revoked ones cleanly. */
    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
                Map<TopicPartition, Long> floors = new HashMap<>();
                for (TopicPartition tp : partitions) {
                    OffsetAndMetadata c = committed.get(tp);
                    floors.put(tp, c != null ? c.offset() : end.get(tp));
                }
                new PartitionReplay(config, decoder, book, metrics).replay(floors);
                long now = clock.millis();
                for (TopicPartition tp : partitions) {
                    PartitionRef ref = new PartitionRef(tp.topic(), tp.partition());
                    boolean hasCommit = committed.get(tp) != null;
                    ledger.assign(ref, floors.get(tp), hasCommit);
                    book.replayDone(ref, hasCommit, now);
                    consumer.seek(tp, floors.get(tp));
                }
                LOG.info("assigned {} (resuming at {})", partitions, floors);
            }
            assigned = true;
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (partitions.isEmpty()) {
                return;
            }
            Set<PartitionRef> refs = refs(partitions);
            deliveries.values().forEach(d -> d.drop(n -> refs.contains(n.state().position().partitionRef())));
            settle();
            forget(refs);
            LOG.info("revoked {}", partitions);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            Set<PartitionRef> refs = refs(partitions);
            deliveries.values().forEach(d -> d.drop(n -> refs.contains(n.state().position().partitionRef())));
            forget(refs);
            LOG.info("lost {}", partitions);
        }

        private Set<PartitionRef> refs(Collection<TopicPartition> partitions) {
            Set<PartitionRef> refs = new HashSet<>();
            partitions.forEach(tp -> refs.add(new PartitionRef(tp.topic(), tp.partition())));
            return refs;
        }

        private void forget(Set<PartitionRef> refs) {
            refs.forEach(r -> {
                ledger.forget(r);
                book.forget(r);
            });
        }
    }

    private void closeDeliveries() {
        deliveries.values().forEach(RouteDelivery::close);
    }

    /**
     * Stops consuming, commits what was delivered, stops the delivery threads (undelivered notifications stay
     * uncommitted: the next owner of their partitions sends them) and the endpoint.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true; // the consumer loop sees it within one poll (100 ms) and commits before closing
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeDeliveries();
        labels.close();
        ops.close();
    }
}
