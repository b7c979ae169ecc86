package io.healthmesh.aggregator;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where this module's {@code @TempDir}s are made (junit-platform.properties): in memory, under {@code /dev/shm}, when
 * the machine has one that is writable and has room, else where JUnit makes them by default.
 *
 * <p>Why: Kafka Streams writes and fsyncs its checkpoint files (one per task, one per RocksDB store) at every commit,
 * and the {@code TopologyTestDriver} commits after every record piped and every move of its wall clock. On a disk the
 * topology tests spent nearly all their time waiting on those fsyncs, most of all when the clock moves one
 * punctuation at a time; on a memory file system an fsync returns at once. The stores, their files and how they are
 * read back after a restart are the same on either.
 */
public final class MemoryTempDirFactory implements TempDirFactory {

    private static final Path MEMORY = Path.of("/dev/shm");
    /** Room the tests' stores may need, with a wide margin: below it the default (disk) is used. */
    private static final long MIN_USABLE_BYTES = 1L << 30;

    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws Exception {
        if (inMemoryUsable()) {
            return Files.createTempDirectory(MEMORY, "healthmesh-aggregator-test-");
        }
        return TempDirFactory.Standard.INSTANCE.createTempDirectory(elementContext, extensionContext);
    }

    private static boolean inMemoryUsable() {
        try {
            return Files.isDirectory(MEMORY) && Files.isWritable(MEMORY)
                    && Files.getFileStore(MEMORY).getUsableSpace() >= MIN_USABLE_BYTES;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
