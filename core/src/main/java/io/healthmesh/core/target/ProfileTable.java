package io.healthmesh.core.target;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * One row set of docs/PROFILES.md: every range, default and rule a product's document states, as data. The
 * validator ({@link ProfileRules}) holds targets to it, the CLI fills unset fields from it, the scheduler and
 * {@link DetectionWindow} read its schedule from {@link TargetProfile}. Where a document is silent the GENERIC
 * cell applies (PROFILES.md says which cells those are).
 *
 * @param protocols probe kinds the product offers
 * @param oneThreshold true when the product has a single threshold for both directions (003): unhealthyThreshold
 *                     must equal healthyThreshold and defaults to it
 * @param methods HTTP methods offered
 * @param statusRule which expected statuses are accepted
 * @param redirects whether following redirects is offered
 * @param maxHeaders custom request headers allowed (0: none)
 * @param hostHeaderAsDomain a {@code host} entry in the custom headers is accepted and used as the domain (001)
 * @param omitHostWithoutDomain without a domain the request carries no Host header at all (002)
 * @param bodyMatch whether {@code bodyContains} is offered (every document judges HTTP by status only)
 * @param pathPattern the path character set, with its description for messages
 * @param udpModes UDP modes offered (empty when UDP is not offered)
 * @param tcpPayload whether a TCP request/response exchange is offered
 * @param stateIntervals whether {@code fastIntervalMs} and {@code downIntervalMs} are offered: no product's
 *                       document has an interval that depends on the state (one interval for every state), so only
 *                       GENERIC offers them
 * @param examples the document's worked examples (none for 002)
 */
