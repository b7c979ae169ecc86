package io.healthmesh.haproxy.mapping;

import io.healthmesh.haproxy.runtime.RuntimeAddress;

import java.util.List;

/**
 * The validated mapping file: the HAProxy instances to drive (each gets every backend) and the backends to keep.
 *
 * @param instances the Runtime API sockets, one per HAProxy instance, distinct
 * @param backends the backend mappings, backends distinct
 */
public record HaproxyMapping(List<RuntimeAddress> instances, List<BackendMapping> backends) {

    public HaproxyMapping {
        instances = List.copyOf(instances);
        backends = List.copyOf(backends);
    }
}
