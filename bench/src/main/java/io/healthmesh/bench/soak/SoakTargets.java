package io.healthmesh.bench.soak;

import io.healthmesh.bench.run.FarmSpecs;
import io.healthmesh.contract.serde.AvroSerde;
import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.schema.TargetDefinition;
import io.healthmesh.testkit.farm.FarmLayout;
import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.testkit.farm.FlipSchedule;
import io.healthmesh.testkit.farm.TargetFarm;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The soak's targets on the loopback farm: the flapping definitions each on a TCP listener of their own (switched down
 * and up on a schedule), the steady ones spread over up to 200 farm targets that never change, half TCP listeners and
 * half HTTP paths. Thresholds are 2 and 2.
 */
final class SoakTargets implements AutoCloseable {

    /** Farm targets the steady definitions share, at most: each is a listener (a descriptor) or an HTTP path. */
    static final int MAX_STEADY_FARM = 200;
    /** Intervals a flapping target stays down, then up: enough for two failures and two successes with room. */
    static final int FLAP_INTERVALS = 6;
    private static final int THRESHOLD = 2;
    /** The farm's event-loop threads: two, so that one busy loop does not hold every answer back. */
    private static final int FARM_THREADS = 2;

    private final TargetFarm farm;
    private final List<FarmTarget> flappers;
    private final List<TargetSpec> specs;
    private final Set<String> flappingIds = new HashSet<>();
    private final Set<String> steadyIds = new HashSet<>();
    private FlipSchedule flips;

    private SoakTargets(TargetFarm farm, List<FarmTarget> flappers, List<TargetSpec> specs) {
        this.farm = farm;
        this.flappers = flappers;
        this.specs = specs;
    }

    /** Opens the farm's listeners and builds the definitions of {@code plan}. */
    static SoakTargets open(SoakPlan plan) throws InterruptedException {
        int steadyFarm = Math.min(MAX_STEADY_FARM, plan.steadyTargets());
        int steadyTcp = (steadyFarm + 1) / 2;
        int http = steadyFarm - steadyTcp;
        int httpListeners = http == 0 ? 0 : Math.min(2, http);
        int paths = httpListeners == 0 ? 1 : (http + httpListeners - 1) / httpListeners;
        TargetFarm farm = TargetFarm.start(FarmLayout.of(plan.flapping() + steadyTcp, httpListeners, paths, 0),
                FARM_THREADS);
        try {
            List<FarmTarget> tcp = farm.targets(Protocol.TCP);
            List<FarmTarget> flappers = tcp.subList(0, plan.flapping());
            List<FarmTarget> steady = new ArrayList<>(tcp.subList(plan.flapping(), tcp.size()));
            steady.addAll(farm.targets(Protocol.HTTP));
            // the soak looks for leaks, not for the detection latency the load benchmark measures
            int timeoutMs = plan.probeTimeoutMs();
            List<TargetSpec> specs = new ArrayList<>(FarmSpecs.over(steady, plan.steadyTargets(), "soak",
                    plan.intervalMs(), timeoutMs, THRESHOLD, THRESHOLD));
            List<TargetSpec> flapping = FarmSpecs.over(flappers, plan.flapping(), "soak-flap", plan.intervalMs(),
                    timeoutMs, THRESHOLD, THRESHOLD);
            specs.addAll(flapping);
            SoakTargets targets = new SoakTargets(farm, List.copyOf(flappers), List.copyOf(specs));
            flapping.forEach(s -> targets.flappingIds.add(s.id()));
            specs.stream().map(TargetSpec::id).filter(id -> !targets.flappingIds.contains(id))
                    .forEach(targets.steadyIds::add);
            return targets;
        } catch (RuntimeException e) {
            farm.close();
            throw e;
        }
    }

    /** Writes every definition to {@code topic} and returns once the broker has them all. */
    void publish(String bootstrapServers, String registryUrl, String topic) {
        AvroSerde<TargetDefinition> serde = AvroSerde.forValues(TargetDefinition.class,
                Map.of("schema.registry.url", registryUrl));
        try (KafkaProducer<String, TargetDefinition> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, "20"), new StringSerializer(), serde.serializer())) {
            for (TargetSpec spec : specs) {
                producer.send(new ProducerRecord<>(topic, spec.id(), TargetSpecs.toAvro(spec)));
            }
            producer.flush();
        }
    }

    /**
     * Starts flipping the flapping targets after {@code delay}: down for {@value #FLAP_INTERVALS} intervals, up as
     * long, staggered over one cycle, until {@code until}.
     */
    void startFlapping(SoakPlan plan, Duration delay, Duration until) {
        Duration phase = Duration.ofMillis((long) plan.intervalMs() * FLAP_INTERVALS);
        Duration cycle = phase.multipliedBy(2);
        int cycles = (int) Math.max(1, until.minus(delay).toMillis() / cycle.toMillis());
        flips = FlipSchedule.start(farm, flappers, delay, cycle.dividedBy(flappers.size()), Duration.ZERO, phase,
                phase, cycles);
    }

    Set<String> flappingIds() {
        return Set.copyOf(flappingIds);
    }

    Set<String> steadyIds() {
        return Set.copyOf(steadyIds);
    }

    @Override
    public void close() {
        if (flips != null) {
            flips.close();
        }
        farm.close();
    }
}
