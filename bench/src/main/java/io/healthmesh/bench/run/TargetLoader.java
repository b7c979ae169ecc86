package io.healthmesh.bench.run;

import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Publishes target definitions (and tombstones) to the targets topic, as {@code healthmesh targets apply} does. */
public final class TargetLoader implements AutoCloseable {

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
