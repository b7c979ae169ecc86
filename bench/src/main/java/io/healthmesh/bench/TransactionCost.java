package io.healthmesh.bench;

import io.healthmesh.bench.run.Brokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * What one exactly-once transaction costs on the embedded broker (or, with {@code --brokers 3}, on a cluster of three
 * in this JVM with everything replicated), split as the aggregator's commit is: a
 * transactional producer sends one record to each of a topic's partitions and flushes (the transaction's first
 * sends, which on Kafka 4's transactions v2 also add each partition to the transaction on the broker), sends and
 * flushes as many again (sends to partitions already in the transaction), then commits. Prints the percentiles of
 * each step (docs/BENCHMARKS.md, "Kafka's side"), and what the transactions cost the broker's threads in CPU
 * (every thread of this JVM but the producer's and the caller's, less what the same threads use while idle, read over
 * up to 10 s after the loop and scaled to its length): the figure that says what a shorter commit interval costs a shared
 * cluster (docs/OPERATIONS.md, "Detection latency and the commit interval").
 */
@Command(name = "transaction-cost", mixinStandardHelpOptions = true,
        description = "Latency of a transaction's first sends, later sends and commit on the embedded broker (or a "
                + "replicated cluster of three), and the brokers' CPU per transaction.")
public final class TransactionCost implements Callable<Integer> {

    /** How long the broker's idle CPU is read after the loop (at most; never longer than the loop). */
    private static final long IDLE_SAMPLE_NANOS = TimeUnit.SECONDS.toNanos(10);

