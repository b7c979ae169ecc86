package io.healthmesh.bench.soak;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What the soak's verdict allows (docs/operations/soak.md). Within each process lifetime, samples from
 * {@code warmup} after its start on form its window; a line fitted over a window may rise by at most
 * {@link Growth#allowed} of the window's median over the window's span, and a later lifetime's median may exceed the
 * first judged lifetime's by no more than the same. A window needs {@code minWindowSamples} samples to be judged.
 * Consumer lag above {@code maxLag} must come back to it within {@link #drainAllowed} of the sample that first saw it,
 * and be within it at the end. Descriptors open at a sample but not held since the previous one (a probe's socket,
 * a reconnection) may number at most {@link #transientFdsAllowed}: the probes the prober's schedule can have in
 * flight, one socket each, and {@link #TRANSIENT_SLACK} more.
 *
 * @param cores the processors of the machine the run shared, for the lag's drain allowance under load
 * @param probesInFlight the most probes the prober can have in flight at once ({@link SoakPlan#probesInFlight})
 * @param roleHeapMib each role's heap, pre-touched and so resident from the start, MiB
 * @param rocksDbMib the aggregator's RocksDB budget ({@code rocksdb.memory.mb}), MiB
 */
public record SoakBounds(Duration warmup, int minWindowSamples, Map<RoleMetric, Growth> growth, long maxLag,
                         int cores, int probesInFlight, int roleHeapMib, int rocksDbMib) {

    /**
     * What a role's JVM may have resident outside its heap and RocksDB, MiB: metaspace, code cache, the collector's
     * structures, thread stacks, direct buffers and what the C allocator keeps. Native Memory Tracking put the JVM's
     * own share of the aggregator at 187 MiB at 10,000 targets (metaspace 46, collector 47, code 26, shared classes
     * 12, symbols 11, direct buffers and other 19, class space 7).
     */
    public static final int JVM_OVERHEAD_MIB = 256;

    /**
     * Descriptors either role may have open for less than a sample beyond its probes: a client's reconnection, a
     * connection to the ops port, a probe's channel whose close is still queued on its event loop, a descriptor that
     * closed while it was being listed.
     */
    public static final int TRANSIENT_SLACK = 128;

    /**
     * Runnable threads per core up to which a backlog must drain within the warm-up: at that load a process still gets
     * about a quarter of a core. Past it, the time a process gets shrinks in proportion to the load, and so does what
     * it can work off in a given time.
     */
    public static final double LOAD_PER_CORE = 4.0;

    /** Samples a window needs at least: fewer cannot tell a slope from noise. */
    public static final int MIN_WINDOW_SAMPLES = 5;

    /**
     * How much a series may rise: the larger of an absolute amount and a share of its level.
     *
     * @param absolute in the series' unit (MiB, threads, descriptors)
     * @param relative a share of the window's median, 0..1
     */
    public record Growth(double absolute, double relative) {

        public Growth {
            if (absolute < 0 || relative < 0 || relative > 1) {
                throw new IllegalArgumentException("growth bound: " + absolute + ", " + relative
                        + " (expected: absolute >= 0, relative 0..1)");
            }
        }

        /** The rise allowed for a series whose level is {@code level}. */
        public double allowed(double level) {
            return Math.max(absolute, relative * Math.abs(level));
        }
    }

    public SoakBounds {
        requireNonNull(warmup, "warmup");
        growth = Map.copyOf(growth);
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warmup: " + warmup + " (expected: 0 or more)");
        }
        if (minWindowSamples < 2) {
            throw new IllegalArgumentException("minWindowSamples: " + minWindowSamples + " (expected: at least 2)");
        }
        for (RoleMetric metric : RoleMetric.values()) {
            if (metric.judgedForGrowth() && !growth.containsKey(metric)) {
                throw new IllegalArgumentException("growth: no bound for " + metric);
            }
        }
        if (maxLag < 0) {
            throw new IllegalArgumentException("maxLag: " + maxLag + " (expected: 0 or more)");
        }
        if (cores < 1) {
            throw new IllegalArgumentException("cores: " + cores + " (expected: 1 or more)");
        }
        if (probesInFlight < 0) {
            throw new IllegalArgumentException("probesInFlight: " + probesInFlight + " (expected: 0 or more)");
        }
        if (roleHeapMib < 1 || rocksDbMib < 0) {
            throw new IllegalArgumentException("roleHeapMib, rocksDbMib: " + roleHeapMib + ", " + rocksDbMib
                    + " (expected: at least 1, at least 0)");
        }
    }

    /**
     * Native memory of {@code role} that fills from empty within each lifetime by design, MiB: the aggregator's RocksDB
     * budget (its block cache and memtables start empty at every start and fill toward it as the stores are read and
     * written); nothing for the prober. A lifetime's RSS may rise by this much on top of its growth bound.
     */
    public int fillsByDesignMib(SoakRole role) {
        return role == SoakRole.AGGREGATOR ? rocksDbMib : 0;
    }

    /**
     * The most RSS {@code role} may ever have, MiB: its heap, what fills by design ({@link #fillsByDesignMib}) and
     * {@link #JVM_OVERHEAD_MIB}. What a native leak grows crosses it whatever a lifetime's shape.
     */
    public int rssCeilingMib(SoakRole role) {
        return roleHeapMib + fillsByDesignMib(role) + JVM_OVERHEAD_MIB;
    }

    /**
     * How many descriptors of {@code role} may be open at a sample without having been open at the previous one:
     * the prober's probes in flight plus {@link #TRANSIENT_SLACK}; the aggregator's slack alone.
     */
    public int transientFdsAllowed(SoakRole role) {
        return (role == SoakRole.PROBER ? probesInFlight : 0) + TRANSIENT_SLACK;
    }

    /**
     * How long, in seconds, a lag above {@link #maxLag} may take to come back within it when the machine's one-minute
     * load average reached {@code load} meanwhile: the warm-up, stretched by the load past {@link #LOAD_PER_CORE}
     * runnable threads per core (an unknown load, below 0, stretches nothing).
     */
    public double drainAllowed(double load) {
        double warmupSeconds = warmup.toMillis() / 1000.0;
        return warmupSeconds * Math.max(1.0, load / (LOAD_PER_CORE * cores));
    }

    /**
     * The stated bounds: heap after GC max(16 MiB, 10 %), RSS max(32 MiB, 10 %), threads max(4, 5 %), held
     * descriptors max(16, 10 %); lag at most {@code maxLag}, drained within the warm-up on a machine of {@code cores}
     * processors that was not loaded past {@link #LOAD_PER_CORE} per core; transient descriptors at most
     * {@code probesInFlight} plus {@link #TRANSIENT_SLACK}; RSS at most {@link #rssCeilingMib}, and the aggregator's
     * RSS may also rise by its RocksDB budget within a lifetime.
     */
    public static SoakBounds defaults(Duration warmup, long maxLag, int cores, int probesInFlight, int roleHeapMib,
                                      int rocksDbMib) {
        Map<RoleMetric, Growth> growth = new EnumMap<>(RoleMetric.class);
        growth.put(RoleMetric.HEAP, new Growth(16, 0.10));
        growth.put(RoleMetric.RSS, new Growth(32, 0.10));
        growth.put(RoleMetric.THREADS, new Growth(4, 0.05));
        growth.put(RoleMetric.FDS, new Growth(16, 0.10));
        return new SoakBounds(warmup, MIN_WINDOW_SAMPLES, growth, maxLag, cores, probesInFlight, roleHeapMib,
                rocksDbMib);
    }

    /** {@link #defaults} for {@code plan}, run on a machine of {@code cores} processors. */
    public static SoakBounds of(SoakPlan plan, int cores) {
        return defaults(plan.warmup(), plan.maxLag(), cores, plan.probesInFlight(), plan.roleHeapMib(),
                SoakPlan.ROCKSDB_MEMORY_MB);
    }
}
