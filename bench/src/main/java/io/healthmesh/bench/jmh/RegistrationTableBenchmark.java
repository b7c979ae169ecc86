package io.healthmesh.bench.jmh;

import io.healthmesh.probe.transport.FdTable;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * An epoll loop's registrations over one burst of probes: {@code inFlight} sockets with consecutive descriptors
 * (the kernel hands out the lowest free ones) registered, then dropped in the order they were opened (probes end
 * roughly in the order they started). Netty's {@link IntObjectHashMap} against {@link FdTable}; the score is one
 * registration and its removal, per socket.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RegistrationTableBenchmark {

    private static final int FIRST_FD = 300;
    /** Sockets per invocation, in bursts of {@code inFlight} (each value of it divides this). */
    private static final int SOCKETS = 3_200;

    @Param({"16", "160", "1600"})
    public int inFlight;

    @Param({"netty", "fd-table"})
    public String map;

    private IntObjectMap<Object> registrations;
    private final Object registration = new Object();

    @Setup
    public void setUp() {
        // Netty's epoll loop starts its map at 4,096 slots
        registrations = map.equals("netty") ? new IntObjectHashMap<>(4_096) : new FdTable<>();
    }

    /** {@value #SOCKETS} sockets in bursts of {@code inFlight}: the score is per socket. */
    @Benchmark
    @OperationsPerInvocation(SOCKETS)
    public int bursts() {
        int removed = 0;
        for (int b = 0; b < SOCKETS / inFlight; b++) {
            for (int fd = FIRST_FD; fd < FIRST_FD + inFlight; fd++) {
                registrations.put(fd, registration);
            }
            for (int fd = FIRST_FD; fd < FIRST_FD + inFlight; fd++) {
                removed += registrations.remove(fd) == null ? 0 : 1;
            }
        }
        return removed;
    }
}
