package io.healthmesh.core.target;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Checks a {@link TargetSpec} against every range and rule of SPEC sections 4, 5 and 9 and reports
 * <em>all</em> violations at once, so that a user fixes a definition in one round trip. Pure: no I/O, no DNS;
 * an address is checked for syntax only (IP literal or host name).
 *
 * <p>Protocol sections are checked only for the protocol that uses them ({@code http} for HTTP/HTTPS,
 * {@code udp} for UDP, {@code tcp} for TCP, {@code grpc} for GRPC, {@code dns} for DNS; {@code tls} for HTTPS and
 * GRPC over TLS): the contract mapper drops the others, so they can never reach a prober.
 */
public final class TargetValidator {

    public static final int MAX_ID_LENGTH = 255;
    public static final int MIN_INTERVAL_MS = 100;
    public static final int MAX_INTERVAL_MS = 600_000;
    public static final int MIN_TIMEOUT_MS = 100;
    public static final int MAX_TIMEOUT_MS = 60_000;
    public static final int MAX_THRESHOLD = 10;
    public static final int MAX_WEIGHT = 100;
    public static final int MAX_PATH_LENGTH = 80;
    public static final int MAX_HEADERS = 8;
    public static final int MAX_PAYLOAD_LENGTH = 500;

    /** RFC 9110 token: the characters a header field name may have. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");
    private static final Pattern HOST_LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
    private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");
    private static final Pattern HEX_GROUP = Pattern.compile("[0-9A-Fa-f]{1,4}");
    private static final Pattern ZONE_ID = Pattern.compile("[A-Za-z0-9_.\\-]+");
    private static final int MAX_HOST_NAME_LENGTH = 253;
    private static final int SHOWN_CHARS = 40;
    private static final String PROTOCOL_NAMES = String.join(", ",
            java.util.Arrays.stream(Protocol.values()).map(Enum::name).toList());

    private TargetValidator() {
    }

    /** Every violation of {@code spec}, in field order; empty when the definition is valid. */
    public static List<Violation> validate(TargetSpec spec) {
        requireNonNull(spec, "spec");
        List<Violation> out = new ArrayList<>();
        checkKey(out, "id", spec.id());
        checkKey(out, "group", spec.group());
        checkAddress(out, spec.address());
        if (spec.protocol() == null) {
            out.add(Violation.of("protocol", "null", "one of " + PROTOCOL_NAMES));
        } else if (spec.protocol() != Protocol.ICMP) {
            range(out, "port", spec.port(), 1, 65_535);
        }
        // interval, timeout and thresholds: the ranges of the target's profile (GENERIC: SPEC section 5)
        ProfileRules.checkTiming(out, spec);
        range(out, "weight", spec.weight(), 0, MAX_WEIGHT);
        if (spec.protocol() != null) {
            switch (spec.protocol()) {
                case HTTP, HTTPS -> checkHttp(out, spec.http(), spec.profile());
                case UDP -> checkUdp(out, spec.udp());
                case TCP -> checkTcp(out, spec.tcp());
                case GRPC -> GrpcRules.check(out, spec.grpc());
                case DNS -> DnsRules.check(out, spec.dns());
                case ICMP -> { }
            }
            TlsRules.check(out, spec);
            ConditionRules.check(out, spec);
            // the product's own rules (protocols, methods, statuses, payloads): none beyond these under GENERIC
            ProfileRules.checkProduct(out, spec);
        }
        checkRegions(out, spec);
        DefinitionBounds.check(out, spec);
        return List.copyOf(out);
    }

    /**
     * The bound on a definition's encoded size ({@link Limits#MAX_DEFINITION_BYTES}), for callers that hold the
     * bytes (prober, aggregator, {@code targets apply}); checked before decoding. Empty when within the bound.
     */
    public static List<Violation> validateEncodedSize(int bytes) {
        return DefinitionBounds.encodedSize(bytes);
    }

    /** True when {@code text} is an IPv4 or IPv6 literal or a syntactically valid host name. */
    public static boolean isValidAddress(String text) {
        return text != null && (isIpv4(text) || isIpv6(text) || isHostName(text));
    }

