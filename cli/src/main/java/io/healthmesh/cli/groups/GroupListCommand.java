package io.healthmesh.cli.groups;

import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.schema.GroupPolicy;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code healthmesh groups list}: every group policy in force, sorted by group id. A record the aggregator would
 * reject (written by another tool) is listed with the reason instead of a threshold.
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List group policies.")
public final class GroupListCommand extends ClusterCommand {

    @Override
    public Integer call() {
        CompactedTopic.Contents<GroupPolicy> contents = GroupPolicyTopic.of(kafka).read();
        PrintWriter out = out();
        out.printf("%-32s %s%n", "GROUP", "PANIC BELOW");
        for (Map.Entry<String, GroupPolicy> e : new TreeMap<>(contents.values()).entrySet()) {
            String shown;
            try {
                shown = GroupPolicies.threshold(e.getKey(), e.getValue()).toString();
            } catch (IllegalArgumentException invalid) {
                shown = "REJECTED by the aggregator: " + invalid.getMessage();
            }
            out.printf("%-32s %s%n", e.getKey(), shown);
        }
        contents.undecodable().forEach(u -> out.printf("undecodable: %s%n", u));
        out.flush();
        return 0;
    }
}
