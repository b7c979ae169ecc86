package io.healthmesh.registry;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Decides, before the API sees a request, whether it may run: authentication (HTTP basic, {@link RegistryUsers}),
 * then the role ({@link RegistryRole}), then whether deletes and configuration changes are served at all.
 * Unauthenticated requests that need a user get 401, a read-only user's writes 403, and a disabled operation 403
 * for everyone. A read-only user's registration becomes a lookup: an already registered schema gets its id
 * (nothing changes), a new one 403. Any other write (a method or path the API may not even have) needs the admin
 * role: 401 without credentials, 403 for a read-only user.
 */
final class RegistryAccess {

    /** What a request does, as far as permissions go. */
    enum Kind { READ, REGISTER, DELETE, CONFIG_CHANGE }

    /**
     * The decision: run the request (as a lookup when {@code registerAsLookup}), or answer {@code refusal};
     * {@code user} is null for an anonymous client.
     */
    record Decision(Optional<ApiResponse> refusal, boolean registerAsLookup, String user) {
        static Decision allow(String user) {
            return new Decision(Optional.empty(), false, user);
        }

        static Decision refuse(ApiResponse answer) {
            return new Decision(Optional.of(answer), false, null);
        }
    }

    /** Confluent's codes for an unauthenticated and a forbidden request. */
    static final int UNAUTHORIZED_CODE = 40101;
    static final int FORBIDDEN_CODE = 40301;

    private final RegistrySecurity security;

    RegistryAccess(RegistrySecurity security) {
        this.security = requireNonNull(security, "security");
    }

    Decision decide(String method, List<String> path, String authorization) {
        Kind kind = kindOf(method, path);
        String user = null;
        if (security.authenticate()) {
            Optional<RegistryUsers.User> found = security.users().authenticate(authorization);
            if (found.isEmpty()) {
                // with anonymous reads, a client without credentials has the read role (bad credentials never do)
                boolean anonymous = authorization == null && security.anonymousRead();
                if (anonymous && kind == Kind.READ) {
                    return Decision.allow(null);
                }
                if (anonymous && registration(method, path)) {
                    return new Decision(Optional.empty(), true, null);
                }
                return Decision.refuse(unauthorized(authorization));
            }
            user = found.get().name();
            if (found.get().role() == RegistryRole.READ && kind != Kind.READ) {
                if (registration(method, path)) {
                    return new Decision(Optional.empty(), true, user);
                }
                return Decision.refuse(RegistryApi.error(403, FORBIDDEN_CODE,
                        "Forbidden: user " + user + " has role read (expected: admin for " + kind.name().toLowerCase() + ")"));
            }
        }
        if (kind == Kind.DELETE && !security.deletesEnabled()) {
            return Decision.refuse(RegistryApi.error(403, FORBIDDEN_CODE,
                    "Forbidden: deletes are disabled on this registry (registry.deletes.enable=false)"));
        }
        if (kind == Kind.CONFIG_CHANGE && !security.configChangesEnabled()) {
            return Decision.refuse(RegistryApi.error(403, FORBIDDEN_CODE,
                    "Forbidden: configuration changes are disabled on this registry (registry.config.changes.enable=false)"));
        }
        return Decision.allow(user);
    }

    static ApiResponse unauthorized(String authorization) {
        return RegistryApi.error(401, UNAUTHORIZED_CODE, authorization == null
                ? "Unauthorized: credentials required (HTTP basic)" : "Unauthorized: bad credentials");
    }

    /** {@code POST /subjects/<s>/versions}: the one write a read-only client may try, as a lookup. */
    static boolean registration(String method, List<String> path) {
        return method.equals("POST") && path.size() == 3 && path.get(0).equals("subjects") && path.get(2).equals("versions");
    }

    static Kind kindOf(String method, List<String> path) {
        boolean config = !path.isEmpty() && path.get(0).equals("config");
        return switch (method) {
            case "GET", "HEAD", "OPTIONS" -> Kind.READ;
            case "PUT" -> config ? Kind.CONFIG_CHANGE : Kind.REGISTER;
            case "DELETE" -> config ? Kind.CONFIG_CHANGE : Kind.DELETE;
            case "POST" -> {
                // POST /subjects/<s> is a lookup and POST /compatibility/... a test: reads. Registration is the only write.
                yield registration(method, path) ? Kind.REGISTER : Kind.READ;
            }
            default -> Kind.REGISTER;
        };
    }
}
