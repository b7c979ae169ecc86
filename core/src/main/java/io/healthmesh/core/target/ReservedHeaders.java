package io.healthmesh.core.target;

import java.util.Locale;
import java.util.Set;

/**
 * The request header names a definition cannot set, in one place for the validator and the HTTP prober.
 * <ul>
 *   <li>The probe's own headers (Host, User-Agent, Connection and the framing headers): the prober sets them so
 *       every probe stays recognisable and one connection carries one request; a custom value is ignored.</li>
 *   <li>The headers that cloud metadata services require as proof that a request is not forwarded (GCP's
 *       {@code Metadata-Flavor} and {@code X-Google-Metadata-Request}, Azure IMDS's {@code Metadata}, AWS IMDSv2's
 *       token headers): a definition carrying one is refused, since its only use from a prober is to read
 *       credentials of the host it runs on, should the egress policy miss an address.</li>
 * </ul>
 */
public final class ReservedHeaders {

    /** Lower-case names the prober sets itself; a definition's value for them is ignored. */
    public static final Set<String> PROBE_OWNED = Set.of("host", "user-agent", "connection", "content-length",
            "transfer-encoding", "upgrade", "te", "trailer", "keep-alive", "proxy-connection");

    /** Lower-case names of metadata-service request headers; a definition setting one is refused. */
    public static final Set<String> METADATA_SERVICE = Set.of("metadata-flavor", "x-google-metadata-request",
            "metadata", "x-aws-ec2-metadata-token", "x-aws-ec2-metadata-token-ttl-seconds");

    private ReservedHeaders() {
    }

    /** Whether {@code name} (any case) names a metadata-service header. */
    public static boolean isMetadataService(String name) {
        return METADATA_SERVICE.contains(name.toLowerCase(Locale.ROOT));
    }

    /** Whether the prober never sends a definition's header {@code name} (any case). */
    public static boolean isReserved(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return PROBE_OWNED.contains(lower) || METADATA_SERVICE.contains(lower);
    }
}
