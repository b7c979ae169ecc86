package io.healthmesh.pipeline;

import io.healthmesh.testkit.TinyDnsServer;
import io.healthmesh.testkit.Await;
import io.healthmesh.testkit.TopicRecorder;
import io.healthmesh.core.target.Protocol;
import io.healthmesh.core.target.TargetSpec;
import io.healthmesh.testkit.KafkaExtension;
import io.healthmesh.testkit.TestKafka;
import io.healthmesh.testkit.TopicRecorder.Received;
import io.healthmesh.core.health.HealthStatus;
import io.healthmesh.schema.ProbeOutcome;
import io.healthmesh.schema.ProbeResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.healthmesh.testkit.farm.FarmTarget;
import io.healthmesh.testkit.farm.TargetFarm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12: 50 targets named in a zone whose name server never answers, beside 300 targets named in a zone that
 * answers (a tiny Netty DNS server on loopback with a 5 s TTL, so lookups go on all the time; failures are not
 * cached). The dead lookups time out (DNS_FAILURE, and those 50 targets rightly turn UNHEALTHY) but never hold up
 * the others: not one of the 300 leaves HEALTHY. (The 1,000 working targets are scaled to 300 for a
 * loaded two-core CI machine.) Judged by replaying the published results through the aggregator's state machine
 * ({@link Replay}).
 */
@ExtendWith(KafkaExtension.class)
class DeadNameServerIT {

    private static final Logger LOG = LoggerFactory.getLogger(DeadNameServerIT.class);
    private static final int WORKING = 300;
    private static final int DEAD = 50;

    @TempDir
    Path stateDir;

    @Test
    @Timeout(150)
    void namesOnADeadServerFailWithoutAnyFalseUnhealthyAmongTheOthers(TestKafka kafka) throws Exception {
        try (TargetFarm backends = TargetFarm.tcp(10);
             TinyDnsServer dns = new TinyDnsServer(5);
             Pipeline pipeline = Pipeline.start(kafka, stateDir)) {
            dns.silentFor(".dead.test");
            List<TargetSpec> specs = new ArrayList<>();
            for (int i = 0; i < WORKING; i++) {
                String name = String.format("ok-%03d.live.test", i);
                FarmTarget backend = backends.targets().get(i % backends.targets().size());
                dns.add(name, backend.address());
                specs.add(TargetSpec.of(String.format("ok-%03d", i), "live", name, backend.port(), Protocol.TCP).withTiming(2_000, 2_000));
            }
            for (int i = 0; i < DEAD; i++) {
                specs.add(TargetSpec.of(String.format("dead-%02d", i), "dead", String.format("d-%02d.dead.test", i),
                        backends.targets().get(0).port(), Protocol.TCP).withTiming(2_000, 2_000));
            }
            Set<String> working = specs.stream().map(TargetSpec::id).filter(id -> id.startsWith("ok-"))
                    .collect(Collectors.toSet());
            Set<String> dead = specs.stream().map(TargetSpec::id).filter(id -> id.startsWith("dead-"))
                    .collect(Collectors.toSet());
            Map<String, TargetSpec> byId = specs.stream().collect(Collectors.toMap(TargetSpec::id, t -> t));
            pipeline.defineAll(specs);
            Map<String, String> settings = new HashMap<>();
            settings.put("dns.servers", dns.address());
            settings.put("dns.query.timeout.ms", "1000");
            settings.put("dns.cache.negative.ttl.s", "0");
            pipeline.startProber("a", List.of(), settings);

            Await.until(Duration.ofSeconds(75), () -> latest(pipeline, byId, HealthStatus.HEALTHY).containsAll(working)
                            && latest(pipeline, byId, HealthStatus.UNHEALTHY).containsAll(dead),
                    () -> "HEALTHY " + latest(pipeline, byId, HealthStatus.HEALTHY).size() + " of " + WORKING
                            + ", UNHEALTHY " + latest(pipeline, byId, HealthStatus.UNHEALTHY).size() + " of " + DEAD
                            + "; last results of ok-000: " + pipeline.results().of("ok-000").stream()
                            .skip(Math.max(0, pipeline.results().of("ok-000").size() - 3))
                            .map(r -> r.value().getOutcome() + " " + r.value().getDetail()).toList());
            long watchFrom = System.currentTimeMillis();
            long until = watchFrom + 15_000;
            while (System.currentTimeMillis() < until) {
                assertThat(everUnhealthy(pipeline, byId)).as("working targets that were ever UNHEALTHY")
                        .doesNotContainAnyElementsOf(working);
                Thread.sleep(500);
            }
            assertThat(everUnhealthy(pipeline, byId)).doesNotContainAnyElementsOf(working);
            List<ProbeResult> deadResults = pipeline.results().all().stream().map(Received::value)
                    .filter(r -> dead.contains(r.getTargetId().toString())).toList();
            assertThat(deadResults).isNotEmpty()
                    .allSatisfy(r -> assertThat(r.getOutcome()).isIn(ProbeOutcome.DNS_FAILURE, ProbeOutcome.TIMEOUT));
            Map<ProbeOutcome, Long> workingOutcomes = pipeline.results().all().stream().map(Received::value)
                    .filter(r -> working.contains(r.getTargetId().toString()))
                    .collect(Collectors.groupingBy(ProbeResult::getOutcome, Collectors.counting()));
            LOG.info("working targets' outcomes {}; dead targets' results {}; queries for ok-000: {}",
                    workingOutcomes, deadResults.size(), dns.queriesFor("ok-000.live.test"));
            assertThat(dns.queriesFor("ok-000.live.test")).as("lookups kept going (5 s TTL)").isGreaterThan(2);
        }
    }

    private static List<Replay.Change> replay(Pipeline pipeline, Map<String, TargetSpec> byId) {
        return Replay.changes(pipeline.results().all().stream().map(Received::value).toList(), byId);
    }

    private static Set<String> latest(Pipeline pipeline, Map<String, TargetSpec> byId, HealthStatus status) {
        Map<String, HealthStatus> latest = new HashMap<>();
        replay(pipeline, byId).forEach(c -> latest.put(c.targetId(), c.status()));
        return latest.entrySet().stream().filter(e -> e.getValue() == status).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    private static Set<String> everUnhealthy(Pipeline pipeline, Map<String, TargetSpec> byId) {
        return replay(pipeline, byId).stream().filter(c -> c.status() == HealthStatus.UNHEALTHY)
                .map(Replay.Change::targetId).collect(Collectors.toSet());
    }
}
