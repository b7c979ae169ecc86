package io.healthmesh.probe;

import io.healthmesh.core.probe.Outcome;

import java.util.concurrent.Callable;

/**
 * Runs a check whose verdict a test asserts as a timeout, again (at most three times in all) while the engine calls
 * it INCONCLUSIVE because its own event loop stalled during the wait. On a starved machine that verdict is the right
 * one (no false down; the stall rule has tests of its own, {@code ProbeContextTest}), and such a test is about what a
 * silent peer's check says when the loop kept up: a check that never times out still fails it.
 */
public final class Unstalled {

    private static final int ATTEMPTS = 3;

    private Unstalled() {
    }

    /** The check's report, from the first attempt whose event loop did not stall. */
    public static ProbeReport check(Callable<ProbeReport> check) throws Exception {
        ProbeReport report = check.call();
        for (int attempt = 1; attempt < ATTEMPTS && stalled(report); attempt++) {
            report = check.call();
        }
        return report;
    }

    private static boolean stalled(ProbeReport report) {
        return report.outcome() == Outcome.INCONCLUSIVE && report.detail() != null
                && report.detail().contains("event loop stalled");
    }
}
