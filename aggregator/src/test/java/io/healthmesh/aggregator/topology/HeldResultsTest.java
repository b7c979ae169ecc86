package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.domain.UnknownTargetHold;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HeldResultsTest {

    private static final long T = 1_700_000_000_000L;
    private KeyValueStore<String, byte[]> store;

    @BeforeEach
    void store() {
        store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("held"), Serdes.String(), Serdes.ByteArray())
                .withLoggingDisabled().build();
        MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
        store.init(context.getStateStoreContext(), store);
    }

    private static HeldResults.Held held(String id, long offset, long timestampMs, long heldAtMs) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
        headers.add("empty", null);
        return new HeldResults.Held(id.getBytes(StandardCharsets.UTF_8), new byte[] {0, 1, 2, (byte) offset}, headers,
                timestampMs, heldAtMs, "healthmesh.probe-results", 3, offset);
    }

    @Test
    void aRowKeepsEveryPartOfTheRecords() {
        HeldResults.Held a = held("web-1", 7, T, T + 5);
        HeldResults.Held b = new HeldResults.Held(null, null, new RecordHeaders(), T + 1, T + 6, "t", 0, 8);
        List<HeldResults.Held> back = HeldResults.decode(HeldResults.encode(List.of(a, b)));
        assertThat(back).hasSize(2);
        assertThat(back.get(0).key()).isEqualTo(a.key());
        assertThat(back.get(0).value()).isEqualTo(a.value());
        assertThat(back.get(0).headers().lastHeader("trace").value()).isEqualTo("abc".getBytes(StandardCharsets.UTF_8));
        assertThat(back.get(0).headers().lastHeader("empty").value()).isNull();
        assertThat(back.get(0)).extracting(HeldResults.Held::timestampMs, HeldResults.Held::heldAtMs,
                HeldResults.Held::topic, HeldResults.Held::partition, HeldResults.Held::offset)
                .containsExactly(T, T + 5, "healthmesh.probe-results", 3, 7L);
        assertThat(back.get(1).key()).isNull();
        assertThat(back.get(1).value()).isNull();
    }

    @Test
    void bytesThatAreNotARowAreNotReadAsOne() {
        assertThat(HeldResults.decode(new byte[0])).isNull();
        assertThat(HeldResults.decode(new byte[] {9})).isNull();
        byte[] row = HeldResults.encode(List.of(held("web-1", 7, T, T)));
        assertThat(HeldResults.decode(java.util.Arrays.copyOf(row, row.length - 1))).isNull();
    }

    @Test
    void releaseTakesATargetsResultsInTimestampOrder() {
        HeldResults held = new HeldResults(new UnknownTargetHold(600_000, 100), store);
        held.hold("a", held("a", 2, T + 20, T + 2));
        held.hold("b", held("b", 3, T + 5, T + 3));
        held.hold("a", held("a", 4, T + 10, T + 4));
        assertThat(held.count()).isEqualTo(3);
        assertThat(held.release("a")).extracting(HeldResults.Held::offset).containsExactly(4L, 2L);
        assertThat(held.count()).isEqualTo(1);
        assertThat(held.release("a")).isEmpty();
        assertThat(store.get("a")).isNull();
    }

    @Test
    void aTargetHoldsAtMostItsShareAndATaskAtMostItsBound() {
        HeldResults held = new HeldResults(new UnknownTargetHold(600_000, UnknownTargetHold.MAX_PER_TARGET + 1),
                store);
        for (int i = 0; i < UnknownTargetHold.MAX_PER_TARGET; i++) {
            assertThat(held.hold("a", held("a", i, T + i, T + i))).isEqualTo(new HeldResults.Outcome(true, null));
        }
        HeldResults.Outcome pushing = held.hold("a", held("a", 100, T + 100, T + 100));
        assertThat(pushing.held()).isTrue();
        assertThat(pushing.pushedOut().offset()).isZero();
        assertThat(held.count()).isEqualTo(UnknownTargetHold.MAX_PER_TARGET);
        assertThat(held.hold("b", held("b", 200, T, T)).held()).isTrue();
        assertThat(held.hold("c", held("c", 201, T, T)).held()).as("the task's bound").isFalse();
        HeldResults.Held huge = new HeldResults.Held(new byte[1], new byte[UnknownTargetHold.MAX_HELD_BYTES],
                new RecordHeaders(), T, T, "t", 0, 300);
        held.release("b");
        assertThat(held.hold("d", huge).held()).as("a record larger than a held one may be").isFalse();
    }

    @Test
    void nothingIsHeldWhenTheHoldIsOff() {
        HeldResults held = new HeldResults(UnknownTargetHold.NONE, store);
        assertThat(held.hold("a", held("a", 1, T, T)).held()).isFalse();
        assertThat(held.count()).isZero();
    }

    @Test
    void settleTakesWhatWaitedLongEnoughInTheOrderItWasRead() {
        HeldResults held = new HeldResults(new UnknownTargetHold(60_000, 100), store);
        held.hold("a", held("a", 1, T, T));
        held.hold("b", held("b", 2, T + 10_000, T + 10_000));
        held.release("a"); // its definition came: its reference in the index is passed over
        held.hold("c", held("c", 3, T + 12_000, T + 12_000));
        assertThat(held.settle(T + 69_999, 100)).as("b held 59.999 s").isEmpty();
        assertThat(held.settle(T + 70_000, 100)).extracting(HeldResults.Held::offset).containsExactly(2L);
        assertThat(held.count()).isEqualTo(1);
        held.definitionRead(T + 12_000 + UnknownTargetHold.DEFINITIONS_AHEAD_MS - 1);
        assertThat(held.settle(T + 70_001, 100)).isEmpty();
        held.definitionRead(T + 12_000 + UnknownTargetHold.DEFINITIONS_AHEAD_MS);
        assertThat(held.settle(T + 70_002, 100)).as("definitions read well past it")
                .extracting(HeldResults.Held::offset).containsExactly(3L);
        assertThat(held.count()).isZero();
        assertThat(store.approximateNumEntries()).isZero();
    }

    @Test
    void aTaskStartingAgainFindsWhatItHeld() {
        HeldResults before = new HeldResults(new UnknownTargetHold(600_000, 100), store);
        before.hold("b", held("b", 2, T + 2, T + 2));
        before.hold("a", held("a", 1, T + 1, T + 1));
        before.hold("a", held("a", 3, T + 3, T + 3));
        store.put("broken", new byte[] {42});
        HeldResults after = new HeldResults(new UnknownTargetHold(600_000, 100), store);
        assertThat(after.count()).isEqualTo(3);
        assertThat(store.get("broken")).as("a row it cannot read is dropped").isNull();
        assertThat(after.settle(T + 600_003, 2)).extracting(HeldResults.Held::offset).containsExactly(1L, 2L);
        assertThat(after.release("a")).extracting(HeldResults.Held::offset).containsExactly(3L);
    }
}
