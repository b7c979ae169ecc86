package io.healthmesh.ops;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * How a role that holds partitions through a Kafka consumer group (prober, aggregator, notifier) belongs to it, so
 * that a crash costs seconds (docs/operations/crash-recovery.md): a static member with a stable
 * {@code group.instance.id}, which a restart takes back at once without a rebalance, and a session timeout of
 * {@value #SESSION_TIMEOUT_MS} ms with a heartbeat every {@value #HEARTBEAT_INTERVAL_MS} ms, after which the survivors
 * take the partitions of a member that does not come back (Kafka's default is 45 s). Both are defaults: a
 * {@code kafka.*} pass-through of the same key wins. Under Kafka's newer consumer protocol
 * ({@code kafka.group.protocol=consumer}) the broker owns the session timeout and heartbeat, and the client refuses
 * them, so only the instance id is applied.
 */
public final class GroupMembership {

    /** The key of the setting, of the Kafka consumer property it fills, and of the pass-through that overrides it. */
    public static final String INSTANCE_ID = "group.instance.id";
    public static final int SESSION_TIMEOUT_MS = 10_000;
    public static final int HEARTBEAT_INTERVAL_MS = 1_000;

    private static final String SESSION_TIMEOUT = "session.timeout.ms";
    private static final String HEARTBEAT_INTERVAL = "heartbeat.interval.ms";
    private static final String GROUP_PROTOCOL = "group.protocol";
    /** Kafka's own limit is 249 characters of this alphabet; Kafka Streams appends a thread suffix. */
    private static final Pattern INSTANCE_ID_VALUE = Pattern.compile("[A-Za-z0-9._:@-]{0,200}");

    private GroupMembership() {
    }

    /**
     * The {@code group.instance.id} setting of a role, whose default the documentation shows as {@code shown} (the
     * role computes it at start; {@code null} for none); an empty value asks for dynamic membership.
     */
    public static Setting<String> instanceIdSetting(String shown) {
        Setting<String> setting = Setting.matching(INSTANCE_ID, null, INSTANCE_ID_VALUE,
                        "empty (dynamic membership) or 1-200 of [A-Za-z0-9._:@-]",
                        "Static member id in the role's consumer group: a restart with the same id takes its "
                                + "partitions back at once; unique within the group (a second member with the same id "
                                + "fences the first).");
        return shown == null ? setting : setting.documentedAs(shown, null);
    }

    /**
     * The {@code kafka.*} pass-through {@code kafka} with the membership defaults added: {@code instanceId} (none when
     * {@code null} or empty) and, under the classic protocol, the session timeout and heartbeat interval. Keys in
     * {@code kafka} win.
     */
    public static Map<String, String> withDefaults(Map<String, String> kafka, String instanceId) {
        requireNonNull(kafka, "kafka");
        Map<String, String> props = new TreeMap<>(kafka);
        if (instanceId != null && !instanceId.isEmpty()) {
            props.putIfAbsent(INSTANCE_ID, instanceId);
        }
        if (!"consumer".equalsIgnoreCase(props.getOrDefault(GROUP_PROTOCOL, "classic").trim())) {
            props.putIfAbsent(SESSION_TIMEOUT, Integer.toString(SESSION_TIMEOUT_MS));
            props.putIfAbsent(HEARTBEAT_INTERVAL, Integer.toString(HEARTBEAT_INTERVAL_MS));
        }
        return props;
    }

    /**
     * This host's name as a member id: {@code HOSTNAME} (set in containers, a pod's stable name in a StatefulSet),
     * else the resolver's answer, with characters Kafka refuses replaced.
     */
    public static String hostName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "unknown-host";
            }
        }
        String id = host.replaceAll("[^A-Za-z0-9._:@-]", "_");
        return id.length() <= 150 ? id : id.substring(id.length() - 150);
    }
}
