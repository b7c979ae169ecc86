package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trace sees a probe's phases, milestones and facts in order, gets the report only after what the verdict's turn
 * still reads, and changes nothing of the report; an untraced probe computes no fact.
 */
class ProbeTraceTest {

    /** Steps as "what", facts as "name=value", in arrival order. */
    private static final class Recorded implements ProbeTrace {
        final List<String> events = new ArrayList<>();

        @Override
        public void step(long atMicros, String what) {
            assertThat(atMicros).isNotNegative();
            events.add(what);
        }

        @Override
        public void fact(String name, String value) {
            events.add(name + "=" + value);
        }
    }

    private static ProbeContext context(EmbeddedChannel loopOwner, ProbeTrace trace) {
        return new ProbeContext(Targets.tcp(9, 2000), loopOwner.eventLoop(), System.nanoTime(),
                LoopWatch.Stalls.NONE, Long.MAX_VALUE, null, trace);
    }

    @Test
    void aTracedProbeReportsItsStepsAndFactsBeforeItsReport() {
        EmbeddedChannel loopOwner = new EmbeddedChannel();
        Recorded trace = new Recorded();
        ProbeContext probe = context(loopOwner, trace);

        assertThat(probe.tracing()).isTrue();
        probe.phase("connecting");
        probe.connected();
        probe.bytesRead(5);
        probe.httpStatus(200);
        probe.succeed("status 200");
        probe.factBytes("body", Unpooled.copiedBuffer("hello", StandardCharsets.UTF_8)); // same turn as the verdict

        assertThat(probe.result()).as("handed over on the loop's next turn").isNotDone();
        loopOwner.runPendingTasks();
        ProbeReport report = probe.result().join();
        assertThat(report.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(report.detail()).isEqualTo("status 200");
        assertThat(report.httpStatus()).isEqualTo(200);
        assertThat(trace.events).containsExactly("connecting", "connected", "first response byte", "status 200",
                "verdict SUCCESS", "body=hello");
    }

    @Test
    void aTracedProbesConnectionLingersAfterTheVerdictUntilTheResponseEnded() {
        EmbeddedChannel loopOwner = new EmbeddedChannel();
        EmbeddedChannel connection = new EmbeddedChannel();
        Recorded trace = new Recorded();
        ProbeContext probe = context(loopOwner, trace);
        probe.track(connection);

        probe.httpStatus(200);
        probe.succeed("status 200");
        loopOwner.runPendingTasks();
        assertThat(connection.isOpen()).as("open for the rest of the response").isTrue();
        assertThat(probe.result()).isNotDone();

        probe.factBytes("body", Unpooled.copiedBuffer("late", StandardCharsets.UTF_8));
        probe.traceHasAll();

        assertThat(connection.isOpen()).isFalse();
        assertThat(probe.result().join().detail()).isEqualTo("status 200");
        assertThat(trace.events).containsExactly("status 200", "verdict SUCCESS", "body=late");
    }

    @Test
    void anUntracedProbeComputesNoFactAndCompletesAtOnce() {
        EmbeddedChannel loopOwner = new EmbeddedChannel();
        ProbeContext probe = context(loopOwner, null);

        assertThat(probe.tracing()).isFalse();
        probe.factBytes("body", Unpooled.copiedBuffer("hello", StandardCharsets.UTF_8));
        probe.fact("certificate", "x");
        probe.finish(Outcome.CONNECTION_REFUSED, "refused");

        assertThat(probe.result()).isDone();
        assertThat(probe.result().join().outcome()).isEqualTo(Outcome.CONNECTION_REFUSED);
    }

    @Test
    void aLongFactIsCutToTheTracedBound() {
        EmbeddedChannel loopOwner = new EmbeddedChannel();
        Recorded trace = new Recorded();
        ProbeContext probe = context(loopOwner, trace);

        probe.factBytes("response", Unpooled.wrappedBuffer(new byte[ProbeContext.MAX_TRACED_BYTES * 3]));

        assertThat(trace.events).singleElement().satisfies(e ->
                assertThat(e).hasSize("response=".length() + ProbeContext.MAX_TRACED_BYTES));
    }
}
