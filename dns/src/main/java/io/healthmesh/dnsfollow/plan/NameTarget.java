package io.healthmesh.dnsfollow.plan;

import io.healthmesh.dnsfollow.mapping.NameMapping;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What the followed state says one name should answer, before the "never empty" rule: the addresses of the group's
 * served members that the name's record types can hold.
 *
 * @param records the addresses; empty when the group is unknown, has no served member, or none with a usable address
 * @param groupKnown false while the followed state has no view of the group
 * @param viewKeptLast the group's view already kept its last served members (its own served set was empty)
 * @param hostNames served members left out because their address is a host name, not an IP literal
 * @param otherFamily served members left out because the name holds no record of their address's family
 */
public record NameTarget(NameMapping mapping, RecordSet records, boolean groupKnown, boolean viewKeptLast,
                         List<String> hostNames, List<String> otherFamily) {

    public NameTarget {
        requireNonNull(mapping, "mapping");
        requireNonNull(records, "records");
        hostNames = List.copyOf(hostNames);
        otherFamily = List.copyOf(otherFamily);
    }
}
