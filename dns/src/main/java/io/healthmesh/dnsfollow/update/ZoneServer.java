package io.healthmesh.dnsfollow.update;

import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.plan.RecordChange;
import io.healthmesh.dnsfollow.plan.ZoneRecords;

import java.util.List;

/**
 * What the reconciler asks of a zone's primary server: what a name holds now, and one update with changes to
 * names of one zone. {@link Rfc2136Server} is the real one.
 */
public interface ZoneServer {

    /** The address records the name holds now, for the name's types. */
    ZoneRecords read(NameMapping name) throws DnsUpdateException;

    /**
     * Applies the changes as one update, all or nothing.
     *
     * @param zone any row of the zone the changed names are in: its server, zone and key are used
     */
    void update(NameMapping zone, List<RecordChange> changes) throws DnsUpdateException;
}
