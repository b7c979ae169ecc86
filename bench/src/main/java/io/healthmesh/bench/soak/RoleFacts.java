package io.healthmesh.bench.soak;

/**
 * What one sample saw of one role's process. A value that could not be read (the process was between a stop and its
 * restart, {@code jcmd} failed, or a descriptor count had no earlier listing of the same process to compare with) is
 * negative and is left out of every fit.
 *
 * @param pid the process id: a new pid is a new lifetime
 * @param heapMib live heap after a full collection, MiB
 * @param rssMib resident set size ({@code VmRSS}), MiB
 * @param threads threads of the process
 * @param heldFds descriptors open at this sample and, to the same file or socket, at the previous one of the same
 *                process (RocksDB's files left out): what a leak accumulates
 * @param openFds every descriptor open at this sample (RocksDB's files left out), a probe's socket included
 */
public record RoleFacts(long pid, double heapMib, double rssMib, int threads, int heldFds, int openFds) {

    /** A process that could not be read at all. */
    public static RoleFacts unknown(long pid) {
        return new RoleFacts(pid, -1, -1, -1, -1, -1);
    }

    /** The value of {@code metric} in this sample. */
    public double value(RoleMetric metric) {
        return switch (metric) {
            case HEAP -> heapMib;
            case RSS -> rssMib;
            case THREADS -> threads;
            case FDS -> heldFds;
            case OPEN_FDS -> openFds;
        };
    }

    /**
     * Descriptors open at this sample but not at the previous one (a probe's socket, a client's reconnection), or -1
     * when either count is unknown.
     */
    public int transientFds() {
        return heldFds < 0 || openFds < 0 ? -1 : openFds - heldFds;
    }
}
