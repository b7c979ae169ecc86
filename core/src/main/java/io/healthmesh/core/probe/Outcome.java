package io.healthmesh.core.probe;

/** What one probe found (SPEC section 4). Only {@link #SUCCESS} counts as a success. */
public enum Outcome {
    SUCCESS, TIMEOUT, CONNECTION_REFUSED, CONNECTION_RESET, PORT_UNREACHABLE, HOST_UNREACHABLE,
    UNEXPECTED_STATUS, UNEXPECTED_RESPONSE, TLS_FAILURE, DNS_FAILURE, TOO_MANY_REDIRECTS,
    BLOCKED_BY_POLICY, ERROR;

    public boolean isSuccess() {
        return this == SUCCESS;
    }
}
