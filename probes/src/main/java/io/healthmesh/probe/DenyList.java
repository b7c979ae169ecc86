package io.healthmesh.probe;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Destinations the engine refuses to probe (SPEC section 9): whoever can write the config topic must not
 * turn probers into a proxy into the network. Checked on the resolved address, so that a name pointing at
 * a metadata service is caught too.
 */
final class DenyList {

    private final List<Cidr> blocks;

    DenyList(List<String> cidrs) {
        this.blocks = cidrs.stream().map(Cidr::parse).toList();
    }

    /** The block that denies {@code address}, if any. */
    Optional<Cidr> match(InetAddress address) {
        for (Cidr block : blocks) {
            if (block.contains(address)) {
                return Optional.of(block);
            }
        }
        return Optional.empty();
    }
}
