package io.healthmesh.bench.run;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Publishes target definitions (and tombstones) to the targets topic, as {@code healthmesh targets apply} does. */
public final class TargetLoader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetLoader.class);
    private static final int BATCH = 100_000;

    private final KafkaProducer<String, TargetDefinition> producer;
    private final String topic;

    public TargetLoader(BenchStack stack) {
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class, stack.serdeConfig());
        this.producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "20",
                ProducerConfig.BATCH_SIZE_CONFIG, "262144"),
                new StringSerializer(), serde.serializer());
        this.topic = stack.topics().targets();
    }

    /** Sends every definition and returns once the broker has them all. */
    public void apply(List<TargetSpec> specs) {
        for (TargetSpec spec : specs) {
            producer.send(new ProducerRecord<>(topic, spec.id(), TargetSpecs.toAvro(spec)));
        }
        producer.flush();
    }

    /**
     * Sends every definition in batches of 100,000, each acknowledged before the next, logging the count after each;
     * returns the seconds it took.
     */
    public double applyInBatches(List<TargetSpec> specs) {
        long t0 = System.nanoTime();
        for (int from = 0; from < specs.size(); from += BATCH) {
            int to = Math.min(specs.size(), from + BATCH);
            apply(specs.subList(from, to));
            LOG.info("{} of {} definitions applied", to, specs.size());
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Deletes the targets (tombstones) and returns once the broker has them all. */
    public void delete(Collection<String> ids) {
        for (String id : ids) {
            producer.send(new ProducerRecord<>(topic, id, null));
        }
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
