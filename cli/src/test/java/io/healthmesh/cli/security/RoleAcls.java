package io.healthmesh.cli.security;

import io.healthmesh.contract.Topics;
import org.apache.kafka.common.acl.AclBinding;

import java.util.List;

import static io.healthmesh.cli.security.SecuredCluster.allow;
import static org.apache.kafka.common.acl.AclOperation.ALL;
import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.apache.kafka.common.resource.PatternType.LITERAL;
import static org.apache.kafka.common.resource.PatternType.PREFIXED;
import static org.apache.kafka.common.resource.ResourceType.GROUP;
import static org.apache.kafka.common.resource.ResourceType.TOPIC;
import static org.apache.kafka.common.resource.ResourceType.TRANSACTIONAL_ID;

/**
 * The least-privilege ACLs of each role, exactly as docs/SECURITY.md lists them (READ and WRITE imply DESCRIBE).
 */
final class RoleAcls {

    private RoleAcls() {
    }

    /** A prober of {@code region}: reads the targets in its region's group, writes results and rejected records. */
    static List<AclBinding> prober(String user, Topics t, String region) {
        return List.of(
                allow(user, TOPIC, t.targets(), LITERAL, READ),
                allow(user, GROUP, "healthmesh-prober-" + region, LITERAL, READ),
                allow(user, TOPIC, t.probeResults(), LITERAL, WRITE),
                allow(user, TOPIC, t.rejected(), LITERAL, WRITE),
                // reads every worker's announced listeners to deny them, and announces its own
                allow(user, TOPIC, t.endpoints(), LITERAL, READ),
                allow(user, TOPIC, t.endpoints(), LITERAL, WRITE));
    }

    /**
     * The aggregator ({@code application.id} = {@code app}): creates and checks the healthmesh topics, reads its
     * inputs, writes its outputs, owns its internal topics, its group and its transactional ids.
     */
    static List<AclBinding> aggregator(String user, Topics t, String app) {
        return List.of(
                allow(user, TOPIC, t.prefix(), PREFIXED, CREATE),
                allow(user, TOPIC, t.prefix(), PREFIXED, DESCRIBE),
                allow(user, TOPIC, t.prefix(), PREFIXED, DESCRIBE_CONFIGS),
                allow(user, TOPIC, t.targets(), LITERAL, READ),
                allow(user, TOPIC, t.probeResults(), LITERAL, READ),
                allow(user, TOPIC, t.groups(), LITERAL, READ),
                allow(user, TOPIC, t.healthState(), LITERAL, WRITE),
                allow(user, TOPIC, t.groupState(), LITERAL, WRITE),
                // the status page's board reads what the aggregator wrote (docs/SECURITY.md)
                allow(user, TOPIC, t.healthState(), LITERAL, READ),
                allow(user, TOPIC, t.groupState(), LITERAL, READ),
                allow(user, TOPIC, t.rejected(), LITERAL, WRITE),
                allow(user, TOPIC, t.maintenance(), LITERAL, READ),
                allow(user, TOPIC, t.maintenanceAccepted(), LITERAL, READ),
                allow(user, TOPIC, t.maintenanceAccepted(), LITERAL, WRITE),
                allow(user, TOPIC, t.endpoints(), LITERAL, WRITE),
                allow(user, TOPIC, app + "-", PREFIXED, ALL),
                allow(user, GROUP, app, LITERAL, READ),
                allow(user, TRANSACTIONAL_ID, app + "-", PREFIXED, WRITE),
                allow(user, TRANSACTIONAL_ID, app + "-", PREFIXED, DESCRIBE));
    }

    /** The schema registry: its one topic, created, checked, read from the start and written. */
    static List<AclBinding> registry(String user, String schemasTopic) {
        return List.of(
                allow(user, TOPIC, schemasTopic, LITERAL, CREATE),
                allow(user, TOPIC, schemasTopic, LITERAL, DESCRIBE_CONFIGS),
                allow(user, TOPIC, schemasTopic, LITERAL, READ),
                allow(user, TOPIC, schemasTopic, LITERAL, WRITE));
    }

    /** {@code targets apply} and {@code targets delete}: read the topic (to compare), write it. */
    static List<AclBinding> targetsWriter(String user, Topics t) {
        return List.of(
                allow(user, TOPIC, t.targets(), LITERAL, READ),
                allow(user, TOPIC, t.targets(), LITERAL, WRITE));
    }

    /** {@code watch}: reads the two state topics (assigned partitions, no group). */
    static List<AclBinding> watcher(String user, Topics t) {
        return List.of(
                allow(user, TOPIC, t.healthState(), LITERAL, READ),
                allow(user, TOPIC, t.groupState(), LITERAL, READ));
    }
}
