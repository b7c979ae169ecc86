package io.healthmesh.probe;

import java.net.InetAddress;

/**
 * One protocol's I/O. Called on the probe's event loop with an address that the deny list has already
 * allowed; reports through the context ({@code succeed}, {@code finish}, {@code fail}) and never throws on
 * purpose (the runner turns a thrown exception into a verdict anyway). The deadline, timing and closing are
 * the runner's and the context's.
 */
public interface Prober {

    void probe(ProbeContext probe, InetAddress address);
}
