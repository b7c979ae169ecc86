package io.healthmesh.dnsfollow.mapping;

import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One row of the mapping file: the DNS name that answers the served members of a group.
 *
 * @param group the group whose served members the name answers
 * @param zone the zone the name is updated in, absolute (trailing dot), lower case
 * @param name the name, absolute, lower case, equal to or under {@code zone}
 * @param ttlSeconds the TTL of the records written
 * @param types which address families the name holds: {@code A} (IPv4 members), {@code AAAA} (IPv6 members) or both
 * @param server the zone's primary server, which takes the updates
 * @param key the TSIG key the updates are signed with
 */
public record NameMapping(String group, String zone, String name, long ttlSeconds, Set<RecordType> types,
                          ServerAddress server, TsigKey key) {

    public NameMapping {
        requireNonNull(group, "group");
        requireNonNull(zone, "zone");
        requireNonNull(name, "name");
        types = Set.copyOf(types);
        if (types.isEmpty()) {
            throw new IllegalArgumentException("types: empty (expected: A, AAAA or both)");
        }
        requireNonNull(server, "server");
        requireNonNull(key, "key");
    }

    /** Rows that go in one update message: same server, zone and key. */
    public record ZoneRef(ServerAddress server, String zone, String keyName) {

        @Override
        public String toString() {
            return zone + " at " + server;
        }
    }

    public ZoneRef zoneRef() {
        return new ZoneRef(server, zone, key.name());
    }
}
