package io.healthmesh.bench.soak;

/**
 * What one sample saw of one role's process. A value that could not be read (the process was between a stop and its
 * restart, or {@code jcmd} failed) is negative and is left out of every fit.
 *
 * @param pid the process id: a new pid is a new lifetime
 * @param heapMib live heap after a full collection, MiB
 * @param rssMib resident set size ({@code VmRSS}), MiB
 * @param threads threads of the process
 * @param fds open file descriptors
 */
public record RoleFacts(long pid, double heapMib, double rssMib, int threads, int fds) {

    /** A process that could not be read at all. */
    public static RoleFacts unknown(long pid) {
        return new RoleFacts(pid, -1, -1, -1, -1);
    }

    /** The value of {@code metric} in this sample. */
    public double value(RoleMetric metric) {
        return switch (metric) {
            case HEAP -> heapMib;
            case RSS -> rssMib;
            case THREADS -> threads;
            case FDS -> fds;
        };
    }
}
