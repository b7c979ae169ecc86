package io.healthmesh.core.probe;

/**
 * What one probe found (BEHAVIOUR.md section 4). Only {@link #SUCCESS} counts as a success; {@link #INCONCLUSIVE} is
 * neither a success nor a failure: the prober could not judge the target fairly (its own trouble, the cause in
 * the result's detail, see {@link InconclusiveCause}), and the aggregator treats it like a missing result.
 */
public enum Outcome {
    SUCCESS, TIMEOUT, CONNECTION_REFUSED, CONNECTION_RESET, PORT_UNREACHABLE, HOST_UNREACHABLE,
    UNEXPECTED_STATUS, UNEXPECTED_RESPONSE, TLS_FAILURE, DNS_FAILURE, TOO_MANY_REDIRECTS,
    BLOCKED_BY_POLICY, ERROR, INCONCLUSIVE;

    public boolean isSuccess() {
        return this == SUCCESS;
    }

    /** True when the result counts for the thresholds (a success or a failure); false for {@link #INCONCLUSIVE}. */
    public boolean isConclusive() {
        return this != INCONCLUSIVE;
    }

    /**
     * True for the failures that a prober in trouble can cause by itself: no verdict in time ({@link #TIMEOUT}) or
     * an unexplained {@link #ERROR}. The others are answers of the target or the network (a refusal, a reset, an
     * unreachable, a status, a name server's answer) and stand even when the prober was late.
     */
    public boolean mayBeProberTrouble() {
        return this == TIMEOUT || this == ERROR;
    }
}
