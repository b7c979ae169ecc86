package io.healthmesh.contract.registry;

import io.healthmesh.contract.registry.RegistryRecord.Config;
import io.healthmesh.contract.registry.RegistryRecord.SchemaVersion;
import io.healthmesh.contract.registry.RegistryRecord.SchemaVersionRemoved;
import org.apache.avro.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * The registry's logic, with Confluent's semantics: subjects hold numbered versions of Avro
 * schemas; a schema (compared by its canonical text, Avro's JSON form of the parsed schema) has one
 * global id, ids start at 1 and grow; registering a schema a subject already holds returns its id
 * without a new version. A new version must be compatible with the subject's level (global default
 * {@code BACKWARD}). Deletion is soft first (the version disappears from listings but its id still
 * resolves), permanent only for what was soft-deleted.
 *
 * <p>Thread-safe: every operation holds one lock, and writes reach the {@link RegistryLog} before
 * the state changes, so concurrent registrations of one schema yield one id.
 */
public final class SchemaRegistry {

    /** A subject version as held in memory. */
    private record Version(int number, int id, String schema, boolean deleted) {
    }

    private final RegistryLog log;
    private final Object lock = new Object();
    private final Map<String, TreeMap<Integer, Version>> subjects = new HashMap<>();
    private final Map<Integer, String> schemasById = new HashMap<>();
    private final Map<String, Integer> idsBySchema = new HashMap<>();
    private final Map<Integer, Schema> parsedById = new HashMap<>();
    private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
    private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
    private int maxId;

    private SchemaRegistry(RegistryLog log) {
        this.log = log;
    }

    /** Opens a registry on a log, replaying what the log already holds. */
    public static SchemaRegistry open(RegistryLog log) {
        requireNonNull(log, "log");
        SchemaRegistry registry = new SchemaRegistry(log);
        synchronized (registry.lock) {
            for (RegistryRecord record : log.replay()) {
                registry.apply(record);
            }
        }
        return registry;
    }

    /** A registry kept in memory only. */
    public static SchemaRegistry inMemory() {
        return open(new InMemoryRegistryLog());
    }

    /**
     * Parses a schema with Avro's parser (a fresh one per call: the parser remembers names).
     *
     * @throws RegistryException 42201 when the text is not a valid Avro schema
     */
    public static Schema parse(String schemaText) {
        if (schemaText == null || schemaText.isBlank()) {
            throw RegistryException.invalidSchema("empty schema");
        }
        try {
            return new Schema.Parser().parse(schemaText);
        } catch (RuntimeException e) {
            throw RegistryException.invalidSchema(e.getMessage());
        }
    }

    /**
     * Registers a schema under a subject (POST /subjects/{s}/versions).
     *
     * @return the schema's global id
     * @throws RegistryException 42201 invalid schema, 409 incompatible with the subject's level
     */
    public int register(String subject, String schemaText) {
        requireSubject(subject);
        Schema schema = parse(schemaText);
        String canonical = schema.toString();
        synchronized (lock) {
            TreeMap<Integer, Version> versions = subjects.get(subject);
            if (versions != null) {
                for (Version version : versions.values()) {
                    if (!version.deleted() && version.schema().equals(canonical)) {
                        return version.id();
                    }
                }
            }
            List<String> problems = effectiveLevel(subject).check(schema, liveSchemas(subject));
            if (!problems.isEmpty()) {
                throw RegistryException.incompatible(subject, problems);
            }
            int id = idsBySchema.getOrDefault(canonical, maxId + 1);
            int number = versions == null || versions.isEmpty() ? 1 : versions.lastKey() + 1;
            write(new SchemaVersion(subject, number, id, canonical, false));
            return id;
        }
    }

    /**
     * Finds the version of a subject that holds a schema (POST /subjects/{s}).
     *
     * @throws RegistryException 40401 no such subject, 40403 the subject does not hold the schema, 42201 invalid schema
     */
    public RegisteredSchema lookup(String subject, String schemaText, boolean includeDeleted) {
        String canonical = parse(schemaText).toString();
        synchronized (lock) {
            TreeMap<Integer, Version> versions = existingSubject(subject, includeDeleted);
            for (Version version : versions.values()) {
                if ((includeDeleted || !version.deleted()) && version.schema().equals(canonical)) {
                    return new RegisteredSchema(subject, version.number(), version.id(), version.schema());
                }
            }
            throw RegistryException.schemaNotInSubject(subject);
        }
    }

    /**
     * The schema text with a global id (GET /schemas/ids/{id}); soft-deleted versions still resolve.
     *
     * @throws RegistryException 40403
     */
    public String schemaById(int id) {
        synchronized (lock) {
            String schema = schemasById.get(id);
            if (schema == null) {
                throw RegistryException.schemaNotFound(id);
            }
            return schema;
        }
    }

    /** Subject names, sorted; soft-deleted subjects only when asked. */
    public List<String> subjects(boolean includeDeleted) {
        synchronized (lock) {
            TreeSet<String> names = new TreeSet<>();
            subjects.forEach((name, versions) -> {
                if (versions.values().stream().anyMatch(v -> includeDeleted || !v.deleted())) {
                    names.add(name);
                }
            });
            return List.copyOf(names);
        }
    }

