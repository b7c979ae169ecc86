package io.healthmesh.cli.groups;

import io.healthmesh.cli.kafka.KafkaOptions;
import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.schema.GroupPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code healthmesh groups list}: every group policy in force, sorted by group id. A record the aggregator would
 * reject (written by another tool) is listed with the reason instead of a threshold.
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List group policies.")
public final class GroupListCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KafkaOptions kafka;

    @Override
    public Integer call() {
        GroupPolicyTopic topic = new GroupPolicyTopic(kafka);
        GroupPolicyTopic.Contents contents = topic.read();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%-32s %s%n", "GROUP", "PANIC BELOW");
        for (Map.Entry<String, GroupPolicy> e : new TreeMap<>(contents.policies()).entrySet()) {
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
