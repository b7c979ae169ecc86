package io.healthmesh.bench.syscalls;

import io.healthmesh.probe.ProbeEngineConfig;
import io.healthmesh.probe.transport.ProbeTransport;

/** The driver's engine settings: loopback allowed, one event loop, the given transport. */
final class EngineConfigs {

    private EngineConfigs() {
    }

    static ProbeEngineConfig of(String transport) {
        return ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1)
                .withTransport(ProbeTransport.parse(transport));
    }
}