    private static void checkKey(List<Violation> out, String field, String value) {
        if (value == null || value.isEmpty()) {
            out.add(Violation.of(field, show(value), "non-empty"));
        } else if (value.length() > MAX_ID_LENGTH) {
            out.add(Violation.of(field, value.length() + " characters", "at most " + MAX_ID_LENGTH));
        } else if (value.chars().anyMatch(Character::isISOControl)) {
            out.add(Violation.of(field, show(value), "no control characters"));
        }
    }

    private static void checkAddress(List<Violation> out, String address) {
        if (address == null || address.isEmpty()) {
            out.add(Violation.of("address", show(address), "non-empty IP address or host name"));
        } else if (!isValidAddress(address)) {
            out.add(Violation.of("address", show(address), "IPv4 or IPv6 address or host name"));
        }
    }

    private static void checkHttp(List<Violation> out, HttpSpec http, TargetProfile profile) {
        String path = http.path();
        if (path == null || path.isEmpty() || path.length() > MAX_PATH_LENGTH
                || !ProfileRules.pathMatches(profile, path)) {
            out.add(Violation.of("http.path", show(path), ProfileRules.pathExpectation(profile)));
        }
        if (http.method() == null) {
            out.add(Violation.of("http.method", "null", "HEAD or GET"));
        }
        if (http.host() != null && !isHostName(http.host())) {
            out.add(Violation.of("http.host", show(http.host()), "a host name"));
        }
        if (http.expectedStatuses().isEmpty()) {
            out.add(Violation.of("http.expectedStatuses", "[]", "at least one of " + ExpectedStatuses.SYNTAX));
        }
        for (String status : http.expectedStatuses()) {
            if (!ExpectedStatuses.isEntry(status)) {
                out.add(Violation.of("http.expectedStatuses", show(status), ExpectedStatuses.SYNTAX));
            }
        }
        checkHeaders(out, http.headers(), ProfileRules.hostHeaderAllowed(profile));
        if (http.bodyContains() != null && http.bodyContains().length() > MAX_PAYLOAD_LENGTH) {
            out.add(Violation.of("http.bodyContains", http.bodyContains().length() + " characters",
                    "at most " + MAX_PAYLOAD_LENGTH));
        }
        if (http.bodyContains() != null && http.method() == HttpMethod.HEAD) {
            // a HEAD response has no body: the check could never pass
            out.add(Violation.of("http.method", "HEAD", "GET when bodyContains is set"));
        }
    }

    private static void checkHeaders(List<Violation> out, Map<String, String> headers, boolean hostAllowed) {
        if (headers.size() > MAX_HEADERS) {
            out.add(Violation.of("http.headers", headers.size() + " headers", "at most " + MAX_HEADERS));
        }
        headers.keySet().stream().sorted().forEach(name -> {
            String field = "http.headers[" + Texts.escape(name) + "]";
            String value = headers.get(name);
            if (name.toLowerCase(Locale.ROOT).equals("host") && !hostAllowed) {
                out.add(Violation.of(field, show(value), "no Host header here; set http.host"));
            } else if (!TOKEN.matcher(name).matches()) {
                out.add(Violation.of(field, "name " + show(name), "a token: letters, digits and !#$%&'*+-.^_`|~"));
            } else if (ReservedHeaders.isMetadataService(name)) {
                out.add(Violation.of(field, "name " + show(name), "not a cloud metadata service's request header"));
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                // a header value may be a credential: a refusal is logged and published, so it names the size only
                out.add(Violation.of(field, "(value hidden, " + value.length() + " characters)", "no CR or LF in the value"));
            }
        });
    }

    private static void checkUdp(List<Violation> out, UdpSpec udp) {
        if (udp.mode() == null) {
            out.add(Violation.of("udp.mode", "null", "PORT or PAYLOAD"));
            return;
        }
        if (udp.mode() == UdpMode.PAYLOAD) {
            payload(out, "udp.request", udp.request(), true);
            payload(out, "udp.expectedResponse", udp.expectedResponse(), true);
        } else {
            payload(out, "udp.request", udp.request(), false);
            payload(out, "udp.expectedResponse", udp.expectedResponse(), false);
        }
        UdpPayloadRules.check(out, udp);
    }

    private static void checkTcp(List<Violation> out, TcpSpec tcp) {
        payload(out, "tcp.send", tcp.send(), false);
        payload(out, "tcp.expect", tcp.expect(), false);
    }

