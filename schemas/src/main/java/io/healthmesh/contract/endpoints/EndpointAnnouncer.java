package io.healthmesh.contract.endpoints;

import io.healthmesh.core.net.HostAddresses;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Announces a worker's listeners on the endpoints topic: at start, again every {@link Announcements#REFRESH} (so an
 * address that changed is announced and readers know the worker is alive), and a tombstone on {@link #close()}.
 * Each listener is announced where it is reachable: a wildcard bind as every non-loopback address of this host, a
 * name as the addresses it resolves to here and the name itself. It is a defence layer, never a reason to stop:
 * a write that fails is counted ({@link #failed()}), logged once until a write succeeds again, and tried again at
 * the next refresh. Runs on its own daemon thread.
 */
public final class EndpointAnnouncer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EndpointAnnouncer.class);
    private static final Duration CLOSE = Duration.ofSeconds(5);
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final Producer<byte[], byte[]> producer;
    private final List<String> topics;
    private final byte[] key;
    private final String role;
    private final List<AnnouncedEndpoint> bound;
    private final Supplier<Set<InetAddress>> hostAddresses;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicBoolean failing = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    EndpointAnnouncer(Producer<byte[], byte[]> producer, List<String> topics, String key, String role,
                      List<AnnouncedEndpoint> bound, Supplier<Set<InetAddress>> hostAddresses, Clock clock) {
        this.producer = requireNonNull(producer, "producer");
        this.topics = List.copyOf(topics);
        this.key = requireNonNull(key, "key").getBytes(StandardCharsets.UTF_8);
        if (this.key.length == 0 || this.key.length > Announcements.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("key: " + this.key.length + " bytes (expected: 1-"
                    + Announcements.MAX_KEY_BYTES + ")");
        }
        this.role = requireNonNull(role, "role");
        this.bound = List.copyOf(bound);
        this.hostAddresses = requireNonNull(hostAddresses, "hostAddresses");
        this.clock = requireNonNull(clock, "clock");
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "healthmesh-announcer");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts announcing {@code bound} on each of {@code topics}.
     *
     * @param kafka    Kafka client settings (bootstrap servers, security); the producer's own are set here
     * @param key      the worker's instance id ({@link #instanceId})
     * @param bound    the listeners as bound ({@code host} may be a wildcard or a name)
     */
    public static EndpointAnnouncer start(Properties kafka, List<String> topics, String key, String role,
                                          List<AnnouncedEndpoint> bound) {
        Properties props = new Properties();
        props.putAll(kafka);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000"); // bounds a close while Kafka is away
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "healthmesh-announcer-" + role);
        EndpointAnnouncer announcer = new EndpointAnnouncer(
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer()), topics, key, role,
                bound, EndpointAnnouncer::hostAddressesOrNone, Clock.systemUTC());
        announcer.thread.scheduleWithFixedDelay(announcer::announce, 0, Announcements.REFRESH.toMillis(),
                TimeUnit.MILLISECONDS);
        return announcer;
    }

    /**
     * A worker's instance id: its role, this host's name and the port of its first listener, which no other worker
     * of this host has bound; a restart on the same port replaces the announcement of the last run.
     */
    public static String instanceId(String role, List<AnnouncedEndpoint> bound) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | RuntimeException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "unknown-host");
        }
        String id = role + "@" + host + (bound.isEmpty() ? "" : ":" + bound.get(0).port());
        byte[] bytes = id.getBytes(StandardCharsets.UTF_8);
        return bytes.length <= Announcements.MAX_KEY_BYTES ? id
                : new String(bytes, 0, Announcements.MAX_KEY_BYTES, StandardCharsets.US_ASCII);
    }

    /** Announcements written (acknowledged by the broker), tombstones included. */
    public long written() {
        return written.get();
    }

    /** Announcements that could not be written. */
    public long failed() {
        return failed.get();
    }

    /** Writes the announcement now (the refresh does this on its own thread). */
    void announce() {
        if (closed.get()) {
            return;
        }
        byte[] value;
        try {
            value = Announcements.encode(new Announcement(role, clock.millis(),
                    reachable(bound, hostAddresses.get(), EndpointAnnouncer::resolve)));
        } catch (RuntimeException e) {
            onFailure(e);
            return;
        }
        send(value);
    }

    private void send(byte[] value) {
        for (String topic : topics) {
            try {
                producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> {
                    if (error == null) {
                        onWritten();
                    } else {
                        onFailure(error);
                    }
                });
            } catch (RuntimeException e) {
                onFailure(e);
            }
        }
    }

    private void onWritten() {
        written.incrementAndGet();
        if (failing.compareAndSet(true, false)) {
            LOG.info("announcing this worker's listeners again on {}", topics);
        }
    }

    private void onFailure(Throwable e) {
        failed.incrementAndGet();
        if (failing.compareAndSet(false, true)) {
            LOG.warn("cannot announce this worker's listeners on {} (probers may reach them; the worker keeps "
                    + "running and tries again every {} s): {}", topics, Announcements.REFRESH.toSeconds(),
                    e.toString());
        }
    }

    /**
     * Where {@code bound} is reachable: a wildcard host becomes each of {@code hostAddresses}, a name the
     * addresses it resolves to and the name itself, a literal stays; duplicates are dropped, and at most
     * {@link Announcements#MAX_ENDPOINTS} are kept (the first ones).
     */
    static List<AnnouncedEndpoint> reachable(List<AnnouncedEndpoint> bound, Set<InetAddress> hostAddresses,
                                             java.util.function.Function<String, List<InetAddress>> resolver) {
        Set<AnnouncedEndpoint> out = new LinkedHashSet<>();
        for (AnnouncedEndpoint b : bound) {
            String host = b.host().startsWith("[") && b.host().endsWith("]")
                    ? b.host().substring(1, b.host().length() - 1) : b.host();
            if (host.isEmpty() || host.equals("*") || host.equals("0.0.0.0") || host.equals("::")
                    || host.equals("0:0:0:0:0:0:0:0")) {
                hostAddresses.forEach(a -> out.add(new AnnouncedEndpoint(b.listener(), literal(a), b.port())));
            } else if (IPV4.matcher(host).matches() || host.indexOf(':') >= 0) {
                out.add(new AnnouncedEndpoint(b.listener(), host, b.port()));
            } else {
                out.add(new AnnouncedEndpoint(b.listener(), host, b.port()));
                resolver.apply(host).forEach(a -> out.add(new AnnouncedEndpoint(b.listener(), literal(a), b.port())));
            }
        }
        List<AnnouncedEndpoint> all = new ArrayList<>(out);
        if (all.size() > Announcements.MAX_ENDPOINTS) {
            LOG.warn("announcing the first {} of this worker's {} endpoints", Announcements.MAX_ENDPOINTS, all.size());
            return all.subList(0, Announcements.MAX_ENDPOINTS);
        }
        return all;
    }

    private static String literal(InetAddress address) {
        return HostAddresses.withoutScope(address).getHostAddress();
    }

    private static List<InetAddress> resolve(String name) {
        try {
            return List.of(InetAddress.getAllByName(name));
        } catch (UnknownHostException e) {
            return List.of();
        }
    }

    private static Set<InetAddress> hostAddressesOrNone() {
        try {
            return HostAddresses.nonLoopback();
        } catch (RuntimeException e) {
            LOG.debug("cannot list this host's addresses: {}", e.toString());
            return Set.of();
        }
    }

    /** Stops refreshing and withdraws the announcement (a tombstone), waiting a few seconds for it at most. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        thread.shutdownNow();
        try {
            thread.awaitTermination(CLOSE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        send(null);
        try {
            producer.close(CLOSE);
        } catch (RuntimeException e) {
            LOG.debug("closing the announcer's producer failed", e);
        }
    }
}
