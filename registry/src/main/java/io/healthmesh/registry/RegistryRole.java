package io.healthmesh.registry;

/**
 * What a registry user may do. {@link #READ} is for workers and clients: every read, lookups, compatibility
 * tests, and a registration that changes nothing (the schema is already registered under the subject, the
 * serializer's usual call). {@link #ADMIN} may also register new schemas, and delete or change the
 * compatibility configuration when the registry enables those at all.
 */
public enum RegistryRole {
    READ,
    ADMIN
}
