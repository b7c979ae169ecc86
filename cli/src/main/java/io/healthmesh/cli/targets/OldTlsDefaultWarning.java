package io.healthmesh.cli.targets;

import io.healthmesh.contract.target.TargetSpecs;
import io.healthmesh.core.target.TlsVerification;
import io.healthmesh.schema.TargetDefinition;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The warning {@code targets apply} and {@code targets list} print about stored GENERIC HTTPS definitions that were
 * written before HTTPS verified certificates by default ({@link TlsVerification#OFF_BY_OLD_DEFAULT}): they are still
 * probed without verification, and the operator should apply them again (verified) or say
 * {@code tls.insecureSkipVerify}. At most {@value #MAX_IDS} ids are named; the count says how many there are.
 */
final class OldTlsDefaultWarning {

    static final int MAX_IDS = 10;

    private OldTlsDefaultWarning() {
    }

    /** The warning about {@code stored}, leaving out the ids in {@code replaced}; empty when none is affected. */
    static Optional<String> about(Collection<TargetDefinition> stored, Set<String> replaced) {
        List<String> ids = stored.stream()
                .filter(d -> !replaced.contains(d.getId()))
                .filter(d -> TargetSpecs.tlsVerification(d) == TlsVerification.OFF_BY_OLD_DEFAULT)
                .map(TargetDefinition::getId)
                .sorted()
                .toList();
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        List<String> shown = ids.size() <= MAX_IDS ? ids : ids.subList(0, MAX_IDS);
        return Optional.of("warning: " + ids.size() + " stored HTTPS definition(s) do not verify certificates"
                + " (written before verification was the default; see docs/operations/tls-verification.md): "
                + String.join(", ", shown) + (shown.size() < ids.size() ? ", ..." : ""));
    }
}
