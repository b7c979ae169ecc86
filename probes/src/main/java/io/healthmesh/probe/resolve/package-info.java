/**
 * Name resolution for probes: {@code HostResolver} and its Netty implementation ({@code NettyHostResolver}: a
 * bounded number of lookups waiting, the system's or the configured servers ({@code DnsConfig}), a TTL-capped
 * cache), off the event loops. A resolver too busy to try says so with {@code ResolverBusyException}, which the
 * engine reports as inconclusive rather than as the target's DNS failure.
 */
package io.healthmesh.probe.resolve;
