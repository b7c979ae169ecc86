package io.healthmesh.registry;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The registry's users: name, role and password, checked against an HTTP basic {@code Authorization} header.
 * One entry reads {@code name:role:password} (role {@code read} or {@code admin}; the password is everything
 * after the second colon); a users file holds one entry per line ({@code #} starts a comment), the inline form
 * separates entries with commas. Passwords are kept as SHA-256 digests and compared in constant time.
 */
public final class RegistryUsers {

    /** One authenticated user. */
    public record User(String name, RegistryRole role) {
    }

    private record Entry(User user, byte[] digest) {
    }

    private final Map<String, Entry> users;

    private RegistryUsers(Map<String, Entry> users) {
        this.users = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(users));
    }

    /** No users: nobody authenticates. */
    public static RegistryUsers none() {
        return new RegistryUsers(Map.of());
    }

    /**
     * Parses entries, one per element.
     *
     * @param origin where the entries come from, for the error messages (never the entry itself: it holds a password)
     * @throws IllegalArgumentException naming the entry's position when one is malformed or a name repeats
     */
    public static RegistryUsers parse(List<String> entries, String origin) {
        Map<String, Entry> users = new LinkedHashMap<>();
        int position = 0;
        for (String raw : entries) {
            position++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int first = line.indexOf(':');
            int second = first < 0 ? -1 : line.indexOf(':', first + 1);
            if (first <= 0 || second < 0 || second == line.length() - 1) {
                throw new IllegalArgumentException(origin + " entry " + position
                        + ": malformed (expected: name:role:password)");
            }
            String name = line.substring(0, first);
            String roleText = line.substring(first + 1, second).strip().toUpperCase(Locale.ROOT);
            RegistryRole role;
            try {
                role = RegistryRole.valueOf(roleText);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(origin + " entry " + position + ": role " + roleText.toLowerCase(Locale.ROOT)
                        + " (expected: read or admin)");
            }
            if (!name.matches("[A-Za-z0-9._@-]{1,128}")) {
                throw new IllegalArgumentException(origin + " entry " + position + ": name " + name
                        + " (expected: 1-128 of [A-Za-z0-9._@-])");
            }
            if (users.put(name, new Entry(new User(name, role), digest(line.substring(second + 1)))) != null) {
                throw new IllegalArgumentException(origin + " entry " + position + ": user " + name + " given twice");
            }
        }
        return new RegistryUsers(users);
    }

    /** Parses the comma-separated inline form. */
    public static RegistryUsers parseInline(String inline, String origin) {
        return parse(List.of(requireNonNull(inline, "inline").split(",")), origin);
    }

    /** These users and {@code other}'s; a name in both is an error. */
    public RegistryUsers and(RegistryUsers other) {
        Map<String, Entry> all = new LinkedHashMap<>(users);
        for (Map.Entry<String, Entry> e : other.users.entrySet()) {
            if (all.put(e.getKey(), e.getValue()) != null) {
                throw new IllegalArgumentException("registry users: user " + e.getKey() + " given twice");
            }
        }
        return new RegistryUsers(all);
    }

    public boolean isEmpty() {
        return users.isEmpty();
    }

    public int size() {
        return users.size();
    }

    /** The names and roles, never the passwords. */
    public List<User> list() {
        List<User> list = new ArrayList<>();
        users.values().forEach(e -> list.add(e.user()));
        return list;
    }

    /**
     * The user an {@code Authorization: Basic ...} header proves, or empty when the header is absent, not basic,
     * malformed, names an unknown user or carries a wrong password. Every known user costs the same time.
     */
    public Optional<User> authenticate(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(authorizationHeader.substring(6).strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            return Optional.empty();
        }
        Entry entry = users.get(decoded.substring(0, colon));
        byte[] given = digest(decoded.substring(colon + 1));
        if (entry == null) {
            return Optional.empty();
        }
        return MessageDigest.isEqual(entry.digest(), given) ? Optional.of(entry.user()) : Optional.empty();
    }

    private static byte[] digest(String password) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "RegistryUsers" + list();
    }
}
