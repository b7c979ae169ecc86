package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.RecordType;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The changes that turn what a name holds into what it should hold, over the types the name manages (records of
 * other types, and of a managed type's family not listed, are left alone). Additions come first, so that taking a
 * prefix of the changes (the change budget) never leaves the name with fewer of its target's addresses than
 * before: a name shrinks only once its new members are in.
 * <p>
 * A TTL that differs from the mapping's is repaired by adding the name's addresses of that type again with the new
 * TTL (the server gives the whole RRset the TTL of the record last added).
 */
public final class RecordDiff {

    private final List<RecordChange> changes;

    private RecordDiff(List<RecordChange> changes) {
        this.changes = List.copyOf(changes);
    }

    /**
     * @param name the absolute name
     * @param types the record types the name manages
     * @param ttl the TTL the records should have
     */
    public static RecordDiff between(String name, Set<RecordType> types, long ttl, ZoneRecords current,
                                     RecordSet desired) {
        List<RecordChange> adds = new ArrayList<>();
        List<RecordChange> deletes = new ArrayList<>();
        for (RecordType type : RecordType.values()) {
            if (!types.contains(type)) {
                continue;
            }
            Set<InetAddress> have = current.records().addresses(type);
            Set<InetAddress> want = desired.addresses(type);
            Long ttlNow = current.ttls().get(type);
            boolean ttlWrong = !have.isEmpty() && ttlNow != null && ttlNow != ttl;
            for (InetAddress a : want) {
                if (ttlWrong || !have.contains(a)) {
                    adds.add(new RecordChange(RecordChange.Op.ADD, name, type, a, ttl));
                }
            }
            for (InetAddress a : have) {
                if (!want.contains(a)) {
                    deletes.add(new RecordChange(RecordChange.Op.DELETE, name, type, a, ttl));
                }
            }
        }
        List<RecordChange> all = new ArrayList<>(adds);
        all.addAll(deletes);
        return new RecordDiff(all);
    }

    /** Additions first, then deletions. */
    public List<RecordChange> changes() {
        return changes;
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    public int size() {
        return changes.size();
    }
}
