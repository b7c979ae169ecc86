package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.RecordType;

import java.net.InetAddress;

import static java.util.Objects.requireNonNull;

/**
 * One record to add to or delete from a name, as one RR of an RFC 2136 update. Both are idempotent on the server:
 * adding a record present changes nothing (except its RRset's TTL), deleting a record absent changes nothing.
 *
 * @param ttl the TTL an added record gets (unused for a delete)
 */
public record RecordChange(Op op, String name, RecordType type, InetAddress address, long ttl) {

    public enum Op { ADD, DELETE }

    public RecordChange {
        requireNonNull(op, "op");
        requireNonNull(name, "name");
        requireNonNull(type, "type");
        requireNonNull(address, "address");
    }

    @Override
    public String toString() {
        return op.name().toLowerCase(java.util.Locale.ROOT) + " " + name + " " + (op == Op.ADD ? ttl + " " : "")
                + type + " " + address.getHostAddress();
    }
}
