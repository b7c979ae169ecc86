package io.healthmesh.dnsfollow.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.ops.file.RoleFile;
import org.xbill.DNS.Name;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.TextParseException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Reads and validates the DNS mapping file (YAML, or JSON, which YAML reads too): which group each name follows,
 * in which zone, at which server, signed with which TSIG key. Unknown fields are refused, defaults applied, and
 * every problem is reported at once as {@code records[i].field: value (expected: ...)}. Each key's secret is read
 * from its own file (a path relative to the mapping file's directory, or absolute), never from the mapping itself.
 * The format is in docs/CONFIGURATION.md, "DNS mapping file".
 */
public final class MappingFile {

    public static final int MAX_RECORDS = 1000;
    public static final int MAX_KEYS = 100;
    public static final long DEFAULT_TTL = 30;
    public static final long MAX_TTL = 86_400;
    public static final String DEFAULT_ALGORITHM = "hmac-sha256";
    static final List<String> ALGORITHMS =
            List.of("hmac-sha256", "hmac-sha384", "hmac-sha512", "hmac-sha224", "hmac-sha1", "hmac-md5");

    private static final Set<String> TOP_FIELDS = Set.of("keys", "records");
    private static final Set<String> KEY_FIELDS = Set.of("name", "algorithm", "secretFile");
    private static final Set<String> RECORD_FIELDS = Set.of("group", "zone", "name", "types", "ttl", "server", "key");

    private final Path baseDir;
    private final RoleFile doc = new RoleFile("mapping file");

    private MappingFile(Path baseDir) {
        this.baseDir = baseDir;
    }

    /**
     * Reads a mapping file and the secrets its keys name.
     *
     * @throws IllegalArgumentException when the file is missing, unreadable or invalid, listing every problem
     */
    public static DnsMapping load(Path file) {
        String text = RoleFile.readText(file, "mapping.file", "mapping file");
        Path dir = file.toAbsolutePath().getParent();
        return parse(text, dir == null ? Path.of(".") : dir);
    }

    /**
     * Parses mapping text; relative {@code secretFile}s are read from {@code baseDir}.
     *
     * @throws IllegalArgumentException listing every problem, separated by {@code "; "}
     */
    public static DnsMapping parse(String text, Path baseDir) {
        JsonNode root = RoleFile.parse(text, "mapping file");
        MappingFile reader = new MappingFile(requireNonNull(baseDir, "baseDir"));
        DnsMapping mapping = reader.mapping(root);
        reader.doc.requireValid();
        return mapping;
    }

    private DnsMapping mapping(JsonNode root) {
        if (root == null || !root.isObject()) {
            doc.problem("mapping file: " + RoleFile.shown(root) + " (expected: a mapping with keys and records lists)");
            return null;
        }
        doc.unknownFields(root, TOP_FIELDS, "");
        Map<String, TsigKey> keys = keys(root.get("keys"));
        JsonNode list = root.get("records");
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > MAX_RECORDS) {
            doc.problem("records: " + RoleFile.shown(list) + " (expected: a list of 1.." + MAX_RECORDS + " records)");
            return null;
        }
        List<NameMapping> names = new ArrayList<>();
        Map<String, String> seen = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "records[" + i + "]";
            NameMapping row = record(list.get(i), at, keys);
            if (row != null) {
                String first = seen.putIfAbsent(row.name(), at);
                if (first != null) {
                    doc.problem(at + ".name: " + row.name() + " (expected: a name no other record has; " + first
                            + " has it)");
                } else {
                    names.add(row);
                }
            }
        }
        return new DnsMapping(names, keys);
    }

    private Map<String, TsigKey> keys(JsonNode list) {
        Map<String, TsigKey> keys = new LinkedHashMap<>();
        if (list == null || !list.isArray() || list.isEmpty() || list.size() > MAX_KEYS) {
            doc.problem("keys: " + RoleFile.shown(list) + " (expected: a list of 1.." + MAX_KEYS + " TSIG keys)");
            return keys;
        }
        for (int i = 0; i < list.size(); i++) {
            String at = "keys[" + i + "]";
            JsonNode node = list.get(i);
            if (!node.isObject()) {
                doc.problem(at + ": " + RoleFile.shown(node) + " (expected: a mapping with name, algorithm and secretFile)");
                continue;
            }
            doc.unknownFields(node, KEY_FIELDS, at + ".");
            Name name = name(doc.text(node, "name", at, null), null, at + ".name");
            String algorithm = doc.text(node, "algorithm", at, DEFAULT_ALGORITHM).toLowerCase(Locale.ROOT);
            if (!ALGORITHMS.contains(algorithm)) {
                doc.problem(at + ".algorithm: " + algorithm + " (expected: one of " + ALGORITHMS + ")");
                continue;
            }
            String file = doc.text(node, "secretFile", at, null);
            if (name == null || file == null) {
                continue;
            }
            String keyName = name.canonicalize().toString();
            if (keys.containsKey(keyName)) {
                doc.problem(at + ".name: " + keyName + " (expected: a key name no other key has)");
                continue;
            }
            Path path = baseDir.resolve(file);
            try {
                TSIG.algorithmToName(algorithm);
                keys.put(keyName, new TsigKey(keyName, algorithm, path, SecretFile.read(path, algorithm,
                        at + ".secretFile")));
            } catch (IllegalArgumentException e) {
                doc.problem(e.getMessage());
            }
        }
        return keys;
    }

    private NameMapping record(JsonNode node, String at, Map<String, TsigKey> keys) {
        if (!node.isObject()) {
            doc.problem(at + ": " + RoleFile.shown(node) + " (expected: a mapping with group, zone, name, server and key)");
            return null;
        }
        int before = doc.problems().size();
        doc.unknownFields(node, RECORD_FIELDS, at + ".");
        String group = doc.text(node, "group", at, null);
        Name zone = name(doc.text(node, "zone", at, null), null, at + ".zone");
        String nameText = doc.text(node, "name", at, null);
        Name name = zone == null ? null : name(nameText, zone, at + ".name");
        if (name != null && !name.subdomain(zone)) {
            doc.problem(at + ".name: " + nameText + " (expected: a name in zone " + zone.canonicalize()
                    + ", relative to it or absolute)");
        }
        Set<RecordType> types = types(node.get("types"), at + ".types");
        long ttl = ttl(node.get("ttl"), at + ".ttl");
        String serverText = doc.text(node, "server", at, null);
        ServerAddress server = serverText == null ? null : ServerAddress.parse(serverText);
        if (serverText != null && server == null) {
            doc.problem(at + ".server: " + serverText + " (expected: host, host:port or [IPv6]:port; port 1..65535)");
        }
        TsigKey key = null;
        String keyText = doc.text(node, "key", at, null);
        if (keyText != null) {
            Name keyName = name(keyText, null, at + ".key");
            key = keyName == null ? null : keys.get(keyName.canonicalize().toString());
            if (keyName != null && key == null && doc.problems().stream().noneMatch(p -> p.startsWith("keys"))) {
                doc.problem(at + ".key: " + keyText + " (expected: the name of a key in keys " + keys.keySet() + ")");
            }
        }
        if (doc.problems().size() > before || group == null || name == null || types == null || server == null
                || key == null) {
            return null;
        }
        return new NameMapping(group, zone.canonicalize().toString(), name.canonicalize().toString(), ttl, types,
                server, key);
    }

    private Name name(String text, Name origin, String at) {
        if (text == null) {
            return null;
        }
        try {
            String absolute = origin == null && !text.endsWith(".") ? text + "." : text;
            Name name = Name.fromString(absolute, origin);
            if (!name.isAbsolute()) {
                throw new TextParseException("not absolute");
            }
            return name;
        } catch (TextParseException e) {
            doc.problem(at + ": " + text + " (expected: a domain name" + (origin == null ? ""
                    : ", relative to the zone, @ for its apex, or absolute with a trailing dot") + ")");
            return null;
        }
    }

    private Set<RecordType> types(JsonNode node, String at) {
        if (node == null || node.isNull()) {
            return EnumSet.allOf(RecordType.class);
        }
        List<JsonNode> items = new ArrayList<>();
        if (node.isArray()) {
            node.forEach(items::add);
        } else {
            items.add(node);
        }
        Set<RecordType> types = EnumSet.noneOf(RecordType.class);
        for (JsonNode item : items) {
            String t = item.isValueNode() ? item.asText().trim().toUpperCase(Locale.ROOT) : "";
            if (t.equals("A") || t.equals("AAAA")) {
                types.add(RecordType.valueOf(t));
            } else {
                doc.problem(at + ": " + RoleFile.shown(node) + " (expected: A, AAAA or [A, AAAA])");
                return null;
            }
        }
        if (types.isEmpty()) {
            doc.problem(at + ": [] (expected: A, AAAA or [A, AAAA])");
            return null;
        }
        return types;
    }

    private long ttl(JsonNode node, String at) {
        if (node == null || node.isNull()) {
            return DEFAULT_TTL;
        }
        if (node.canConvertToLong() && node.isIntegralNumber() && node.asLong() >= 0 && node.asLong() <= MAX_TTL) {
            return node.asLong();
        }
        doc.problem(at + ": " + RoleFile.shown(node) + " (expected: seconds, 0.." + MAX_TTL + ")");
        return DEFAULT_TTL;
    }
}
