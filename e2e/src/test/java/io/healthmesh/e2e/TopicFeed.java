package io.healthmesh.e2e;

import io.healthmesh.testkit.Await;
import io.healthmesh.contract.serde.AvroSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Everything written to one topic, from its beginning, as the suite's observer sees it: a consumer without a
 * group that reads {@code read_committed} (only what committed transactions wrote) on a thread of its own.
 *
 * @param <T> the Avro record type of the values
 */
final class TopicFeed<T extends SpecificRecord> implements AutoCloseable {

    /** One record: its key, value ({@code null} for a tombstone), partition, offset and when the feed saw it. */
    record Event<T>(String key, T value, int partition, long offset, long seenAtMs) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(TopicFeed.class);
    private static final Duration TOPIC_WAIT = Duration.ofSeconds(180);

    private final String topic;
    private final KafkaConsumer<String, T> consumer;
    private final List<Event<T>> events = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    private TopicFeed(String topic, KafkaConsumer<String, T> consumer) {
        this.topic = topic;
        this.consumer = consumer;
        this.thread = new Thread(this::run, "feed-" + topic);
        this.thread.setDaemon(true);
    }

    /** Starts reading {@code topic}; waits (bounded) for it to exist, since the aggregators create it. */
    static <T extends SpecificRecord> TopicFeed<T> start(String bootstrapServers, String topic, Class<T> type,
                                                         Map<String, ?> serdeConfig) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "e2e-feed-" + topic);
        // the observer gives up on a lost broker as soon as the workers do (BrokerLossTimeouts: 5 s), so that a
        // fault's measured gap is theirs, not the observer's
        props.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        KafkaConsumer<String, T> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                AvroSerde.forValues(type, serdeConfig).deserializer());
        TopicFeed<T> feed = new TopicFeed<>(topic, consumer);
        try {
            List<TopicPartition> partitions = Await.value(TOPIC_WAIT, () -> partitionsOf(consumer, topic), () -> "topic " + topic + " to exist");
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        } catch (RuntimeException | AssertionError e) {
            consumer.close();
            throw e;
        }
        feed.thread.start();
        return feed;
    }

    private static Optional<List<TopicPartition>> partitionsOf(KafkaConsumer<?, ?> consumer, String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
        } catch (org.apache.kafka.common.errors.TimeoutException e) {
            // brokers still electing leaders or not reachable yet: ask again within TOPIC_WAIT
            LOG.info("no metadata of {} yet: {}", topic, e.getMessage());
            return Optional.empty();
        }
        if (infos == null || infos.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList());
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(200))) {
                    events.add(new Event<>(r.key(), r.value(), r.partition(), r.offset(), System.currentTimeMillis()));
                }
            }
        } catch (WakeupException e) {
            // close() asked us to stop
        } catch (RuntimeException e) {
            LOG.error("feed of {} stopped", topic, e);
            failure = e;
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(2)));
        }
    }

    /** Every event so far, in the order seen (per partition, offset order). */
    List<Event<T>> events() {
        if (failure != null) {
            throw new IllegalStateException("feed of " + topic + " failed", failure);
        }
        return List.copyOf(events);
    }

    /** The events of one key, in offset order. */
    List<Event<T>> eventsOf(String key) {
        List<Event<T>> of = new ArrayList<>();
        for (Event<T> e : events()) {
            if (key.equals(e.key())) {
                of.add(e);
            }
        }
        return of;
    }

    /** Waits for the first event (from index {@code from} on) that matches, bounded by {@code timeout}. */
    Event<T> await(int from, Duration timeout, String what, Predicate<Event<T>> matches) {
        return Await.value(timeout, () -> {
                    List<Event<T>> now = events();
                    for (int i = from; i < now.size(); i++) {
                        if (matches.test(now.get(i))) {
                            return Optional.of(now.get(i));
                        }
                    }
                    return Optional.empty();
                }, () -> what + " on " + topic + "; seen since: " + tail(from));
    }

    /** How many events were seen so far: a position to await from. */
    int size() {
        return events.size();
    }

    private String tail(int from) {
        List<Event<T>> now = events();
        List<Event<T>> since = now.subList(Math.min(from, now.size()), now.size());
        List<Event<T>> last = since.subList(Math.max(0, since.size() - 20), since.size());
        StringBuilder sb = new StringBuilder(since.size() + " event(s)");
        last.forEach(e -> sb.append("\n  ").append(e.key()).append(" = ").append(e.value()));
        return sb.toString();
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
