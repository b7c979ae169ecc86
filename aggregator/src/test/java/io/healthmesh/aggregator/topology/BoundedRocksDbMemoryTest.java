package io.healthmesh.aggregator.topology;

import io.healthmesh.aggregator.AggregatorConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The RocksDB memory bound: installed in the Streams config, sized by the setting, shared by every store. */
class BoundedRocksDbMemoryTest {

    private static final Map<String, String> REQUIRED = Map.of(
            "bootstrap.servers", "127.0.0.1:9092", "schema.registry.url", "http://127.0.0.1:8081");

    private static AggregatorConfig config(Map<String, String> extra) {
        Map<String, String> settings = new HashMap<>(REQUIRED);
        settings.putAll(extra);
        return AggregatorConfig.from(settings);
    }

    @Test
    void theSetterAndTheSizeAreInTheStreamsConfig() {
        Properties props = config(Map.of()).streamsProperties("127.0.0.1:8082");
        assertThat(props.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)).isEqualTo(BoundedRocksDbMemory.class);
        assertThat(props.get(BoundedRocksDbMemory.MEGABYTES_CONFIG)).isEqualTo(256);
        assertThat(props.get(StreamsConfig.producerPrefix("linger.ms"))).isEqualTo("5");
        Properties sized = config(Map.of("rocksdb.memory.mb", "512", "kafka.producer.linger.ms", "20"))
                .streamsProperties("127.0.0.1:8082");
        assertThat(sized.get(BoundedRocksDbMemory.MEGABYTES_CONFIG)).isEqualTo(512);
        assertThat(sized.get(StreamsConfig.producerPrefix("linger.ms"))).as("kafka.* refines the default")
                .isEqualTo("20");
        // Streams accepts the whole config (it validates the setter class and the producer key)
        assertThat(new StreamsConfig(props).getClass(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG))
                .isEqualTo(BoundedRocksDbMemory.class);
    }

    @Test
    void theSettingIsValidated() {
        for (String bad : new String[] {"4", "70000", "lots"}) {
            assertThatThrownBy(() -> config(Map.of("rocksdb.memory.mb", bad)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rocksdb.memory.mb: " + bad + " (expected: 8..65536)");
        }
        assertThatThrownBy(() -> BoundedRocksDbMemory.megabytes("3"))
                .hasMessage(BoundedRocksDbMemory.MEGABYTES_CONFIG + ": 3 (expected: 8..65536)");
        assertThat(BoundedRocksDbMemory.megabytes(null)).isEqualTo(BoundedRocksDbMemory.DEFAULT_MEGABYTES);
    }

    @Test
    void everyStoreGetsTheSameCacheAndWriteBufferManager() {
        RocksDB.loadLibrary();
        BoundedRocksDbMemory setter = new BoundedRocksDbMemory();
        Map<String, Object> configs = Map.of(BoundedRocksDbMemory.MEGABYTES_CONFIG, 32);
        try (Options a = new Options().setTableFormatConfig(new BlockBasedTableConfig());
             Options b = new Options().setTableFormatConfig(new BlockBasedTableConfig())) {
            setter.setConfig("target-health", a, configs);
            setter.setConfig("group-members", b, configs);
            BoundedRocksDbMemory.Shared shared = BoundedRocksDbMemory.shared(32);
            assertThat(shared.totalBytes()).isEqualTo(32L << 20);
            assertThat(a.writeBufferManager()).isSameAs(shared.writeBuffers());
            assertThat(b.writeBufferManager()).isSameAs(shared.writeBuffers());
            assertThat(a.writeBufferSize()).isEqualTo(2L << 20);
            assertThat(a.maxWriteBufferNumber()).isEqualTo(2);
            BlockBasedTableConfig table = (BlockBasedTableConfig) a.tableFormatConfig();
            assertThat(table.cacheIndexAndFilterBlocks()).isTrue();
            assertThat(table.pinTopLevelIndexAndFilter()).isTrue();
            setter.close("target-health", a);
            // closing one store leaves the shared objects usable by the others
            assertThat(shared.cache().isOwningHandle()).isTrue();
        }
    }
}
