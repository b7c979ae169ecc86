package io.healthmesh.core.target;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The per-profile rules of SPEC section 10, checked against a target's {@link ProfileTable}: timing ranges and the
 * product's probe rules (protocols, methods, statuses, redirects, headers, payloads). Called by
 * {@link TargetValidator}; every message names the profile, e.g.
 * {@code intervalMs: 20000 (expected: 1000..50000 under ALIBABA_GA)}. GENERIC's messages carry no suffix.
 */
final class ProfileRules {

    private ProfileRules() {
    }

    /** Interval, timeout and thresholds against the profile's ranges, and the timeout against the interval. */
    static void checkTiming(List<Violation> out, TargetSpec spec) {
        ProfileTable t = ProfileTable.of(spec.profile());
        range(out, t, "intervalMs", spec.intervalMs(), t.intervalMs());
        range(out, t, "timeoutMs", spec.timeoutMs(), t.timeoutMs());
        if (!spec.fixedDelay() && spec.timeoutMs() > spec.intervalMs()) {
            // at a fixed rate a probe longer than the interval would overlap the next one; at a fixed delay the
            // next probe waits for this one, so 003's 2 s interval with its 3 s timeout is fine
            out.add(Violation.of("timeoutMs", Integer.toString(spec.timeoutMs()),
                    "at most intervalMs = " + spec.intervalMs()));
        }
        stateInterval(out, t, spec, "fastIntervalMs", spec.fastIntervalMs());
        stateInterval(out, t, spec, "downIntervalMs", spec.downIntervalMs());
        if (spec.fastIntervalMs() != null && spec.fastIntervalMs() > spec.intervalMs()) {
            // the fast phase exists to decide sooner; a longer one would only delay the decision
            out.add(Violation.of("fastIntervalMs", Integer.toString(spec.fastIntervalMs()),
                    "at most intervalMs = " + spec.intervalMs()));
        }
        range(out, t, "healthyThreshold", spec.healthyThreshold(), t.healthyThreshold());
        range(out, t, "unhealthyThreshold", spec.unhealthyThreshold(), t.unhealthyThreshold());
        if (t.oneThreshold() && spec.unhealthyThreshold() != spec.healthyThreshold()) {
            out.add(Violation.of("unhealthyThreshold", Integer.toString(spec.unhealthyThreshold()),
                    "equal to healthyThreshold = " + spec.healthyThreshold() + t.suffix()
                            + ", one threshold for both directions"));
        }
    }

    /**
     * A state-dependent interval: absent, or offered by the profile, in the range of {@code intervalMs}, and, for a
     * fixed-rate probe, not below the timeout (each interval in force must fit a whole probe, as {@code intervalMs}
     * must).
     */
    private static void stateInterval(List<Violation> out, ProfileTable t, TargetSpec spec, String field,
                                      Integer value) {
        if (value == null) {
            return;
        }
        if (!t.stateIntervals()) {
            out.add(Violation.of(field, Integer.toString(value), "absent under " + t.profile() + ": "
                    + t.profile().product() + " has one interval for every state"));
            return;
        }
        range(out, t, field, value, t.intervalMs());
        if (!spec.fixedDelay() && spec.timeoutMs() > value) {
            out.add(Violation.of(field, Integer.toString(value), "at least timeoutMs = " + spec.timeoutMs()
                    + " (a fixed-rate probe must end before the next one starts)"));
        }
    }

    /** The protocol is one the product offers, and the rules of that protocol's section. */
    static void checkProduct(List<Violation> out, TargetSpec spec) {
        checkProtocol(out, spec);
        switch (spec.protocol()) {
            case HTTP, HTTPS -> checkHttp(out, spec);
            case UDP -> checkUdp(out, spec);
            case TCP -> checkTcp(out, spec);
            case ICMP, GRPC, DNS -> { } // GRPC, DNS: refused above under every product profile
        }
    }

    private static void checkProtocol(List<Violation> out, TargetSpec spec) {
        ProfileTable t = ProfileTable.of(spec.profile());
        if (spec.protocol() != null && !t.protocols().contains(spec.protocol())) {
            out.add(Violation.of("protocol", spec.protocol().name(), "one of " + names(t.protocols()) + t.suffix()));
        }
    }

    /** The path character set of the profile; true when {@code path} has only those characters. */
    static boolean pathMatches(TargetProfile profile, String path) {
        return ProfileTable.of(profile).pathPattern().matcher(path).matches();
    }

