package io.healthmesh.core.target;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules of a definition's {@code tls} section; called by {@link TargetValidator}. The section applies to HTTPS
 * and to GRPC over TLS, under the GENERIC profile only: the products a profile reproduces offer none of it.
 */
final class TlsRules {

    /** The ids of the prober's trust bundles and client keys: setting-name material, nothing more. */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1," + TlsSpec.MAX_ID_LENGTH + "}");
    private static final String ID_EXPECTATION = "1.." + TlsSpec.MAX_ID_LENGTH
            + " of [A-Za-z0-9._-], the id of a prober setting";

    private TlsRules() {
    }

    static void check(List<Violation> out, TargetSpec spec) {
        TlsSpec tls = spec.tls();
        if (tls.equals(TlsSpec.DEFAULTS)) {
            return;
        }
        if (!spec.usesTls()) {
            out.add(new Violation("tls", "a TLS section for a probe without TLS (expected: only with protocol HTTPS,"
                    + " or GRPC with grpc.tls: true)"));
            return;
        }
        if (spec.profile() != TargetProfile.GENERIC) {
            out.add(new Violation("tls", "a TLS section under profile " + spec.profile()
                    + " (expected: only under profile GENERIC; " + spec.profile() + " offers no such settings)"));
        }
        id(out, "tls.trustId", tls.trustId());
        id(out, "tls.clientKeyId", tls.clientKeyId());
        if (tls.minCertDaysLeft() < 0 || tls.minCertDaysLeft() > TlsSpec.MAX_MIN_DAYS_LEFT) {
            out.add(Violation.of("tls.minCertDaysLeft", Integer.toString(tls.minCertDaysLeft()),
                    "0.." + TlsSpec.MAX_MIN_DAYS_LEFT + " (0: no rule)"));
        }
        if (tls.insecureSkipVerify() && tls.trustId() != null) {
            out.add(Violation.of("tls.trustId", Texts.show(tls.trustId()),
                    "none with insecureSkipVerify: true (nothing is verified against it)"));
        }
        if (tls.insecureSkipVerify() && spec.protocol() == Protocol.HTTPS && spec.http().tlsVerify()) {
            out.add(Violation.of("tls.insecureSkipVerify", "true", "false when http.tlsVerify is true"));
        }
    }

    private static void id(List<Violation> out, String field, String id) {
        if (id != null && !ID.matcher(id).matches()) {
            out.add(Violation.of(field, Texts.show(id), ID_EXPECTATION));
        }
    }
}