    /**
     * Version numbers of a subject, ascending.
     *
     * @throws RegistryException 40401 when the subject has no (live) version
     */
    public List<Integer> versions(String subject, boolean includeDeleted) {
        synchronized (lock) {
            List<Integer> numbers = new ArrayList<>();
            for (Version version : existingSubject(subject, includeDeleted).values()) {
                if (includeDeleted || !version.deleted()) {
                    numbers.add(version.number());
                }
            }
            return numbers;
        }
    }

    /**
     * One version of a subject (GET /subjects/{s}/versions/{v}); {@code version} is a number,
     * {@code latest} or {@code -1}.
     *
     * @throws RegistryException 40401, 40402, 42202
     */
    public RegisteredSchema version(String subject, String version, boolean includeDeleted) {
        synchronized (lock) {
            Version found = resolve(subject, version, includeDeleted);
            return new RegisteredSchema(subject, found.number(), found.id(), found.schema());
        }
    }

    /**
     * Deletes every version of a subject (DELETE /subjects/{s}): soft, or permanent for a subject
     * already soft-deleted.
     *
     * @return the version numbers deleted
     * @throws RegistryException 40401, 40404 (already soft-deleted), 40405 (permanent before soft)
     */
    public List<Integer> deleteSubject(String subject, boolean permanent) {
        synchronized (lock) {
            TreeMap<Integer, Version> versions = subjects.get(subject);
            if (versions == null || versions.isEmpty()) {
                throw RegistryException.subjectNotFound(subject);
            }
            boolean anyLive = versions.values().stream().anyMatch(v -> !v.deleted());
            List<Integer> deleted = new ArrayList<>(versions.keySet());
            if (permanent) {
                if (anyLive) {
                    throw RegistryException.subjectNotSoftDeleted(subject);
                }
                for (Integer number : deleted) {
                    write(new SchemaVersionRemoved(subject, number));
                }
                if (subjectLevels.containsKey(subject)) {
                    write(new Config(subject, null));
                }
                return deleted;
            }
            if (!anyLive) {
                throw RegistryException.subjectSoftDeleted(subject);
            }
            deleted.clear();
            for (Version version : List.copyOf(versions.values())) {
                if (!version.deleted()) {
                    write(new SchemaVersion(subject, version.number(), version.id(), version.schema(), true));
                    deleted.add(version.number());
                }
            }
            return deleted;
        }
    }

    /**
     * Deletes one version (DELETE /subjects/{s}/versions/{v}): soft, or permanent for a version
     * already soft-deleted.
     *
     * @return the version number deleted
     * @throws RegistryException 40401, 40402, 40406 (already soft-deleted), 40407 (permanent before soft), 42202
     */
    public int deleteVersion(String subject, String version, boolean permanent) {
        synchronized (lock) {
            // a numbered version is found even when soft-deleted, so that deleting it again says so
            Version found = resolve(subject, version, permanent || !isLatest(version));
            if (permanent) {
                if (!found.deleted()) {
                    throw RegistryException.versionNotSoftDeleted(subject, found.number());
                }
                write(new SchemaVersionRemoved(subject, found.number()));
            } else {
                if (found.deleted()) {
                    throw RegistryException.versionSoftDeleted(subject, found.number());
                }
                write(new SchemaVersion(subject, found.number(), found.id(), found.schema(), true));
            }
            return found.number();
        }
    }

    /**
     * Tests a schema against a subject (POST /compatibility/subjects/{s}/versions[/{v}]).
     * With {@code version} null the subject's level decides which versions count (all live ones
     * for the transitive levels); otherwise the one version named ({@code latest} with no
     * version at all is compatible, as in Confluent).
     *
     * @return the incompatibilities; empty when compatible
     * @throws RegistryException 40401, 40402, 42201, 42202
     */
    public List<String> testCompatibility(String subject, String version, String schemaText) {
        Schema schema = parse(schemaText);
        synchronized (lock) {
            CompatibilityLevel level = effectiveLevel(subject);
            if (version == null) {
                return level.check(schema, liveSchemas(subject));
            }
            if (isLatest(version) && liveSchemas(subject).isEmpty()) {
                return List.of();
            }
            Version against = resolve(subject, version, false);
            return level.checkAgainst(schema, List.of(parsed(against)));
        }
    }

    /** The global compatibility level (GET /config). */
    public CompatibilityLevel globalLevel() {
        synchronized (lock) {
            return globalLevel;
        }
    }

    /** Sets the global level (PUT /config). */
    public void setGlobalLevel(CompatibilityLevel level) {
        requireNonNull(level, "level");
        synchronized (lock) {
            write(new Config(null, level));
        }
    }

    /**
     * A subject's own level (GET /config/{s}); with {@code defaultToGlobal}, the global level when
     * the subject has none.
     *
     * @throws RegistryException 40408 when the subject has no level of its own and no fallback was asked
     */
    public CompatibilityLevel subjectLevel(String subject, boolean defaultToGlobal) {
        synchronized (lock) {
            CompatibilityLevel level = subjectLevels.get(subject);
            if (level != null) {
                return level;
            }
            if (defaultToGlobal) {
                return globalLevel;
            }
            throw RegistryException.subjectLevelNotConfigured(subject);
        }
    }