    /** What a path message expects under {@code profile}. */
    static String pathExpectation(TargetProfile profile) {
        ProfileTable t = ProfileTable.of(profile);
        return "starts with '/', 1.." + TargetValidator.MAX_PATH_LENGTH + " characters of " + t.pathCharacters()
                + t.suffix();
    }

    /** True when a {@code host} entry among the custom headers is the domain (001). */
    static boolean hostHeaderAllowed(TargetProfile profile) {
        return ProfileTable.of(profile).hostHeaderAsDomain();
    }

    /** HTTP rules beyond GENERIC's: methods, statuses, redirects, headers, body match, the Host entry. */
    private static void checkHttp(List<Violation> out, TargetSpec spec) {
        ProfileTable t = ProfileTable.of(spec.profile());
        if (spec.profile() == TargetProfile.GENERIC) {
            return;
        }
        HttpSpec http = spec.http();
        if (http.method() != null && !t.methods().contains(http.method())) {
            out.add(Violation.of("http.method", http.method().name(), names(t.methods()) + t.suffix()));
        }
        switch (t.statusRule()) {
            case CLASSES_ONLY -> http.expectedStatuses().stream()
                    .filter(s -> !ExpectedStatuses.isClass(s))
                    .forEach(s -> out.add(Violation.of("http.expectedStatuses", "\"" + s + "\"",
                            "a class 1xx..5xx" + t.suffix())));
            case ONLY_200 -> {
                if (!http.expectedStatuses().equals(List.of("200"))) {
                    out.add(Violation.of("http.expectedStatuses", http.expectedStatuses().toString(),
                            "[200]" + t.suffix()));
                }
            }
            case CLASSES_AND_CODES -> { }
        }
        if (!t.redirects() && http.followRedirects()) {
            out.add(Violation.of("http.followRedirects", "true", "false" + t.suffix()));
        }
        if (t.maxHeaders() < TargetValidator.MAX_HEADERS && http.headers().size() > t.maxHeaders()) {
            out.add(Violation.of("http.headers", http.headers().size() + " headers",
                    "at most " + t.maxHeaders() + t.suffix()));
        }
        if (!t.bodyMatch() && http.bodyContains() != null) {
            out.add(Violation.of("http.bodyContains", "set", "not set" + t.suffix() + ", which judges the status only"));
        }
        String hostHeader = hostHeader(http.headers());
        if (t.hostHeaderAsDomain() && hostHeader != null) {
            if (!TargetValidator.isHostName(hostHeader)) {
                out.add(Violation.of("http.headers[host]", "\"" + hostHeader + "\"", "a host name" + t.suffix()));
            } else if (http.host() != null && !http.host().equalsIgnoreCase(hostHeader)) {
                out.add(Violation.of("http.headers[host]", "\"" + hostHeader + "\"",
                        "the same as http.host = \"" + http.host() + "\"" + t.suffix()));
            }
        }
    }

    /** UDP modes the profile offers. */
    private static void checkUdp(List<Violation> out, TargetSpec spec) {
        ProfileTable t = ProfileTable.of(spec.profile());
        UdpMode mode = spec.udp().mode();
        if (mode != null && !t.udpModes().isEmpty() && !t.udpModes().contains(mode)) {
            out.add(Violation.of("udp.mode", mode.name(), names(t.udpModes()) + t.suffix()));
        }
    }

    /** A TCP payload exchange only where the product offers one. */
    private static void checkTcp(List<Violation> out, TargetSpec spec) {
        ProfileTable t = ProfileTable.of(spec.profile());
        if (!t.tcpPayload() && spec.tcp().hasPayload()) {
            out.add(Violation.of("tcp", "a payload exchange", "connect only" + t.suffix()));
        }
    }

    /** The value of a {@code host} entry among {@code headers} (any case), or {@code null}. */
    static String hostHeader(Map<String, String> headers) {
        return headers.entrySet().stream()
                .filter(e -> e.getKey().toLowerCase(Locale.ROOT).equals("host"))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    private static void range(List<Violation> out, ProfileTable t, String field, int value, IntRange range) {
        if (!range.contains(value)) {
            out.add(Violation.of(field, Integer.toString(value), range + t.suffix()));
        }
    }

    private static <E extends Enum<E>> String names(java.util.Collection<E> values) {
        return values.stream().sorted().map(Enum::name).collect(Collectors.joining(", "));
    }
}
