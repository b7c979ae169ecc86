/**
 * The mapping file: which group feeds which HAProxy backend, how its servers are named and weighted, and which
 * HAProxy instances to drive. Read and validated once, at start, by {@link io.healthmesh.haproxy.mapping.MappingFile}.
 */
package io.healthmesh.haproxy.mapping;