public record ProfileTable(TargetProfile profile, Set<Protocol> protocols,
                           IntRange intervalMs, int defaultIntervalMs, IntRange timeoutMs, int defaultTimeoutMs,
                           IntRange healthyThreshold, int defaultHealthyThreshold,
                           IntRange unhealthyThreshold, int defaultUnhealthyThreshold, boolean oneThreshold,
                           Set<HttpMethod> methods, HttpMethod defaultMethod,
                           StatusRule statusRule, List<String> defaultStatuses, boolean redirects, int maxHeaders,
                           boolean hostHeaderAsDomain, boolean omitHostWithoutDomain, boolean bodyMatch,
                           Pattern pathPattern, String pathCharacters, Set<UdpMode> udpModes, UdpMode defaultUdpMode,
                           boolean tcpPayload, boolean stateIntervals, List<WorkedExample> examples) {

    /** Characters every profile but GA accepts in a path: 003's set plus {@code =}. */
    public static final String GENERIC_PATH_CHARACTERS = "letters, digits and -/.%?#&=_;~!()*[]@$^:',+";
    /** 003's set, as its line 79 states it. */
    public static final String GA_PATH_CHARACTERS = "letters, digits and -/.%?#&_;~!()*[]@$^:',+";

    private static final Pattern GENERIC_PATH = Pattern.compile("/[A-Za-z0-9\\-/.%?#&=_;~!()*\\[\\]@$^:',+]*");
    private static final Pattern GA_PATH = Pattern.compile("/[A-Za-z0-9\\-/.%?#&_;~!()*\\[\\]@$^:',+]*");
    private static final Set<Protocol> ALL = EnumSet.allOf(Protocol.class);
    /** What 001 documents: TCP, UDP, HTTP, HTTPS and ICMP ping; the protocols added since are GENERIC only. */
    private static final Set<Protocol> EDGEONE = EnumSet.of(Protocol.TCP, Protocol.UDP, Protocol.HTTP, Protocol.HTTPS,
            Protocol.ICMP);
    private static final Set<HttpMethod> HEAD_OR_GET = EnumSet.allOf(HttpMethod.class);
    private static final Set<UdpMode> BOTH_MODES = EnumSet.allOf(UdpMode.class);
    private static final List<String> CLASS_2XX = List.of("2xx");
    private static final IntRange GENERIC_INTERVAL = new IntRange(100, 600_000);
    private static final IntRange GENERIC_TIMEOUT = new IntRange(100, 60_000);
    private static final IntRange GENERIC_THRESHOLD = new IntRange(1, 10);

    public ProfileTable {
        requireNonNull(profile, "profile");
        protocols = Set.copyOf(protocols);
        methods = Set.copyOf(methods);
        defaultStatuses = List.copyOf(defaultStatuses);
        udpModes = Set.copyOf(udpModes);
        examples = List.copyOf(examples);
    }

    private static final Map<TargetProfile, ProfileTable> TABLES = Map.of(
            TargetProfile.GENERIC, new ProfileTable(TargetProfile.GENERIC, ALL,
                    GENERIC_INTERVAL, 5_000, GENERIC_TIMEOUT, 2_000,
                    GENERIC_THRESHOLD, 3, GENERIC_THRESHOLD, 3, false,
                    HEAD_OR_GET, HttpMethod.HEAD, StatusRule.CLASSES_AND_CODES, CLASS_2XX, true, 8,
                    false, false, true, GENERIC_PATH, GENERIC_PATH_CHARACTERS, BOTH_MODES, UdpMode.PORT,
                    true, true, List.of()),
            TargetProfile.TENCENT_CLB, new ProfileTable(TargetProfile.TENCENT_CLB,
                    EnumSet.of(Protocol.TCP, Protocol.UDP, Protocol.HTTP, Protocol.HTTPS),
                    new IntRange(5_000, 300_000), 5_000, new IntRange(2_000, 60_000), 2_000,
                    new IntRange(2, 10), 3, new IntRange(2, 10), 3, false,
                    HEAD_OR_GET, HttpMethod.HEAD, StatusRule.CLASSES_AND_CODES, CLASS_2XX, true, 8,
                    false, false, false, GENERIC_PATH, GENERIC_PATH_CHARACTERS, BOTH_MODES, UdpMode.PORT,
                    true, false, List.of(
                            new WorkedExample(Protocol.HTTP, 5_000, 2_000, 3, 3, 1_000, 16_000, 13_000,
                                    "000 lines 82-86"),
                            new WorkedExample(Protocol.TCP, 5_000, 2_000, 3, 3, 1_000, 10_000, 10_000,
                                    "000 lines 75-81"))),
            TargetProfile.TENCENT_EDGEONE, new ProfileTable(TargetProfile.TENCENT_EDGEONE, EDGEONE,
                    new IntRange(30_000, 600_000), 30_000, new IntRange(1_000, 30_000), 5_000,
                    new IntRange(1, 5), 3, new IntRange(1, 5), 2, false,
                    HEAD_OR_GET, HttpMethod.HEAD, StatusRule.CLASSES_ONLY, CLASS_2XX, true, 8,
                    true, false, false, GENERIC_PATH, GENERIC_PATH_CHARACTERS, EnumSet.of(UdpMode.PAYLOAD),
                    UdpMode.PAYLOAD, false, false, List.of(
                            new WorkedExample(Protocol.HTTP, 30_000, 5_000, 3, 3, 1_000, 75_000, 63_000,
                                    "001 lines 31-34"),
                            new WorkedExample(Protocol.TCP, 30_000, 5_000, 3, 3, 1_000, 75_000, 63_000,
                                    "001 lines 31-34"))),
            TargetProfile.ALIBABA_NLB, new ProfileTable(TargetProfile.ALIBABA_NLB,
                    EnumSet.of(Protocol.TCP, Protocol.UDP, Protocol.HTTP),
                    GENERIC_INTERVAL, 5_000, GENERIC_TIMEOUT, 2_000,
                    GENERIC_THRESHOLD, 3, GENERIC_THRESHOLD, 3, false,
                    HEAD_OR_GET, HttpMethod.HEAD, StatusRule.CLASSES_AND_CODES, CLASS_2XX, true, 8,
                    false, true, false, GENERIC_PATH, GENERIC_PATH_CHARACTERS, BOTH_MODES, UdpMode.PORT,
                    true, false, List.of()),
            TargetProfile.ALIBABA_GA, new ProfileTable(TargetProfile.ALIBABA_GA,
                    EnumSet.of(Protocol.TCP, Protocol.HTTP, Protocol.HTTPS),
                    new IntRange(1_000, 50_000), 2_000, new IntRange(3_000, 3_000), 3_000,
                    new IntRange(2, 10), 3, new IntRange(2, 10), 3, true,
                    EnumSet.of(HttpMethod.GET), HttpMethod.GET, StatusRule.ONLY_200, List.of("200"), false, 0,
                    false, false, false, GA_PATH, GA_PATH_CHARACTERS, EnumSet.noneOf(UdpMode.class), UdpMode.PORT,
                    false, false, List.of(
                            new WorkedExample(Protocol.HTTP, 2_000, 3_000, 3, 3, 1_000, 13_000, 7_000,
                                    "003 lines 54-59"),
                            new WorkedExample(Protocol.TCP, 2_000, 3_000, 3, 3, 1_000, 13_000, 7_000,
                                    "003 lines 54-59"))));

    /** The table of {@code profile} ({@code null}: GENERIC). */
    public static ProfileTable of(TargetProfile profile) {
        return TABLES.get(profile == null ? TargetProfile.GENERIC : profile);
    }

    /** The HTTP settings a target of this profile gets when it states none. */
    public HttpSpec defaultHttp() {
        return new HttpSpec(defaultMethod, "/", null, defaultStatuses, false, Map.of(), null, false);
    }

    /** The UDP settings a target of this profile gets when it states none. */
    public UdpSpec defaultUdp() {
        return new UdpSpec(defaultUdpMode, null, null);
    }

    /** A target of this profile with every field at the profile's default. */
    public TargetSpec newSpec(String id, String group, String address, int port, Protocol protocol) {
        return new TargetSpec(id, group, address, port, protocol, defaultIntervalMs, defaultTimeoutMs,
                defaultHealthyThreshold, defaultUnhealthyThreshold, true, TargetSpec.DEFAULT_WEIGHT, Map.of(),
                defaultHttp(), defaultUdp(), null, List.of(), QuorumPolicy.MAJORITY, 1, profile);
    }

    /** {@code " under PROFILE"} for every profile but GENERIC, whose messages stay as they were. */
    public String suffix() {
        return profile == TargetProfile.GENERIC ? "" : " under " + profile;
    }
}
