/**
 * TCP probes: {@code TcpProber} connects (a connect-only check is the transport's {@code ConnectCheck}) or, with a
 * payload, sends it and looks for the expected bytes in the response ({@code TcpExchangeHandler}).
 */
package io.healthmesh.probe.tcp;
