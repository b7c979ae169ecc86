package io.healthmesh.bench;

import io.healthmesh.embedded.EmbeddedKafka;
import io.healthmesh.embedded.EmbeddedKafkaConfig;
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

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * What one exactly-once transaction costs on the embedded broker, split as the aggregator's commit is: a
 * transactional producer sends one record to each of a topic's partitions and flushes (the transaction's first
 * sends, which on Kafka 4's transactions v2 also add each partition to the transaction on the broker), sends and
 * flushes as many again (sends to partitions already in the transaction), then commits. Prints the percentiles of
 * each step (docs/BENCHMARKS.md, "What a commit costs").
 */
@Command(name = "transaction-cost", mixinStandardHelpOptions = true,
        description = "Latency of a transaction's first sends, later sends and commit on the embedded broker.")
public final class TransactionCost implements Callable<Integer> {

    @Option(names = "--transactions", defaultValue = "300", description = "Transactions measured (after 50 unmeasured).")
    int transactions;
    @Option(names = "--partitions", defaultValue = "6", description = "Partitions written by each transaction.")
    int partitions;
    @Option(names = "--pause-ms", defaultValue = "20", description = "Pause between transactions, so that each starts "
            + "after the previous one's markers are written.")
    long pauseMs;
    @Option(names = "--broker-setting", description = "A broker setting (key=value, repeatable) on top of the "
            + "embedded broker's own, e.g. add.partitions.to.txn.retry.backoff.ms=5.")
    Map<String, String> brokerSettings = new LinkedHashMap<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new TransactionCost()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (transactions < 10 || transactions > 100_000 || partitions < 1 || partitions > 100 || pauseMs < 0) {
            System.err.println("--transactions 10..100000, --partitions 1..100, --pause-ms >= 0");
            return 2;
        }
        try (EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.defaults(), brokerSettings)) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("transaction-cost", partitions, (short) 1))).all().get();
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
                for (int i = -50; i < transactions; i++) {
                    producer.beginTransaction();
                    long t0 = System.nanoTime();
                    sendToEachPartition(producer);
                    long t1 = System.nanoTime();
                    sendToEachPartition(producer);
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
            }
            System.out.printf(Locale.ROOT, "%d transactions of %d partitions, broker settings %s%n", transactions,
                    partitions, brokerSettings);
            print("first sends + flush", first);
            print("second sends + flush", again);
            print("commit (end transaction)", commit);
        }
        return 0;
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
