package io.healthmesh.cli.targets;

import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.cli.output.Progress;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;

import java.util.List;

/**
 * The compacted targets topic as the CLI sees it: every current definition by id, definitions written from
 * validated specs and tombstones.
 */
public final class TargetTopic {

    private final CompactedTopic<TargetDefinition> topic;

    public TargetTopic(KafkaOptions options) {
        this.topic = new CompactedTopic<>(options, options.topics().targets(), TargetDefinition.class,
                "a prober/aggregator");
    }

    public String name() {
        return topic.name();
    }

    /** Every current definition, by id, in topic order; fails clearly when the topic or the cluster is missing. */
    public CompactedTopic.Contents<TargetDefinition> read() {
        return topic.read();
    }

    /** Writes every spec and waits until all are acknowledged. */
    public void write(List<TargetSpec> specs) {
        write(specs, null);
    }

    /**
     * Writes every spec and waits until all are acknowledged; {@code acked}, when given, advances once per
     * acknowledged record (from the producer's thread).
     */
    public void write(List<TargetSpec> specs, Progress acked) {
        topic.writeEncoded(specs.size(), i -> specs.get(i).id(), i -> TargetSpecs.encode(specs.get(i)), acked);
    }

    /**
     * Writes definitions encoded already ({@link TargetSpecs#encode}; {@code ids.get(i)} is the key of
     * {@code bodies.get(i)}), in list order, and waits until all are acknowledged; {@code acked} as in
     * {@link #write(List, Progress)}.
     */
    public void writeEncoded(List<String> ids, List<byte[]> bodies, Progress acked) {
        if (ids.size() != bodies.size()) {
            throw new IllegalArgumentException(ids.size() + " ids for " + bodies.size() + " definitions");
        }
        topic.writeEncoded(ids.size(), ids::get, bodies::get, acked);
    }

    /**
     * Writes a tombstone for every id and waits until all are acknowledged; an id not defined is an error and
     * nothing is written, unless {@code ignoreMissing}.
     */
    public void delete(List<String> ids, boolean ignoreMissing) {
        topic.delete(ids, ignoreMissing, "unknown target(s)");
    }
}
