package io.healthmesh.bench.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/** Synthetic soak series for the tests: both roles read the same shape unless told otherwise. */
final class Series {

    private final List<SoakSample> samples = new ArrayList<>();

    /**
     * Adds a sample every {@code step} seconds from {@code from} to {@code to} (exclusive) for the given pids, each
     * metric {@code shape} of the seconds since the pid's lifetime began.
     */
    Series add(double from, double to, double step, long proberPid, long aggregatorPid, DoubleUnaryOperator shape,
               long lag) {
        for (double t = from; t < to; t += step) {
            double v = shape.applyAsDouble(t - from);
            samples.add(new SoakSample(t, facts(proberPid, v), facts(aggregatorPid, v), lag, lag, 100, 0, 0, 3, 0.5,
                    t == from && from > 0 ? "restart" : ""));
        }
        return this;
    }

    static RoleFacts facts(long pid, double v) {
        return new RoleFacts(pid, v, v * 4, (int) Math.round(v), (int) Math.round(v * 2), (int) Math.round(v * 2));
    }

    List<SoakSample> samples() {
        return List.copyOf(samples);
    }
}
