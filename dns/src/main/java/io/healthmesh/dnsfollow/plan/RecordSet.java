package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.RecordType;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The addresses a name holds (or should hold), per record type, each set in address order so that two equal sets
 * compare and print the same.
 */
public final class RecordSet {

    /** Orders addresses by their bytes (IPv4 before IPv6, being shorter). */
    public static final Comparator<InetAddress> ORDER = (a, b) -> {
        byte[] x = a.getAddress();
        byte[] y = b.getAddress();
        return x.length != y.length ? Integer.compare(x.length, y.length) : Arrays.compareUnsigned(x, y);
    };

    public static final RecordSet EMPTY = new RecordSet(new EnumMap<>(RecordType.class));
    private static final SortedSet<InetAddress> NONE = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(ORDER));

    private final Map<RecordType, SortedSet<InetAddress>> byType;

    private RecordSet(EnumMap<RecordType, SortedSet<InetAddress>> byType) {
        this.byType = byType;
    }

    /** The addresses, each filed under its family's type. */
    public static RecordSet of(Collection<InetAddress> addresses) {
        EnumMap<RecordType, SortedSet<InetAddress>> byType = new EnumMap<>(RecordType.class);
        for (InetAddress a : addresses) {
            byType.computeIfAbsent(RecordType.of(a), t -> new TreeSet<>(ORDER)).add(a);
        }
        byType.replaceAll((t, s) -> java.util.Collections.unmodifiableSortedSet(s));
        return new RecordSet(byType);
    }

    /** The addresses of one type, in {@link #ORDER}. */
    public SortedSet<InetAddress> addresses(RecordType type) {
        SortedSet<InetAddress> s = byType.get(type);
        return s == null ? NONE : s;
    }

    /** Only the types listed. */
    public RecordSet only(Set<RecordType> types) {
        EnumMap<RecordType, SortedSet<InetAddress>> kept = new EnumMap<>(RecordType.class);
        byType.forEach((t, s) -> {
            if (types.contains(t)) {
                kept.put(t, s);
            }
        });
        return new RecordSet(kept);
    }

    public boolean isEmpty() {
        return byType.values().stream().allMatch(Set::isEmpty);
    }

    /** How many addresses, over every type. */
    public int size() {
        return byType.values().stream().mapToInt(Set::size).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordSet r && normalised().equals(r.normalised());
    }

    private Map<RecordType, SortedSet<InetAddress>> normalised() {
        Map<RecordType, SortedSet<InetAddress>> m = new EnumMap<>(RecordType.class);
        byType.forEach((t, s) -> {
            if (!s.isEmpty()) {
                m.put(t, s);
            }
        });
        return m;
    }

    @Override
    public int hashCode() {
        return normalised().hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (RecordType t : RecordType.values()) {
            for (InetAddress a : addresses(t)) {
                b.append(b.length() > 1 ? ", " : "").append(t).append(' ').append(a.getHostAddress());
            }
        }
        return b.append('}').toString();
    }
}
