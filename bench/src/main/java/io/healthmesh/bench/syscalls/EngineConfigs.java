package io.healthmesh.bench.syscalls;

import io.healthmesh.probe.ProbeEngineConfig;

/** The driver's engine settings: loopback allowed, one event loop. */
final class EngineConfigs {

    private EngineConfigs() {
    }

    static ProbeEngineConfig of(String transport) {
        if (!transport.equals("nio") && !transport.equals("auto")) {
            throw new IllegalArgumentException("transport: " + transport + " (expected: nio before native transports)");
        }
        return ProbeEngineConfig.defaults().withAllowList(ProbeEngineConfig.LOOPBACK).withEventLoopThreads(1);
    }
}
