package io.healthmesh.registry;

import static java.util.Objects.requireNonNull;

/**
 * Who may do what on the registry's HTTP API, and how the listener is encrypted.
 *
 * @param authenticate true: every API request needs a user's HTTP basic credentials, except reads when
 *     {@code anonymousRead}; false: nobody is asked (in-process tests and benchmarks only, see {@link #open()})
 * @param users the users and their roles; not empty when {@code authenticate}
 * @param anonymousRead a client sending no credentials has the read role (reads, lookups, compatibility tests,
 *     re-registering a schema already there); wrong credentials are refused all the same
 * @param deletesEnabled DELETE of subjects and versions is served at all (to admins)
 * @param configChangesEnabled {@code PUT /config}, {@code PUT} and {@code DELETE /config/<subject>} are served at all
 *     (to admins)
 * @param tls the listener's TLS identity, or null for plain HTTP
 */
public record RegistrySecurity(boolean authenticate, RegistryUsers users, boolean anonymousRead, boolean deletesEnabled,
                               boolean configChangesEnabled, ListenerTls tls) {

    public RegistrySecurity {
        requireNonNull(users, "users");
        if (authenticate && users.isEmpty()) {
            throw new IllegalArgumentException("registry.users: none (expected: at least one name:role:password, from "
                    + "registry.users or registry.users.file, or registry.auth=none)");
        }
    }

    /**
     * No authentication, deletes and configuration changes served, plain HTTP: what tests and in-process
     * benchmarks use on loopback. {@code healthmesh registry} never starts like this unless told to
     * ({@code registry.auth=none}).
     */
    public static RegistrySecurity open() {
        return new RegistrySecurity(false, RegistryUsers.none(), true, true, true, null);
    }

    /** Basic authentication with these users; reads need credentials; deletes and configuration changes off; plain HTTP. */
    public static RegistrySecurity basic(RegistryUsers users) {
        return new RegistrySecurity(true, users, false, false, false, null);
    }

    public RegistrySecurity withAnonymousRead(boolean allowed) {
        return new RegistrySecurity(authenticate, users, allowed, deletesEnabled, configChangesEnabled, tls);
    }

    public RegistrySecurity withDeletes(boolean enabled) {
        return new RegistrySecurity(authenticate, users, anonymousRead, enabled, configChangesEnabled, tls);
    }

    public RegistrySecurity withConfigChanges(boolean enabled) {
        return new RegistrySecurity(authenticate, users, anonymousRead, deletesEnabled, enabled, tls);
    }

    public RegistrySecurity withTls(ListenerTls listenerTls) {
        return new RegistrySecurity(authenticate, users, anonymousRead, deletesEnabled, configChangesEnabled, listenerTls);
    }

    @Override
    public String toString() {
        return "RegistrySecurity[authenticate=" + authenticate + ", users=" + users.list() + ", anonymousRead=" + anonymousRead
                + ", deletes=" + deletesEnabled + ", configChanges=" + configChangesEnabled + ", tls=" + tls + "]";
    }
}
