package io.healthmesh.cli.groups;

import io.healthmesh.cli.BadInputException;
import io.healthmesh.cli.kafka.ClusterCommand;
import io.healthmesh.cli.kafka.CompactedTopic;
import io.healthmesh.contract.group.GroupPolicies;
import io.healthmesh.core.health.PanicThreshold;
import io.healthmesh.schema.GroupPolicy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.Map;

/**
 * {@code healthmesh groups set GROUP --min-healthy-percent P | --min-healthy-count N [--leave-margin-percent M]
 * [--leave-margin-count K]}: writes the group's policy, checked by the same rules the aggregator applies, so a
 * policy this command accepts is never rejected downstream. Setting replaces the whole policy.
 */
@Command(name = "set", mixinStandardHelpOptions = true,
        description = "Set a group's panic threshold (replaces its policy).")
public final class GroupSetCommand extends ClusterCommand {

    @Parameters(index = "0", paramLabel = "GROUP", description = "Group id (the targets' group).")
    String group;

    @Option(names = "--min-healthy-percent", paramLabel = "P",
            description = "1-100: fail open while fewer than P % of the members are HEALTHY or DISABLED.")
    Integer minHealthyPercent;

    @Option(names = "--min-healthy-count", paramLabel = "N",
            description = "1-1000000: fail open while fewer than N members are HEALTHY or DISABLED.")
    Integer minHealthyCount;

    @Option(names = "--leave-margin-percent", paramLabel = "M", defaultValue = "" + PanicThreshold.DEFAULT_MARGIN_PERCENT,
            description = "0-50: leave panic only at P + M % (default: ${DEFAULT-VALUE}).")
    int leaveMarginPercent;

    @Option(names = "--leave-margin-count", paramLabel = "K", defaultValue = "" + PanicThreshold.DEFAULT_MARGIN_COUNT,
            description = "0-10000: leave panic only at N + K members, at most the whole group (default: ${DEFAULT-VALUE}).")
    int leaveMarginCount;

    @Override
    public Integer call() {
        GroupPolicy policy;
        PanicThreshold threshold;
        try {
            if (minHealthyPercent == null && minHealthyCount == null) {
                throw new IllegalArgumentException("--min-healthy-percent, --min-healthy-count: both absent (expected: "
                        + "at least one; `healthmesh groups delete` removes a policy)");
            }
            threshold = new PanicThreshold(minHealthyPercent, minHealthyCount, leaveMarginPercent, leaveMarginCount);
            policy = GroupPolicies.toAvro(group, threshold);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("invalid group policy; nothing was written", java.util.List.of(e.getMessage()));
        }
        CompactedTopic<GroupPolicy> topic = GroupPolicyTopic.of(kafka);
        topic.requireExists();
        topic.write(Map.of(group, policy));
        PrintWriter out = out();
        out.printf("%-32s panic below %s%n", group, threshold);
        out.printf("set the policy of group %s in %s%n", group, topic.name());
        out.flush();
        return 0;
    }
}
