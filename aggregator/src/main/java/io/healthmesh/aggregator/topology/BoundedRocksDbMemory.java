package io.healthmesh.aggregator.topology;

import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bounds the memory of every RocksDB state store of one aggregator instance together: all stores (every task's
 * {@code target-health}, {@code target-history-rows}, {@code group-summary}, {@code group-members}) share one LRU block
 * cache of {@code rocksdb.memory.mb}, which also holds their index and filter blocks and is charged with their
 * memtables through one shared {@link WriteBufferManager} (a quarter of the total). Without it each store has its
 * own cache and up to three 16 MiB memtables, so memory grows with partitions and stores.
 *
 * <p>Installed by {@code AggregatorConfig#streamsProperties}; the size comes from the Streams config key
 * {@link #MEGABYTES_CONFIG}. The cache and manager are shared per size for the life of the JVM (the stores come and
 * go with rebalances; closing a shared cache under a live store would crash it), so {@link #close} leaves them.
 */
public final class BoundedRocksDbMemory implements RocksDBConfigSetter {

    /** Streams config key (not a Kafka one: Streams passes it through) holding the total, MiB. */
    public static final String MEGABYTES_CONFIG = "healthmesh.rocksdb.memory.mb";
    /** Default total of {@code rocksdb.memory.mb}. */
    public static final int DEFAULT_MEGABYTES = 256;
    /** Share of the total the memtables may take (charged to the same cache). */
    static final double WRITE_BUFFER_SHARE = 0.25;
    /** Share of the cache kept for index and filter blocks (high priority). */
    static final double INDEX_FILTER_SHARE = 0.1;

    private static final Map<Long, Shared> SHARED = new ConcurrentHashMap<>();

    /** The cache and write buffer manager of one total size. */
    record Shared(long totalBytes, Cache cache, WriteBufferManager writeBuffers) {
        static Shared of(long totalBytes) {
            Cache cache = new LRUCache(totalBytes, -1, false, INDEX_FILTER_SHARE);
            return new Shared(totalBytes, cache, new WriteBufferManager((long) (totalBytes * WRITE_BUFFER_SHARE), cache));
        }
    }

    /** The shared objects of a total of {@code megabytes} MiB (created on first use). */
    static Shared shared(int megabytes) {
        return SHARED.computeIfAbsent(megabytes * 1024L * 1024L, Shared::of);
    }

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        int megabytes = megabytes(configs.get(MEGABYTES_CONFIG));
        Shared shared = shared(megabytes);
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        table.setBlockCache(shared.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(shared.writeBuffers());
        // memtables small enough that many stores fit in the manager's share; flushed when the share is full
        options.setWriteBufferSize(Math.max(1L << 20, shared.totalBytes() / 16));
        options.setMaxWriteBufferNumber(2);
        options.setTableFormatConfig(table);
    }

    /** The configured total, MiB (the default when absent). */
    static int megabytes(Object value) {
        if (value == null) {
            return DEFAULT_MEGABYTES;
        }
        int megabytes;
        try {
            megabytes = value instanceof Number n ? n.intValue() : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(MEGABYTES_CONFIG + ": " + value + " (expected: 8..65536)", e);
        }
        if (megabytes < 8 || megabytes > 65_536) {
            throw new IllegalArgumentException(MEGABYTES_CONFIG + ": " + value + " (expected: 8..65536)");
        }
        return megabytes;
    }

    @Override
    public void close(String storeName, Options options) {
        // the cache and the write buffer manager are shared by every store: never closed with one of them
    }
}
