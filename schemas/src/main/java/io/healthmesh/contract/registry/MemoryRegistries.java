package io.healthmesh.contract.registry;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The in-process registries behind {@code mem://<scope>} URLs: one {@link SchemaRegistry} per scope
 * name, shared by every serde of this JVM that names the scope (so a test's serializer and
 * deserializer see the same ids). Tests pick a fresh scope name to start empty.
 */
public final class MemoryRegistries {

    /** The URL scheme that selects an in-process registry. */
    public static final String SCHEME = "mem://";

    private static final ConcurrentMap<String, SchemaRegistry> SCOPES = new ConcurrentHashMap<>();

    private MemoryRegistries() {
    }

    /** The registry of a scope, created empty on first use. */
    public static SchemaRegistry scope(String scope) {
        return SCOPES.computeIfAbsent(scope, s -> SchemaRegistry.inMemory());
    }

    /** Forgets a scope; the next use starts an empty registry. */
    public static void drop(String scope) {
        SCOPES.remove(scope);
    }

    /** True when a URL names an in-process registry. */
    public static boolean isMemoryUrl(String url) {
        return url != null && url.startsWith(SCHEME);
    }

    /** The scope named by a {@code mem://} URL (what follows the scheme, may be empty). */
    public static String scopeOf(String url) {
        return url.substring(SCHEME.length());
    }
}
