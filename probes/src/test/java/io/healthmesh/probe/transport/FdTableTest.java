package io.healthmesh.probe.transport;

import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link FdTable}: Netty's {@link IntObjectMap} contract, as Netty's epoll loop uses it, on descriptor keys. */
class FdTableTest {

    @Test
    void putGetRemoveAnswerAsNettysMapDoesOverARandomRun() {
        FdTable<String> table = new FdTable<>();
        IntObjectMap<String> netty = new IntObjectHashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            // mostly small descriptors, some far above the first array (growth), as a busy prober has them
            int fd = random.nextInt(10) == 0 ? random.nextInt(70_000) : random.nextInt(3_000);
            switch (random.nextInt(3)) {
                case 0 -> assertThat(table.put(fd, "v" + i)).isEqualTo(netty.put(fd, "v" + i));
                case 1 -> assertThat(table.remove(fd)).isEqualTo(netty.remove(fd));
                default -> assertThat(table.get(fd)).isEqualTo(netty.get(fd));
            }
            assertThat(table.size()).isEqualTo(netty.size());
        }
        assertThat(new TreeMap<>(table)).isEqualTo(new TreeMap<>(netty));
        assertThat(table.values()).containsExactlyInAnyOrderElementsOf(netty.values());
        assertThat(table.isEmpty()).isEqualTo(netty.isEmpty());
    }

    @Test
    void aReplacedValueIsReturnedAndCountedOnce() {
        FdTable<String> table = new FdTable<>();
        assertThat(table.put(5, "a")).isNull();
        assertThat(table.put(5, "b")).isEqualTo("a");
        assertThat(table.size()).isEqualTo(1);
        assertThat(table.containsKey(5)).isTrue();
        assertThat(table.remove(5)).isEqualTo("b");
        assertThat(table.remove(5)).isNull();
        assertThat(table.isEmpty()).isTrue();
    }

    @Test
    void keysOutsideWhatADescriptorCanBeAreRefusedOrAbsent() {
        FdTable<String> table = new FdTable<>();
        assertThatThrownBy(() -> table.put(-1, "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a file descriptor: -1");
        assertThatThrownBy(() -> table.put(FdTable.MAX_KEY + 1, "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> table.put(3, null)).isInstanceOf(NullPointerException.class);
        assertThat(table.get(-1)).isNull();
        assertThat(table.get(1 << 20)).isNull();
        assertThat(table.remove(-7)).isNull();
        assertThat(table.get("3")).isNull();
        assertThat(table).isEmpty();
    }

    @Test
    void theValuesAreACopySoThatWalkingThemMayRemoveEntries() {
        // Netty closes every registration of a loop that shuts down by walking values() while each close removes
        FdTable<String> table = new FdTable<>();
        for (int fd = 10; fd < 20; fd++) {
            table.put(fd, "r" + fd);
        }
        List<String> closed = new ArrayList<>();
        for (String value : table.values()) {
            closed.add(value);
            table.remove(Integer.parseInt(value.substring(1)));
        }
        assertThat(closed).hasSize(10);
        assertThat(table).isEmpty();
    }

    @Test
    void entriesWriteThroughAndTheEntrySetRemoves() {
        FdTable<String> table = new FdTable<>();
        table.put(1, "a");
        table.put(2_000, "b");
        for (IntObjectMap.PrimitiveEntry<String> entry : table.entries()) {
            entry.setValue(entry.value() + "!");
        }
        assertThat(table).containsExactlyInAnyOrderEntriesOf(Map.of(1, "a!", 2_000, "b!"));
        table.entrySet().removeIf(e -> e.getKey() == 1);
        assertThat(table).containsExactlyInAnyOrderEntriesOf(Map.of(2_000, "b!"));
        table.clear();
        assertThat(table.size()).isZero();
        assertThat(table.get(2_000)).isNull();
    }
}