    private static void payload(List<Violation> out, String field, String value, boolean required) {
        if (value == null || value.isEmpty()) {
            if (required) {
                out.add(Violation.of(field, show(value), "1.." + MAX_PAYLOAD_LENGTH + " characters in PAYLOAD mode"));
            }
        } else if (value.length() > MAX_PAYLOAD_LENGTH) {
            out.add(Violation.of(field, value.length() + " characters", "at most " + MAX_PAYLOAD_LENGTH));
        }
    }

    private static void checkRegions(List<Violation> out, TargetSpec spec) {
        Set<String> seen = new HashSet<>();
        for (String region : spec.regions()) {
            if (region.isEmpty()) {
                out.add(Violation.of("regions", show(region), "non-empty region names"));
            } else if (!seen.add(region)) {
                out.add(Violation.of("regions", show(region) + " twice", "unique region names"));
            }
        }
        if (spec.quorumAtLeast() < 1) {
            out.add(Violation.of("quorumAtLeast", Integer.toString(spec.quorumAtLeast()), "at least 1"));
        } else if (!spec.regions().isEmpty() && spec.quorumAtLeast() > spec.regions().size()) {
            out.add(Violation.of("quorumAtLeast", Integer.toString(spec.quorumAtLeast()),
                    "1.." + spec.regions().size() + ", the number of regions"));
        }
    }

    private static void range(List<Violation> out, String field, int value, int min, int max) {
        if (value < min || value > max) {
            out.add(Violation.of(field, Integer.toString(value), min + ".." + max));
        }
    }

    /**
     * Dotted-quad IPv4: four decimal octets of at most 255, without leading zeros, separated by single dots. Scanned
     * character by character: every definition a role reads passes here, and a split and four pattern matches per
     * address were a visible share of reading a fleet's definitions.
     */
    static boolean isIpv4(String text) {
        int octets = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            int start = i;
            int value = 0;
            while (i < n && i - start < 4) {
                char c = text.charAt(i);
                if (c < '0' || c > '9') {
                    break;
                }
                value = value * 10 + (c - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || digits > 3 || value > 255 || (digits > 1 && text.charAt(start) == '0')) {
                return false;
            }
            octets++;
            if (i == n) {
                break;
            }
            if (text.charAt(i) != '.' || octets == 4) {
                return false;
            }
            i++;
            if (i == n) {
                return false;   // a trailing dot
            }
        }
        return octets == 4;
    }

    static boolean isIpv6(String text) {
        String address = text;
        int zone = address.indexOf('%');
        if (zone >= 0) {
            if (!ZONE_ID.matcher(address.substring(zone + 1)).matches()) {
                return false;
            }
            address = address.substring(0, zone);
        }
        if (!address.contains(":")) {
            return false;
        }
        int groups = 0;
        String[] halves = address.split("::", -1);
        if (halves.length > 2) {
            return false;
        }
        boolean compressed = halves.length == 2;
        for (int h = 0; h < halves.length; h++) {
            if (halves[h].isEmpty()) {
                continue;
            }
            String[] parts = halves[h].split(":", -1);
            for (int i = 0; i < parts.length; i++) {
                boolean lastOfAddress = h == halves.length - 1 && i == parts.length - 1;
                if (lastOfAddress && parts[i].contains(".")) {
                    if (!isIpv4(parts[i])) {
                        return false;
                    }
                    groups += 2;
                } else if (HEX_GROUP.matcher(parts[i]).matches()) {
                    groups++;
                } else {
                    return false;
                }
            }
        }
        return compressed ? groups <= 7 : groups == 8;
    }

    static boolean isHostName(String text) {
        String name = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        if (name.isEmpty() || name.length() > MAX_HOST_NAME_LENGTH || DIGITS_AND_DOTS.matcher(name).matches()) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (!HOST_LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }

    /** The value as shown in a message: quoted, control characters escaped, long values cut. */
    private static String show(String value) {
        if (value == null) {
            return "null";
        }
        String escaped = Texts.escape(value);
        return escaped.length() > SHOWN_CHARS
                ? "\"" + escaped.substring(0, SHOWN_CHARS) + "...\" (" + value.length() + " characters)"
                : "\"" + escaped + "\"";
    }
}
