package io.healthmesh.probe;

/**
 * Watches one probe step by step, for a person trying a definition ({@code healthmesh probe}) rather than for the
 * prober, which never attaches one: the steps are the phases protocol code already names through
 * {@link ProbeContext#phase} plus the context's own milestones (connected, TLS done, first byte, status), and facts are
 * what a check learnt on the way that its report does not carry (the resolved address, the peer's certificate, the
 * start of a response). A protocol shows up in a trace through the same calls it makes anyway; it computes a fact
 * only when {@link ProbeContext#tracing()} says someone is watching. Called on the probe's event loop, before the
 * probe's report is handed over.
 */
public interface ProbeTrace {

    /** {@code what} began or happened {@code atMicros} after the probe's start. */
    void step(long atMicros, String what);

    /** A fact named {@code name} ("address", "certificate", "response", ...); a name may come several times. */
    void fact(String name, String value);
}