    /** Sets a subject's own level (PUT /config/{s}). */
    public void setSubjectLevel(String subject, CompatibilityLevel level) {
        requireSubject(subject);
        requireNonNull(level, "level");
        synchronized (lock) {
            write(new Config(subject, level));
        }
    }

    /**
     * Removes a subject's own level (DELETE /config/{s}).
     *
     * @return the level it had
     * @throws RegistryException 40408 when it had none
     */
    public CompatibilityLevel deleteSubjectLevel(String subject) {
        synchronized (lock) {
            CompatibilityLevel level = subjectLevel(subject, false);
            write(new Config(subject, null));
            return level;
        }
    }

    private void write(RegistryRecord record) {
        log.append(record);
        apply(record);
    }

    private void apply(RegistryRecord record) {
        if (record instanceof SchemaVersion v) {
            String schema = canonical(v.schema());
            subjects.computeIfAbsent(v.subject(), s -> new TreeMap<>())
                    .put(v.version(), new Version(v.version(), v.id(), schema, v.deleted()));
            schemasById.putIfAbsent(v.id(), schema);
            idsBySchema.putIfAbsent(schema, v.id());
            maxId = Math.max(maxId, v.id());
        } else if (record instanceof SchemaVersionRemoved removed) {
            TreeMap<Integer, Version> versions = subjects.get(removed.subject());
            Version gone = versions == null ? null : versions.remove(removed.version());
            if (versions != null && versions.isEmpty()) {
                subjects.remove(removed.subject());
            }
            if (gone != null && !idStillUsed(gone.id())) {
                schemasById.remove(gone.id());
                idsBySchema.remove(gone.schema());
                parsedById.remove(gone.id());
            }
        } else if (record instanceof Config config) {
            if (config.subject() == null) {
                globalLevel = config.level() == null ? CompatibilityLevel.BACKWARD : config.level();
            } else if (config.level() == null) {
                subjectLevels.remove(config.subject());
            } else {
                subjectLevels.put(config.subject(), config.level());
            }
        }
    }

    /**
     * The canonical text of a logged schema: this registry logs canonical text already, but a topic
     * written by another registry (Confluent's) may hold the text as it was sent.
     */
    private static String canonical(String logged) {
        try {
            return new Schema.Parser().parse(logged).toString();
        } catch (RuntimeException e) {
            return logged;
        }
    }

    private boolean idStillUsed(int id) {
        return subjects.values().stream().flatMap(v -> v.values().stream()).anyMatch(v -> v.id() == id);
    }

    private CompatibilityLevel effectiveLevel(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }

    private List<Schema> liveSchemas(String subject) {
        TreeMap<Integer, Version> versions = subjects.get(subject);
        if (versions == null) {
            return List.of();
        }
        List<Schema> live = new ArrayList<>();
        for (Version version : versions.values()) {
            if (!version.deleted()) {
                live.add(parsed(version));
            }
        }
        return live;
    }

    private Schema parsed(Version version) {
        return parsedById.computeIfAbsent(version.id(), id -> parse(version.schema()));
    }

    private TreeMap<Integer, Version> existingSubject(String subject, boolean includeDeleted) {
        TreeMap<Integer, Version> versions = subjects.get(subject);
        if (versions == null || versions.values().stream().noneMatch(v -> includeDeleted || !v.deleted())) {
            throw RegistryException.subjectNotFound(subject);
        }
        return versions;
    }

    private Version resolve(String subject, String version, boolean includeDeleted) {
        Optional<Integer> number = parseVersion(version);
        TreeMap<Integer, Version> versions = existingSubject(subject, includeDeleted);
        if (number.isEmpty()) {
            for (Version candidate : versions.descendingMap().values()) {
                if (includeDeleted || !candidate.deleted()) {
                    return candidate;
                }
            }
            throw RegistryException.subjectNotFound(subject);
        }
        Version found = versions.get(number.get());
        if (found == null || (found.deleted() && !includeDeleted)) {
            throw RegistryException.versionNotFound(subject, number.get());
        }
        return found;
    }

    /** A version number, or empty for {@code latest} / {@code -1}. */
    private static Optional<Integer> parseVersion(String version) {
        if (isLatest(version)) {
            return Optional.empty();
        }
        try {
            int number = Integer.parseInt(version);
            if (number >= 1) {
                return Optional.of(number);
            }
        } catch (NumberFormatException e) {
            // reported below with the registry's own code
        }
        throw RegistryException.invalidVersion(version);
    }

    private static boolean isLatest(String version) {
        return "latest".equals(version) || "-1".equals(version);
    }

    private static void requireSubject(String subject) {
        if (subject == null || subject.isBlank() || subject.chars().anyMatch(Character::isISOControl)) {
            throw new RegistryException(RegistryException.INVALID_SUBJECT,
                    "Invalid subject: '" + subject + "' (expected: a non-blank name without control characters)");
        }
    }
}
