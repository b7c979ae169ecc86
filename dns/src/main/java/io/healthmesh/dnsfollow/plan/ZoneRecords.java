package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.RecordType;

import java.util.EnumMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What the zone's primary answered for a name: its address records and each RRset's TTL.
 *
 * @param ttls the TTL of each type's RRset that exists
 */
public record ZoneRecords(RecordSet records, Map<RecordType, Long> ttls) {

    public static final ZoneRecords NONE = new ZoneRecords(RecordSet.EMPTY, Map.of());

    public ZoneRecords {
        requireNonNull(records, "records");
        ttls = ttls.isEmpty() ? Map.of() : new EnumMap<>(ttls);
    }
}
