/**
 * The endpoints topic: each worker announces the listeners it has bound ({@link
 * io.healthmesh.contract.endpoints.EndpointAnnouncer}), keyed by its instance id, and every prober denies what is
 * announced. {@link io.healthmesh.contract.endpoints.Announcements} holds the record's bounds and its encoding
 * (Avro single-object, no schema registry), in one place for the writer and the readers.
 */
package io.healthmesh.contract.endpoints;
