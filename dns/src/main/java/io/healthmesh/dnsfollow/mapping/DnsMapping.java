package io.healthmesh.dnsfollow.mapping;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static java.util.Objects.requireNonNull;

/**
 * A validated mapping file: the names to keep and the TSIG keys that sign their updates.
 *
 * @param names one row per name, in file order; no name appears twice
 * @param keys the keys by name
 */
public record DnsMapping(List<NameMapping> names, Map<String, TsigKey> keys) {

    public DnsMapping {
        names = List.copyOf(requireNonNull(names, "names"));
        keys = Map.copyOf(requireNonNull(keys, "keys"));
    }

    /** The groups some row follows. */
    public Set<String> groups() {
        Set<String> groups = new TreeSet<>();
        names.forEach(n -> groups.add(n.group()));
        return groups;
    }
}
