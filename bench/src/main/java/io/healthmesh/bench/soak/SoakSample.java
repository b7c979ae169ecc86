package io.healthmesh.bench.soak;

/**
 * One row of the soak's series: both roles' processes, both groups' consumer lag and the state events seen so far.
 *
 * @param seconds seconds since the run started
 * @param prober the prober's process
 * @param aggregator the aggregator's process
 * @param proberLag records of the targets topic the prober group has not committed (-1 when unreadable)
 * @param aggregatorLag records of the targets and probe-results topics the aggregator group has not committed
 * @param events state events read so far (read_committed)
 * @param falseEvents state events of steady targets that were false so far (must stay 0)
 * @param staleEvents state events that said a target went stale so far
 * @param flappingFlips HEALTHY/UNHEALTHY changes of the flapping targets so far (expected, must be above 0)
 * @param load1 the machine's one-minute load average ({@code /proc/loadavg}), -1 when unreadable
 * @param restart what was restarted since the previous sample ({@code prober:TERM}, {@code aggregator:KILL}), or empty
 */
public record SoakSample(double seconds, RoleFacts prober, RoleFacts aggregator, long proberLag, long aggregatorLag,
                         long events, long falseEvents, long staleEvents, long flappingFlips, double load1,
                         String restart) {

    public SoakSample {
        restart = restart == null ? "" : restart;
    }

    /** The facts of {@code role}. */
    public RoleFacts facts(SoakRole role) {
        return role == SoakRole.PROBER ? prober : aggregator;
    }

    /** The consumer lag of {@code role}'s group. */
    public long lag(SoakRole role) {
        return role == SoakRole.PROBER ? proberLag : aggregatorLag;
    }
}
