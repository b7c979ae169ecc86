package io.healthmesh.xds.map;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Which cluster name a group is served under: its id, unless a mapping names another. A mapped name is never also
 * given to the group whose id it is: {@link #ownerOf} says which group holds a name, so that a group whose id
 * collides with another group's mapped name is left out (and logged) the same way on every replica.
 */
public final class ClusterNames {

    /** What Envoy and gRPC accept as a resource name without escaping, and no longer than the docs allow. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:/-]{1,255}");
    /** At most this many mappings: the file is read whole at start. */
    static final int MAX_ENTRIES = 100_000;

    private final Map<String, String> byGroup;
    private final Map<String, String> mappedOwners;

    private ClusterNames(Map<String, String> byGroup) {
        this.byGroup = Map.copyOf(byGroup);
        Map<String, String> owners = new HashMap<>();
        byGroup.forEach((group, name) -> owners.put(name, group));
        this.mappedOwners = Map.copyOf(owners);
    }

    /** Every group under its own id. */
    public static ClusterNames identity() {
        return new ClusterNames(Map.of());
    }

    /**
     * From {@code group.id=cluster-name} pairs; mapped names must differ from each other.
     *
     * @throws IllegalArgumentException listing every bad pair
     */
    public static ClusterNames of(Map<String, String> byGroup) {
        requireNonNull(byGroup, "byGroup");
        if (byGroup.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException("clusters.file: " + byGroup.size() + " entries (expected: at most "
                    + MAX_ENTRIES + ")");
        }
        Map<String, String> seen = new TreeMap<>();
        List<String> problems = new java.util.ArrayList<>();
        new TreeMap<>(byGroup).forEach((group, name) -> {
            if (!NAME.matcher(name).matches()) {
                problems.add("clusters.file: " + group + "=" + name + " (expected: a name of 1-255 of [A-Za-z0-9._:/-])");
            } else if (seen.containsKey(name)) {
                problems.add("clusters.file: " + group + "=" + name + " (expected: a name no other group has; "
                        + seen.get(name) + " has it)");
            }
            seen.putIfAbsent(name, group);
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new ClusterNames(byGroup);
    }

    /**
     * Reads a properties file of {@code group.id=cluster-name} lines.
     *
     * @throws IllegalArgumentException naming the file when it cannot be read or holds a bad pair
     */
    public static ClusterNames load(Path file) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("clusters.file: " + file + " cannot be read (" + e.getClass().getSimpleName()
                    + ")", e);
        }
        Map<String, String> pairs = new TreeMap<>();
        props.stringPropertyNames().forEach(k -> pairs.put(k.trim(), props.getProperty(k).trim()));
        return of(pairs);
    }

    /** The cluster name of {@code groupId}. */
    public String nameOf(String groupId) {
        return byGroup.getOrDefault(groupId, groupId);
    }

    /** The group that may serve under {@code clusterName}: the group mapped to it, else the group of that id. */
    public String ownerOf(String clusterName) {
        return mappedOwners.getOrDefault(clusterName, clusterName);
    }

    /** How many groups are mapped to another name. */
    public int size() {
        return byGroup.size();
    }
}