    @Option(names = "--transactions", defaultValue = "300", description = "Transactions measured (after 50 unmeasured).")
    int transactions;
    @Option(names = "--partitions", defaultValue = "6", description = "Partitions written by each transaction.")
    int partitions;
    @Option(names = "--pause-ms", defaultValue = "20", description = "Pause between transactions, so that each starts "
            + "after the previous one's markers are written.")
    long pauseMs;
    @Option(names = "--rounds", defaultValue = "2", description = "Rounds of sends (one record to each partition, "
            + "then a flush) per transaction, 1 or 2; with 1 a transaction is what one commit interval of a lightly "
            + "loaded stream thread writes.")
    int rounds;
    @Option(names = "--brokers", defaultValue = "1", description = "Brokers: 1, the embedded broker the benchmarks "
            + "use, or 3, a cluster in this JVM with the topic and the transaction state log replicated to all three "
            + "(min.insync.replicas 2); the CPU per transaction is then the three brokers' together.")
    int brokers;
    @Option(names = "--broker-setting", description = "A broker setting (key=value, repeatable) on top of the "
            + "broker's own (each broker's, with --brokers 3), e.g. add.partitions.to.txn.retry.backoff.ms=5.")
    Map<String, String> brokerSettings = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new TransactionCost()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (transactions < 10 || transactions > 100_000 || partitions < 1 || partitions > 100 || pauseMs < 0
                || pauseMs > 10_000 || rounds < 1 || rounds > 2 || (brokers != 1 && brokers != 3)) {
            System.err.println("--transactions 10..100000, --partitions 1..100, --pause-ms 0..10000, --rounds 1..2, "
                    + "--brokers 1 or 3");
            return 2;
        }
        try (Brokers broker = Brokers.start(brokers, brokerSettings)) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    broker.bootstrapServers()))) {
                NewTopic topic = new NewTopic("transaction-cost", partitions, (short) broker.count());
                admin.createTopics(List.of(topic)).all().get();
            }
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "transaction-cost");
            props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
            long[] first = new long[transactions];
            long[] again = new long[transactions];
            long[] commit = new long[transactions];
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer())) {
                producer.initTransactions();
                BrokerCpu cpu = new BrokerCpu(Thread.currentThread());
                long loopStart = 0;
                Map<Long, Long> cpuStart = Map.of();
                Map<String, Long> errorsStart = Map.of();
                for (int i = -50; i < transactions; i++) {
                    if (i == 0) {
                        loopStart = System.nanoTime();
                        cpuStart = cpu.read();
                        errorsStart = brokerErrors();
                    }
                    producer.beginTransaction();
                    long t0 = System.nanoTime();
                    sendToEachPartition(producer);
                    long t1 = System.nanoTime();
                    if (rounds == 2) {
                        sendToEachPartition(producer);
                    }
                    long t2 = System.nanoTime();
                    producer.commitTransaction();
                    long t3 = System.nanoTime();
                    if (i >= 0) {
                        first[i] = t1 - t0;
                        again[i] = t2 - t1;
                        commit[i] = t3 - t2;
                    }
                    Thread.sleep(pauseMs);
                }
                long loopNanos = System.nanoTime() - loopStart;
                Map<Long, Long> loopEnd = cpu.read();
                Map<String, Long> errorsEnd = brokerErrors();
                long busyCpu = BrokerCpu.used(cpuStart, loopEnd);
                // the same threads with no transaction running (their timers, the raft loop), scaled to the loop
                long idleNanos = Math.min(loopNanos, IDLE_SAMPLE_NANOS);
                TimeUnit.NANOSECONDS.sleep(idleNanos);
                long idleCpu = Math.round((double) BrokerCpu.used(loopEnd, cpu.read()) * loopNanos / idleNanos);
                System.out.printf(Locale.ROOT, "%d transactions of %d partitions, %d round(s) of sends, %d "
                        + "broker(s), each partition on every one, broker settings %s%n", transactions, partitions,
                        rounds, broker.count(), brokerSettings);
                print("first sends + flush", first);
                if (rounds == 2) {
                    print("second sends + flush", again);
                }
                print("commit (end transaction)", commit);
                System.out.printf(Locale.ROOT, "broker CPU per transaction %.0f µs (%.0f ms over the %.1f s loop, "
                        + "less %.0f ms idle over as long; %d transactions a second)%n",
                        (busyCpu - idleCpu) / 1e3 / transactions, busyCpu / 1e6, loopNanos / 1e9, idleCpu / 1e6,
                        Math.round(transactions / (loopNanos / 1e9)));
                for (Map.Entry<String, Long> e : errorsEnd.entrySet()) {
                    long during = e.getValue() - errorsStart.getOrDefault(e.getKey(), 0L);
                    if (during > 0) {
                        System.out.printf(Locale.ROOT, "broker answered %s %d times (%.2f per transaction)%n",
                                e.getKey(), during, (double) during / transactions);
                    }
                }
            }
        }
        return 0;
    }

    /**
     * CPU used by the broker's threads: every live thread of this JVM but the caller and the producer's I/O thread
     * (the JVM's own GC and compiler threads are not Java threads and are not counted).
     */
    private static final class BrokerCpu {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final long caller;

        BrokerCpu(Thread caller) {
            this.caller = caller.getId();
            if (threads.isThreadCpuTimeSupported() && !threads.isThreadCpuTimeEnabled()) {
                threads.setThreadCpuTimeEnabled(true);
            }
        }

        /** CPU time of each counted live thread, by thread id. */
        Map<Long, Long> read() {
            Map<Long, Long> cpu = new HashMap<>();
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info == null || info.getThreadId() == caller
                        || info.getThreadName().startsWith("kafka-producer-network-thread")) {
                    continue;
                }
                long nanos = threads.getThreadCpuTime(info.getThreadId());
                if (nanos >= 0) {
                    cpu.put(info.getThreadId(), nanos);
                }
            }
            return cpu;
        }

        /**
         * CPU used between two reads, thread by thread: a thread started in between counts from zero, one that ended
         * in between is lost (the broker's threads live as long as it does).
         */
        static long used(Map<Long, Long> before, Map<Long, Long> after) {
            long sum = 0;
            for (Map.Entry<Long, Long> e : after.entrySet()) {
                sum += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
            }
            return sum;
        }
    }

    /**
     * The brokers' answers other than {@code NONE}, by request and error ({@code request/ERROR}), counted since they
     * started: Kafka's {@code RequestMetrics ErrorsPerSec} meters, one registry for every broker of this JVM (so the
     * counts are all brokers' together). Inter-broker requests count too, such as a partition leader's adding a
     * partition to a transaction at its coordinator.
     */
    private static Map<String, Long> brokerErrors() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Long> counts = new TreeMap<>();
        for (ObjectName name : server.queryNames(
                new ObjectName("kafka.network:type=RequestMetrics,name=ErrorsPerSec,*"), null)) {
            String error = name.getKeyProperty("error");
            if (error == null || error.equals("NONE")) {
                continue;
            }
            Object count = server.getAttribute(name, "Count");
            if (count instanceof Number n) {
                counts.merge(name.getKeyProperty("request") + "/" + error, n.longValue(), Long::sum);
            }
        }
        return counts;
    }

    private void sendToEachPartition(KafkaProducer<String, String> producer) {
        for (int p = 0; p < partitions; p++) {
            producer.send(new ProducerRecord<>("transaction-cost", p, "k", "v"));
        }
        producer.flush();
    }

    private static void print(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(Locale.ROOT, "%-26s p50 %6.1f ms  p90 %6.1f ms  p99 %6.1f ms%n", what,
                sorted[sorted.length / 2] / 1e6, sorted[sorted.length * 9 / 10] / 1e6,
                sorted[sorted.length * 99 / 100] / 1e6);
    }
}
