package io.healthmesh.ops;

import static java.util.Objects.requireNonNull;

/**
 * One setting a role accepts, declared once: its key, its default as documented (or {@code null} when it is
 * required or has none), the values it accepts and what it does. Each role lists its settings in one constant, and a
 * test per role checks that docs/CONFIGURATION.md documents every one of them with this default.
 *
 * @param key the key, as in a settings file ({@code HEALTHMESH_<KEY>} in the environment)
 * @param defaultValue the default as the docs show it, {@code null} for none
 * @param range the accepted values, as the docs and error messages show them
 * @param doc what the setting does
 */
public record Setting(String key, String defaultValue, String range, String doc) {

    public Setting {
        requireNonNull(key, "key");
        requireNonNull(range, "range");
        requireNonNull(doc, "doc");
    }
}
